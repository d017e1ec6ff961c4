#include "session.h"

void SessionManager::open() {}

void SessionManager::close() {}
