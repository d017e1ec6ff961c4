package history

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// TestNote: visits noted by a process that lives for one call are in the
// root's history for every store on it, at their next question, weighed
// as the same visits made in a store.
func TestNote(t *testing.T) {
	dir := t.TempDir()
	c := newClock()
	editor := editorAt(t, dir, c)
	if got := rels(editor.Frecent(5)); got != "mine.go" {
		t.Fatalf("before: %q", got)
	}
	c.advance(time.Second)
	if err := Note(dir, "/w", []string{"read.go", "mine.go", ""}, Agent, c.now()); err != nil {
		t.Fatal(err)
	}
	got := editor.Frecent(5)
	if rels(got) != "mine.go read.go" {
		t.Fatalf("after the note: %q", rels(got))
	}
	same := New(Options{CacheDir: "-", Now: c.now})
	same.SetRoots([]string{"/w"})
	same.Visit("/w", "read.go", Agent)
	if w, want := got[1].Weight, same.Frecent(1)[0].Weight; w != want {
		t.Errorf("a noted read weighs %v, the same read in a store %v", w, want)
	}
	if w, want := got[0].Weight, (1+workingSetWeight)*(1+0.5*1.0001); w < want*0.99 || w > want {
		t.Errorf("a focus then an agent's read a second later weigh %v, want about %v", w, want)
	}
	if err := Note(dir, "/other", []string{"x.go"}, Agent, c.now()); err != nil {
		t.Fatal(err)
	}
	if got := rels(editor.Frecent(5)); got != "mine.go read.go" {
		t.Errorf("another root's note reached this one: %q", got)
	}
}

// TestNoteStepsAside: a file another process holds is left as it is
// within noteWait, the visits dropped; memory-only caches write nothing.
func TestNoteStepsAside(t *testing.T) {
	dir := t.TempDir()
	if err := Note(dir, "/w", []string{"a.go"}, Agent, time.Now()); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(placeOf(dir, "/w").file, 0o600, nil) // held, as a writer holds it
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	err = Note(dir, "/w", []string{"b.go"}, Agent, time.Now())
	if !errors.Is(err, bolt.ErrTimeout) || time.Since(start) > 20*noteWait {
		t.Errorf("a held file: %v after %v", err, time.Since(start))
	}
	db.Close()
	st := New(Options{CacheDir: dir})
	st.SetRoots([]string{"/w"})
	if got := rels(st.Recent(5, true)); got != "a.go" {
		t.Errorf("after a held file: %q", got)
	}
	for _, cache := range []string{"", "-"} {
		if err := Note(cache, "/w", []string{"a.go"}, Agent, time.Now()); err != nil {
			t.Errorf("%q: %v", cache, err)
		}
	}
}

// TestNoteBounded: notes alone keep the file within a store's bound, the
// least weighty files going first.
func TestNoteBounded(t *testing.T) {
	dir := t.TempDir()
	c := newClock()
	old := make([]string, DefaultLimit)
	for i := range old {
		old[i] = fmt.Sprintf("old/%05d.go", i)
	}
	if err := Note(dir, "/w", old, Agent, c.now()); err != nil {
		t.Fatal(err)
	}
	c.advance(time.Hour)
	if err := Note(dir, "/w", []string{"new.go"}, Agent, c.now()); err != nil {
		t.Fatal(err)
	}
	st := New(Options{CacheDir: dir, Now: c.now})
	st.SetRoots([]string{"/w"})
	if n := st.Len(); n != DefaultLimit {
		t.Errorf("%d files remembered, want %d", n, DefaultLimit)
	}
	if got := rels(st.Recent(1, true)); got != "new.go" {
		t.Errorf("the latest: %q", got)
	}
	// A history a store keeps larger (history.size) is not shrunk: a
	// note then adds a file in place of the least weighty one.
	large := New(Options{CacheDir: dir, Now: c.now, Limit: DefaultLimit + 10})
	large.SetRoots([]string{"/w"})
	for i := range 10 {
		large.Visit("/w", fmt.Sprintf("more/%d.go", i), Agent)
	}
	large.Close()
	c.advance(time.Hour)
	if err := Note(dir, "/w", []string{"newer.go"}, Agent, c.now()); err != nil {
		t.Fatal(err)
	}
	st = New(Options{CacheDir: dir, Now: c.now, Limit: DefaultLimit + 10})
	st.SetRoots([]string{"/w"})
	if n := st.Len(); n != DefaultLimit+10 {
		t.Errorf("a larger history: %d files after a note, want %d", n, DefaultLimit+10)
	}
}

