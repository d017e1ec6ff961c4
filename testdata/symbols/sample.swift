// Every Swift construct the index keeps.
import Foundation

protocol Handler {
    func handle(_ request: String)
}

class CommandRouter<T>: Handler {
    init() {}

    func handle(_ request: String) {}

    class Route {
        func run() {}
    }
}

struct Point {
    var x: Double

    func distance(to other: Point) -> Double {
        return abs(x - other.x)
    }
}

enum Color {
    case red, green

    func hex() -> String { "#fff" }
}

extension Point {
    func moved() -> Point { self }
}

actor Counter {
    func increment() {}
}

typealias Routes = [String]

func helper(_ x: Int) -> Int { x }
