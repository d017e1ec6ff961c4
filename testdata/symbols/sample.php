<?php
// Every PHP construct the index keeps.
namespace App\Routing;

interface Handler
{
    public function handle(string $request): void;
}

trait Loggable
{
    public function log(string $msg): void {}
}

abstract class CommandRouter implements Handler
{
    use Loggable;

    public function __construct() {}

    public function handle(string $request): void {}

    abstract protected function routes(): array;

    private static function create(): static
    {
        return new static();
    }
}

enum Suit: string
{
    case Hearts = 'H';

    public function color(): string
    {
        return 'Red';
    }
}

function helper($x)
{
    return $x;
}
