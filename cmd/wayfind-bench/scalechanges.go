package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"wayfind/workspace"
)

// The questions and changes nobody wrote for the monorepo (issue 53):
// full paths with a typo in the tree's most common names, files added and
// reported one at a time, reindexes that each find a change, and stale
// paths through the hook on the warm cache.

// commonTypoCategory names the cases commonNameTypos makes.
const commonTypoCategory = "common-name typo"

// commonNameTypos are the full paths of files bearing the tree's most
// common names (the names names, each files spread over its run), the
// name's first two letters after the first swapped: the questions where a
// name is shared by the most files, each asked to resolve and to find.
func commonNameTypos(paths []string, names, each int) []benchCase {
	count := map[string][]string{}
	for _, p := range paths {
		base := path.Base(p)
		count[base] = append(count[base], p)
	}
	var common []string
	for base := range count {
		if typoOf(base) != "" {
			common = append(common, base)
		}
	}
	slices.SortFunc(common, func(a, b string) int {
		return cmp.Or(cmp.Compare(len(count[b]), len(count[a])), cmp.Compare(a, b))
	})
	var cases []benchCase
	for _, base := range common[:min(names, len(common))] {
		run := count[base]
		for i := 0; i < each && i < len(run); i++ {
			p := run[i*len(run)/each]
			q := path.Dir(p) + "/" + typoOf(base)
			for _, kind := range []string{"resolve", "find"} {
				want := p
				cases = append(cases, benchCase{ID: kind + ":" + q, Kind: kind, Category: commonTypoCategory, Query: q, Expected: &want})
			}
		}
	}
	return cases
}

// typoOf is name with its second and third letters swapped, "" when they
// are alike or the stem is shorter than four.
func typoOf(name string) string {
	stem := strings.TrimSuffix(name, path.Ext(name))
	if len(stem) < 4 || stem[1] == stem[2] {
		return ""
	}
	return name[:1] + name[2:3] + name[1:2] + name[3:]
}

// scaleChangeFigures are what scaleChanges measured.
type scaleChangeFigures struct {
	added                   []time.Duration // one file added and reported, to its first answer
	addedFound              int
	reindexes               int
	cacheBefore, cacheAfter cacheListing
	// deleted and deletedMB: the files the server still maps that were
	// replaced in the cache (their disk space is held until it exits).
	deleted   int
	deletedMB float64
	letGo     time.Duration // waited after idleAfterChanges for them to go
	peakMB    float64       // the server's resident peak over its whole life (lifePeakMB)
	server    *lspServer
}

// letGoWait is how long the bench waits, past idleAfterChanges, for the
// replaced files to be let go: several times the grace the server gives
// a file nothing holds (segment's retireGrace).
const letGoWait = time.Minute

// deletedMappings counts the distinct files process pid maps that are
// deleted, and their mapped size.
func deletedMappings(pid int) (n int, mb float64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/maps", pid))
	if err != nil {
		return 0, 0
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 7 || f[len(f)-1] != "(deleted)" {
			continue
		}
		var lo, hi uint64
		fmt.Sscanf(f[0], "%x-%x", &lo, &hi)
		mb += float64(hi-lo) / (1 << 20)
		key := f[3] + " " + f[4] // device and inode
		if !seen[key] {
			seen[key] = true
			n++
		}
	}
	return n, mb
}

// cacheListing is what a cache directory holds.
type cacheListing struct {
	files int
	bytes int64
	names []string // every file, relative
}

func listCache(dir string) cacheListing {
	var l cacheListing
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if info, err := d.Info(); err == nil {
			l.files++
			l.bytes += info.Size()
			rel, _ := filepath.Rel(dir, p)
			l.names = append(l.names, rel)
		}
		return nil
	})
	return l
}

