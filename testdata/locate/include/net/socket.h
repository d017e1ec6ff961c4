#pragma once

namespace net {
class Socket {
public:
    bool connect(const char* host, int port);
    void close();
};
}
