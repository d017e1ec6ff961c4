#include "socket.h"
