package workspace

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
)

// DefaultCacheDir is where wayfind's caches live: $WAYFIND_CACHE_DIR when
// set, else os.UserCacheDir()/wayfind.
func DefaultCacheDir() (string, error) {
	if d := os.Getenv("WAYFIND_CACHE_DIR"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "wayfind"), nil
}

// CachesOff reports whether dir, a cache directory as CacheDirOf gives
// it, keeps nothing: "-", or "" (a caller that was given none; an
// option's "" means the default, so an option is read through CacheDirOf
// first).
func CachesOff(dir string) bool { return dir == "" || dir == "-" }

// CacheDirOf is what a cache-directory option means: "" the default
// (DefaultCacheDir), "-" none — also when there is no default to be had,
// or the directory cannot be made or written in (a read-only home),
// which logf is told: a cache that keeps nothing would be read again by
// every process, each told it is being kept.
func CacheDirOf(opt string, logf func(string, ...any)) string {
	off := func(format string, a ...any) string {
		if logf != nil {
			logf(format+"; caches off", a...)
		}
		return "-"
	}
	d := opt
	if d == "" {
		var err error
		if d, err = DefaultCacheDir(); err != nil {
			return off("no user cache directory (%v)", err)
		}
	}
	if CachesOff(d) {
		return "-"
	}
	if _, ok := cacheWritable.Load(d); ok {
		return d
	}
	if err := os.MkdirAll(d, 0o700); err != nil {
		return off("cache directory not made (%v)", err)
	}
	probe, err := os.CreateTemp(d, ".writable-*")
	if err != nil {
		return off("cache directory %s not written in (%v)", d, err)
	}
	probe.Close()
	os.Remove(probe.Name())
	cacheWritable.Store(d, struct{}{})
	return d
}

// cacheWritable: the cache directories this process has made and
// written in (CacheDirOf), each checked once — a one-shot process asks
// for its cache directory from several places.
var cacheWritable sync.Map

// RootCacheDir is where the caches of one workspace root live under the
// cache directory base (the symbols' database, the content filters): a
// directory named by a hash of the root's path, so that every process
// on that root finds the same files and no two roots share them.
func RootCacheDir(base, root string) string {
	h := sha256.Sum256([]byte(root))
	return filepath.Join(base, hex.EncodeToString(h[:8]))
}

// FileStat is what tells a cached entry of a file from a changed file:
// its size and modification time (UnixNano), as os.Stat sees them (a
// link followed). OK is false for a file gone or unreadable.
type FileStat struct {
	Size, ModTime int64
	OK            bool
}

// statPath is a path's FileStat (following links), whatever it is.
func statPath(path string) FileStat {
	st, _ := stat(path)
	return st
}

// StatFile is a file's FileStat, OK only for a regular file (following
// links): what the indexers check a file they keep against, without the
// garbage of os.Stat (each pass stats every file, and that garbage came
// at the peak of a warm start).
func StatFile(path string) FileStat {
	if st, regular := stat(path); regular {
		return st
	}
	return FileStat{}
}

// StatFiles stats every file of ix, in ix.files' order, on a few
// goroutines: one pass that every cache of a one-shot process checks its
// entries against (a stat is cheap, but every file's together are not).
// With pace set, in the background (statEach).
func StatFiles(ix *Index, pace func()) []FileStat {
	ix = ix.flat()
	out := make([]FileStat, len(ix.files))
	statEach(ix, pace, func(i int, st FileStat) { out[i] = st })
	return out
}

// GuardMapped runs f, which reads a memory-mapped cache file (bbolt's),
// turning a panic inside it (bbolt panics on some corrupt pages) into an
// error, and so a fault reading the map (a truncated file maps pages that
// are not there, and touching one is SIGBUS, which would otherwise kill
// the process): a broken cache is discarded, never fatal.
func GuardMapped(f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("corrupt: %v", r)
		}
	}()
	return f()
}

// WriteRootCache writes the file name of root's cache directory under
// base whole: write fills a buffered temporary file beside it, which is
// then renamed over it, so that a reader sees the old file or the new,
// never a mix, and a crash leaves the old.
func WriteRootCache(base, root, name string, write func(w *bufio.Writer) error) error {
	d := RootCacheDir(base, root)
	if err := os.MkdirAll(d, 0o700); err != nil {
		return err
	}
	NoteRoot(base, root)
	tmp, err := os.CreateTemp(d, name+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename, nothing is there
	w := bufio.NewWriterSize(tmp, 1<<20)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(d, name))
}
