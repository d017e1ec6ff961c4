#pragma once
#include <string>

// ReplayService re-sends recorded commands.
class ReplayService {
public:
    explicit ReplayService(const std::string& log);
    void replay(int from, int to);

private:
    std::string log_;
};