// BenchmarkNote: one call's read noted in a root's history of a full
// store's size (DefaultLimit files), as the agent hook notes it.
func BenchmarkNote(b *testing.B) {
	dir, full := fullHistory(b)
	for i := 0; b.Loop(); i++ {
		if err := Note(dir, "/w", []string{full[i%len(full)]}, Agent, time.Now()); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFlushOne: the peer of BenchmarkNote — the same visit made in
// a store opened on that history and flushed, as a process that keeps a
// store writes it.
func BenchmarkFlushOne(b *testing.B) {
	dir, full := fullHistory(b)
	for i := 0; b.Loop(); i++ {
		st := New(Options{CacheDir: dir})
		st.SetRoots([]string{"/w"})
		st.Visit("/w", full[i%len(full)], Agent)
		if err := st.Flush(); err != nil {
			b.Fatal(err)
		}
	}
}

// fullHistory is a cache directory whose history of /w holds one file
// short of a store's bound, and those files.
func fullHistory(b *testing.B) (string, []string) {
	dir := b.TempDir()
	full := make([]string, DefaultLimit-1)
	for i := range full {
		full[i] = fmt.Sprintf("src/pkg%03d/file_%05d.go", i%500, i)
	}
	if err := Note(dir, "/w", full, Agent, time.Now()); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	return dir, full
}

// TestPersonsKept: which files a person went to, apart from those only an
// agent read, is kept in the file; a file written before it was kept
// reads as a person's throughout, and stays so once written again.
func TestPersonsKept(t *testing.T) {
	dir := t.TempDir()
	c := newClock()
	editorAt(t, dir, c) // mine.go, a person's
	c.advance(time.Second)
	if err := Note(dir, "/w", []string{"read.go"}, Agent, c.now()); err != nil {
		t.Fatal(err)
	}
	st := New(Options{CacheDir: dir, Now: c.now})
	st.SetRoots([]string{"/w"})
	if got := rels(st.Recent(5, false)); got != "mine.go" {
		t.Errorf("a person's, read back: %q", got)
	}
	if got := rels(st.Recent(5, true)); got != "read.go mine.go" {
		t.Errorf("anyone's, read back: %q", got)
	}

	// A file as a wayfind from before persons were kept wrote it.
	old := t.TempDir()
	file := placeOf(old, "/w").file
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(file, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		meta, _ := tx.CreateBucket(bucketMeta)
		visits, _ := tx.CreateBucket(bucketVisits)
		meta.Put(keyVersion, []byte(fileVersion))
		visits.Put([]byte("a.go"), encodeEntry(entry{}.add(c.now().UnixNano(), Open)))
		return visits.Put([]byte("b.go"), encodeEntry(entry{}.add(c.now().Add(time.Second).UnixNano(), Open)))
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	before := New(Options{CacheDir: old, Now: c.now})
	before.SetRoots([]string{"/w"})
	if got := rels(before.Recent(5, false)); got != "b.go a.go" {
		t.Errorf("a person's, from the older file: %q", got)
	}
	c.advance(time.Minute)
	if err := Note(old, "/w", []string{"read.go"}, Agent, c.now()); err != nil {
		t.Fatal(err)
	}
	if got := rels(before.Recent(5, false)); got != "b.go a.go" {
		t.Errorf("a person's, once written again: %q", got)
	}
}

// TestOneHistoryAProject: every root inside a project keeps its visits in
// the project's one history file, so that a front end opened on the
// project and one opened on a directory inside it hear each other — a
// harness's hook noting into the repository, the MCP server beside it
// searching the directory the session started in — each under its own
// paths; a root outside any project keeps its own.
func TestOneHistoryAProject(t *testing.T) {
	cache, project := t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(project, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(project, "services")
	c := newClock()
	open := func(root string) *Store {
		st := New(Options{CacheDir: cache, Now: c.now})
		st.SetRoots([]string{root})
		t.Cleanup(st.Close)
		return st
	}
	inSub, inProject := open(sub), open(project)
	if inSub.File(sub) != inProject.File(project) {
		t.Fatalf("two files for one project: %s, %s", inSub.File(sub), inProject.File(project))
	}
	steps := []struct {
		what        string
		do          func() error
		sub, inRepo string // each store's visits, most recent first (agents' too)
	}{
		{"the hook notes the project's files", func() error {
			return Note(cache, project, []string{"services/ship/handler.go", "README.md"}, Agent, c.now())
		}, "ship/handler.go", "README.md services/ship/handler.go"},
		{"a store on the directory flushes its own", func() error {
			inSub.Visit(sub, "cart/config.go", Open)
			return inSub.Flush()
		}, "cart/config.go ship/handler.go", "services/cart/config.go README.md services/ship/handler.go"},
		{"a note on the directory", func() error {
			return Note(cache, sub, []string{"ship/config.go"}, Agent, c.now())
		}, "ship/config.go cart/config.go ship/handler.go", "services/ship/config.go services/cart/config.go README.md services/ship/handler.go"},
		{"a file the directory's store prunes", func() error {
			inSub.Prune(sub, func(rel string) bool { return rel != "cart/config.go" })
			return inSub.Flush()
		}, "ship/config.go ship/handler.go", "services/ship/config.go README.md services/ship/handler.go"},
	}
	for _, s := range steps {
		c.advance(time.Second)
		if err := s.do(); err != nil {
			t.Fatalf("%s: %v", s.what, err)
		}
		if got := rels(inSub.Recent(10, true)); got != s.sub {
			t.Errorf("%s: the directory's store has %q, want %q", s.what, got, s.sub)
		}
		if got := rels(inProject.Recent(10, true)); got != s.inRepo {
			t.Errorf("%s: the project's store has %q, want %q", s.what, got, s.inRepo)
		}
	}
	alone := t.TempDir() // no project marker: its own file
	if f := New(Options{CacheDir: cache}).File(alone); f == inProject.File(project) {
		t.Errorf("a root outside any project shares %s", f)
	}
}
