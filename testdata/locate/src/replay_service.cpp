#include "replay_service.h"

ReplayService::ReplayService(const std::string& log) : log_(log) {}

void ReplayService::replay(int from, int to) {
    for (int i = from; i < to; ++i) {
        // re-send command i
    }
}
