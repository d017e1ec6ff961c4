#pragma once

class SessionManager {
public:
    void open();
    void close();
};
