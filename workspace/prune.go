package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// The cache directory's resource policy. Each root's caches live in a
// directory of their own (RootCacheDir), which names the root it serves
// in a file (rootMarker). A root's caches go when nothing can use them
// again: its root no longer exists; nobody has written them for
// cacheAge; or, oldest first, while all of them together pass
// cacheBudget. Pruning runs when a root's caches are first made — when
// the set of directories grows — so it costs nothing on a request.

const (
	rootMarker  = "root"
	cacheAge    = 90 * 24 * time.Hour // a season unused: a project set aside
	cacheBudget = 8 << 30             // every root's caches together
)

// rootCacheName is what RootCacheDir names a root's directory.
var rootCacheName = regexp.MustCompile(`^[0-9a-f]{16}$`)

// NoteRoot records, in root's cache directory under base, which root it
// serves; the first time, it prunes the other roots' caches
// (PruneCaches).
func NoteRoot(base, root string) {
	if CachesOff(base) {
		return
	}
	d := RootCacheDir(base, root)
	marker := filepath.Join(d, rootMarker)
	if _, err := os.Stat(marker); err == nil {
		return
	}
	if os.MkdirAll(d, 0o700) != nil {
		return
	}
	tmp, err := os.CreateTemp(d, rootMarker+".*")
	if err != nil {
		return
	}
	_, err = tmp.WriteString(root + "\n")
	if tmp.Close() != nil || err != nil || os.Rename(tmp.Name(), marker) != nil {
		os.Remove(tmp.Name())
		return
	}
	PruneCaches(base, d, time.Now())
}

// PruneCaches removes the root cache directories under base that nothing
// will use again (above), keeping keep (the one being made).
func PruneCaches(base, keep string, now time.Time) { pruneCaches(base, keep, now, cacheBudget) }

func pruneCaches(base, keep string, now time.Time, budget int64) {
	entries, err := os.ReadDir(base)
	if err != nil {
		return
	}
	type cached struct {
		dir  string
		used time.Time
		size int64
	}
	var live []cached
	var total int64
	for _, e := range entries {
		d := filepath.Join(base, e.Name())
		if !e.IsDir() || !rootCacheName.MatchString(e.Name()) || d == keep {
			continue
		}
		if b, err := os.ReadFile(filepath.Join(d, rootMarker)); err == nil {
			root := strings.TrimSpace(string(b))
			if _, err := os.Stat(root); errors.Is(err, fs.ErrNotExist) || RootCacheDir(base, root) != d {
				os.RemoveAll(d) // its root is gone (or the marker is not its own)
				continue
			}
		}
		c := cached{dir: d}
		filepath.WalkDir(d, func(_ string, f fs.DirEntry, err error) error {
			if err == nil && !f.IsDir() {
				if info, err := f.Info(); err == nil {
					c.size += info.Size()
					if info.ModTime().After(c.used) {
						c.used = info.ModTime()
					}
				}
			}
			return nil
		})
		if now.Sub(c.used) > cacheAge {
			os.RemoveAll(d)
			continue
		}
		live = append(live, c)
		total += c.size
	}
	sort.Slice(live, func(i, j int) bool { return live[i].used.Before(live[j].used) })
	for _, c := range live {
		if total <= budget {
			break
		}
		os.RemoveAll(c.dir)
		total -= c.size
	}
}
