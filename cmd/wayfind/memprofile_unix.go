//go:build unix

package main

import (
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"strings"
	"syscall"

	"wayfind/memory"
)

// heapProfileOnSignal writes the heap's profile to path each time the
// process receives SIGUSR1: what a settled server holds, asked of it
// while it runs.
func heapProfileOnSignal(path string) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, syscall.SIGUSR1)
	go func() {
		for range c {
			if f, err := os.Create(path); err == nil {
				memory.Return() // the profile is as of the last collection
				pprof.Lookup("heap").WriteTo(f, 0)
				f.Close()
			}
			// And the runtime's own account beside it, before and after
			// everything free is handed back.
			if f, err := os.Create(path + ".memstats"); err == nil {
				for _, when := range []string{"now", "after memory.Return"} {
					if when != "now" {
						memory.Return()
					}
					var m runtime.MemStats
					runtime.ReadMemStats(&m)
					status, _ := os.ReadFile("/proc/self/status")
					anon := ""
					for _, l := range strings.Split(string(status), "\n") {
						if strings.HasPrefix(l, "RssAnon:") {
							anon = strings.Join(strings.Fields(l)[1:], " ")
						}
					}
					fmt.Fprintf(f, "%s: HeapAlloc %d MB, HeapInuse %d, HeapIdle %d, HeapReleased %d, HeapSys %d, Sys %d, NumGC %d, RssAnon %s\n", when,
						m.HeapAlloc>>20, m.HeapInuse>>20, m.HeapIdle>>20, m.HeapReleased>>20, m.HeapSys>>20, m.Sys>>20, m.NumGC, anon)
				}
				f.Close()
			}
		}
	}()
}
