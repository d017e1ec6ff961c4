// Every Kotlin construct the index keeps.
package com.example.routing

interface Handler {
    fun handle(request: String)
}

open class CommandRouter<T>(private val name: String) : Handler {
    override fun handle(request: String) {}

    fun <R> route(name: String): R? = null

    class Route {
        fun run() {}
    }

    companion object Factory {
        fun create(): CommandRouter<Int> = CommandRouter("x")
    }
}

data class Pair(val left: Int, val right: Int)

enum class Color {
    RED, GREEN;

    fun hex(): String = "#fff"
}

object Registry {
    fun register() {}
}

typealias Routes = List<String>

fun helper(x: Int): Int = x

suspend fun fetch() {}
