// Every C# construct the index keeps.
using System;

namespace Example.Routing
{
    public interface IHandler
    {
        void Handle(string request);
    }

    public class CommandRouter<T> : IHandler
    {
        public CommandRouter() { }

        public void Handle(string request) { }

        private static int Count() => 0;

        public class Route
        {
            public void Run()
            {
                void Local() { }
                Local();
            }
        }
    }

    public struct Point
    {
        public int X;
    }

    public enum Color { Red, Green }

    public record Pair(int Left, int Right);

    public delegate void Callback(int code);
}