// scaleChanges is the warm server's last phase: ten files added, each
// reported as an editor reports it and asked for by its path at once;
// then reindexes reindexes, a file made before each, after which the
// cache is listed beside its listing before them (one generation: no
// file more, no temporary left); the server's peak resident set.
func scaleChanges(root, cache string, reindexes int, out *scaleChangeFigures) func(*lspServer) error {
	return func(s *lspServer) error {
		dir := filepath.Join(root, "team0", "added-by-the-bench")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		report := func(p string, kind int) error {
			return s.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{
				{"uri": (&url.URL{Scheme: "file", Path: p}).String(), "type": kind}}})
		}
		for i := range 10 {
			p := filepath.Join(dir, fmt.Sprintf("bench_added_%02d.go", i))
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, p)
			t0 := time.Now()
			if err := report(p, 1); err != nil {
				return err
			}
			var res struct {
				Matches []struct {
					Path string `json:"path"`
				} `json:"matches"`
			}
			if err := s.call("find/files", map[string]any{"query": rel, "limit": 5}, &res); err != nil {
				return err
			}
			out.added = append(out.added, time.Since(t0))
			if len(res.Matches) > 0 && res.Matches[0].Path == filepath.ToSlash(rel) {
				out.addedFound++
			}
		}
		time.Sleep(idleAfterChanges) // compacted
		out.cacheBefore = listCache(cache)
		for i := range reindexes {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("reindexed_%03d.go", i)), nil, 0o644); err != nil {
				return err
			}
			if err := s.call("find/reindex", map[string]any{}, nil); err != nil {
				return err
			}
			out.reindexes++
		}
		time.Sleep(idleAfterChanges)
		out.cacheAfter = listCache(cache)
		// A replaced file is let go once nothing holds it, a grace after
		// (package segment): waited for, at most letGoWait.
		waited := time.Now()
		for {
			out.deleted, out.deletedMB = deletedMappings(s.cmd.Process.Pid)
			if out.deleted == 0 || time.Since(waited) >= letGoWait {
				break
			}
			time.Sleep(time.Second)
		}
		out.letGo = time.Since(waited)
		out.server = s
		return nil
	}
}

// hookAnswer is one `wayfind hook` call of hookOnTree: its wall time,
// whether it read the file meant or named it first, and whether the
// daemon answered it (the hook log's line says so).
type hookAnswer struct {
	took          time.Duration
	right, daemon bool
}

// hookOnTree runs `wayfind hook` as Claude Code does for a Read of each
// query's path (none exists: a typo in a common name), on the warm cache
// — the daemon the hook starts on a large tree answering once it can —
// and then stops that daemon.
func hookOnTree(bin, root, cache string, cases []benchCase) (calls []hookAnswer, err error) {
	defer stopDaemon(cache)
	logPath := filepath.Join(cache, "hook.log")
	for _, c := range cases {
		if c.Kind != "resolve" {
			continue
		}
		ev, _ := json.Marshal(map[string]any{"session_id": "bench", "cwd": root, "hook_event_name": "PreToolUse",
			"tool_name": "Read", "tool_input": map[string]any{"file_path": filepath.Join(root, c.Query)}})
		t0 := time.Now()
		outBytes, err := runHook(bin, cache, root, root, ev)
		call := hookAnswer{took: time.Since(t0)}
		if err != nil {
			return calls, fmt.Errorf("hook: %v", err)
		}
		var o struct {
			Specific struct {
				UpdatedInput struct {
					FilePath string `json:"file_path"`
				} `json:"updatedInput"`
				Reason string `json:"permissionDecisionReason"`
			} `json:"hookSpecificOutput"`
		}
		json.Unmarshal(outBytes, &o)
		want := filepath.Join(root, *c.Expected)
		call.right = o.Specific.UpdatedInput.FilePath == want || strings.Contains(o.Specific.Reason, "\n1. "+want+" ")
		if log, err := os.ReadFile(logPath); err == nil {
			lines := strings.Split(strings.TrimSpace(string(log)), "\n")
			last := lines[len(lines)-1]
			call.daemon = strings.Contains(last, c.Query) && strings.Contains(last, "the daemon's")
		}
		calls = append(calls, call)
	}
	return calls, nil
}

// stopDaemon stops the daemon a hook started on cache's roots: its
// socket removed, it leaves (within a second); waited for until its lock
// is free, at most a minute, so that nothing of it runs on into the
// next measurement.
func stopDaemon(cache string) {
	socks, _ := filepath.Glob(filepath.Join(cache, "*", "daemon.sock"))
	for _, sock := range socks {
		os.Remove(sock)
	}
	locks, _ := filepath.Glob(filepath.Join(cache, "*", "daemon.lock"))
	for _, l := range locks {
		deadline := time.Now().Add(time.Minute)
		for time.Now().Before(deadline) {
			if unlock, ok := workspace.TryLockFile(filepath.Dir(l), filepath.Base(l)); ok {
				unlock()
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// hookFigures sums hookOnTree's calls: the p50 and p90 of all, how many
// read or named the file meant, how many the daemon answered and their
// p50, and the call the daemon first answered (0: none).
func hookFigures(calls []hookAnswer) (p50, p90 time.Duration, right, byDaemon int, daemonP50 time.Duration, firstDaemon int) {
	var all, daemon []time.Duration
	for i, c := range calls {
		all = append(all, c.took)
		if c.right {
			right++
		}
		if c.daemon {
			daemon = append(daemon, c.took)
			if firstDaemon == 0 {
				firstDaemon = i + 1
			}
		}
	}
	return quantile(all, 0.5), quantile(all, 0.9), right, len(daemon), quantile(daemon, 0.5), firstDaemon
}
