#pragma once

namespace net {
class Socket {
public:
    void connect(const char* host);
};
}
