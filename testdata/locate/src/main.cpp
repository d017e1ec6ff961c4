#include "command_router.h"
#include "replay_service.h"

int main() {
    CommandRouter router;
    router.route("start");
    return 0;
}
