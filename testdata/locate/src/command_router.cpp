#include "command_router.h"

void CommandRouter::route(const std::string& command) {}

int CommandRouter::routes() const { return 0; }
