// Every Java construct the index keeps.
package com.example.router;

import java.util.List;

public class CommandRouter<T> {
    private List<T> routes;

    public CommandRouter() {}

    public <R> R route(String name) {
        return null;
    }

    static class Route {
        void run() {}
    }

    interface Handler {
        void handle(String request);
    }

    enum Method {
        GET, POST;

        boolean safe() {
            return this == GET;
        }
    }
}

record Pair(int left, int right) {
    int sum() {
        return left + right;
    }
}

@interface Marker {
    String value();
}
