#pragma once
#include <string>

class CommandRouter {
public:
    void route(const std::string& command);
    int routes() const;
};
