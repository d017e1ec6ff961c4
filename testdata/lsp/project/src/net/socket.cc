#include "socket.h"

namespace net {
void Socket::connect(const char* host) {}
}
