/* Every C construct the index keeps. */
#include <stdlib.h>

struct point {
    int x, y;
};

typedef struct {
    int w, h;
} size_t2;

union value {
    int i;
    float f;
};

enum color { RED, GREEN };

typedef int (*callback)(int);

int add(int a, int b);

static int add(int a, int b) {
    return a + b;
}

char *dup_name(const char *s) {
    return NULL;
}

struct point **grid(void) {
    return NULL;
}

int main(void) {
    return add(1, 2);
}
