// Every Scala construct the index keeps.
package com.example.routing

trait Handler {
  def handle(request: String): Unit
}

class CommandRouter[T](name: String) extends Handler {
  def handle(request: String): Unit = ()

  def route[R](name: String): Option[R] = None

  class Route {
    def run(): Unit = ()
  }
}

object CommandRouter {
  def apply(): CommandRouter[Int] = new CommandRouter("x")
}

case class Pair(left: Int, right: Int)

enum Color {
  case Red, Green
}

type Routes = List[String]

def helper(x: Int): Int = x
