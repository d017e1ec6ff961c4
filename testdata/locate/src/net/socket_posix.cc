#include "net/socket.h"

namespace net {
bool Socket::connect(const char* host, int port) { return true; }
void Socket::close() {}
}
