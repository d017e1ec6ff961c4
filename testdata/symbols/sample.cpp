// Every C++ construct the index keeps.
#include <string>

namespace net {
namespace http {

class CommandRouter {
public:
    CommandRouter();
    ~CommandRouter();
    void route(const std::string& name);
    int* find(int id);
    const std::string& name() const;
    static CommandRouter& instance();

    struct Route {
        int id;
        void run() {}
    };

private:
    int count_ = 0;
};

template <typename T>
class Box {
public:
    T get() const { return value; }
    T value;
};

enum class Method { Get, Post };

using Handler = void (*)(int);

CommandRouter::CommandRouter() {}

CommandRouter::~CommandRouter() {}

void CommandRouter::route(const std::string& name) {}

int* CommandRouter::find(int id) { return nullptr; }

CommandRouter& CommandRouter::instance() {
    static CommandRouter r;
    return r;
}

bool operator==(const Box<int>& a, const Box<int>& b) { return true; }

}  // namespace http
}  // namespace net

int main() { return 0; }
