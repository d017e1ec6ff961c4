#include "replay_service.h"

int main() {
    ReplayService s("log");
    s.replay(0, 1);
    return 0;
}
