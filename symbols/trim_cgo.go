//go:build linux && cgo

package symbols

/*
#include <stddef.h>
// glibc's, declared weak: a C library without it (musl) still links, and
// nothing is trimmed there.
extern int malloc_trim(size_t pad) __attribute__((weak));
static void wayfind_trim(void) { if (malloc_trim) malloc_trim(0); }
*/
import "C"

// releaseParserMemory hands back to the system what the parsers freed.
// Tree-sitter allocates with C's malloc, and glibc keeps what is freed in
// its arenas (one a parsing thread) for the next allocation: after a
// symbol pass the server held more C heap for parsers already closed
// than Go memory.
func releaseParserMemory() { C.wayfind_trim() }
