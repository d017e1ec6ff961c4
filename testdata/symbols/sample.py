"""Every Python construct the index keeps."""
import functools


class Router:
    """A router."""

    class Route:
        def __init__(self, path):
            self.path = path

    def __init__(self):
        self.routes = []

    @functools.lru_cache
    def lookup(self, path):
        def matches(route):
            return route.path == path
        return [r for r in self.routes if matches(r)]

    @property
    def count(self):
        return len(self.routes)

    async def serve(self):
        pass


@functools.cache
def build_router():
    return Router()


async def main():
    pass


def _private(x: int) -> int:
    return x
