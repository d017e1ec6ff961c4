package history

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// clock is a settable time for tests.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// editorAt is an editor's store on /w in dir, its visit to mine.go
// written; closed when the test ends.
func editorAt(t *testing.T, dir string, c *clock) *Store {
	t.Helper()
	st := New(Options{CacheDir: dir, Now: c.now})
	st.SetRoots([]string{"/w"})
	t.Cleanup(st.Close)
	st.Visit("/w", "mine.go", Focus)
	if err := st.Flush(); err != nil {
		t.Fatal(err)
	}
	return st
}

func newClock() *clock { return &clock{t: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)} }

func rels(vs []Visit) string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Rel)
	}
	return strings.Join(out, " ")
}

func TestDecayHalvesAtEachHalfLife(t *testing.T) {
	tests := []struct {
		age  time.Duration
		want float64
	}{
		{0, 1 + workingSetWeight},
		{workingSetHalfLife, 1*decay(int64(workingSetHalfLife), frequencyHalfLife) + workingSetWeight*0.5},
		{frequencyHalfLife, 0.5 + workingSetWeight*math.Exp2(-float64(frequencyHalfLife)/float64(workingSetHalfLife))},
	}
	for _, tc := range tests {
		e := entry{}.add(1000, Open)
		if got := e.weight(1000 + int64(tc.age)); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("age %v: weight %v, want %v", tc.age, got, tc.want)
		}
	}
	// Visits in any order fold to the same weight.
	a := entry{}.add(10, Open).add(int64(time.Hour), Open)
	b := entry{}.add(int64(time.Hour), Open).add(10, Open)
	if now := int64(2 * time.Hour); math.Abs(a.weight(now)-b.weight(now)) > 1e-9 {
		t.Errorf("order matters: %v vs %v", a.weight(now), b.weight(now))
	}
}

func TestFrecencyOrdersHabitAndTask(t *testing.T) {
	c := newClock()
	s := New(Options{Now: c.now})
	s.SetRoots([]string{"/w"})
	// Habit: a.go every day for a week.
	for range 7 {
		s.Visit("/w", "old/a.go", Open)
		c.advance(24 * time.Hour)
	}
	if got := rels(s.Frecent(3)); got != "old/a.go" {
		t.Fatalf("frecent %q", got)
	}
	// The task at hand: three visits to new/b.go in the last minutes
	// outweigh a week's habit.
	for range 3 {
		s.Visit("/w", "new/b.go", Focus)
		c.advance(time.Minute)
	}
	if got := rels(s.Frecent(3)); got != "new/b.go old/a.go" {
		t.Fatalf("frecent %q", got)
	}
	// A day later the habit is back on top.
	c.advance(24 * time.Hour)
	if got := rels(s.Frecent(3)); got != "old/a.go new/b.go" {
		t.Fatalf("a day later, frecent %q", got)
	}
	s.Visit("/w", "old/a.go", Agent)
	if got := rels(s.Recent(3, true)); got != "old/a.go new/b.go" {
		t.Fatalf("recent %q", got)
	}
	// The person last went to new/b.go; the agent's read is not theirs.
	if got := rels(s.Recent(3, false)); got != "new/b.go old/a.go" {
		t.Fatalf("recent of the person %q", got)
	}
	// Nothing outside the roots is remembered.
	s.Visit("/elsewhere", "x.go", Open)
	if s.Len() != 2 {
		t.Fatalf("len %d", s.Len())
	}
}

func TestParseReason(t *testing.T) {
	for in, want := range map[string]Reason{"": Open, "open": Open, "focus": Focus, "agent": Agent} {
		if got, err := ParseReason(in); err != nil || got != want {
			t.Errorf("%q: %v %v", in, got, err)
		}
	}
	if _, err := ParseReason("hover"); err == nil {
		t.Error("hover accepted")
	}
}

// TestPersistsAndMerges: what one store wrote, the next reads; two stores
// on one root (two wayfind processes) both keep their visits.
func TestPersistsAndMerges(t *testing.T) {
	dir := t.TempDir()
	c := newClock()
	a := New(Options{CacheDir: dir, Now: c.now})
	a.SetRoots([]string{"/w"})
	a.Visit("/w", "a.go", Open)
	b := New(Options{CacheDir: dir, Now: c.now})
	b.SetRoots([]string{"/w"})
	c.advance(time.Second)
	b.Visit("/w", "b.go", Open)
	b.Visit("/w", "a.go", Open)
	if err := a.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	// b read a's visit back when it wrote.
	if got := rels(b.Frecent(5)); got != "a.go b.go" {
		t.Fatalf("b after flush: %q", got)
	}
	a.Close()
	b.Close()
	after := New(Options{CacheDir: dir, Now: c.now})
	after.SetRoots([]string{"/w"})
	defer after.Close()
	got := after.Frecent(5)
	if rels(got) != "a.go b.go" {
		t.Fatalf("restarted: %q", rels(got))
	}
	if want := 2 * (1 + workingSetWeight) * 0.99; got[0].Weight < want {
		t.Fatalf("a.go weighs %v after two visits, want ≥ %v", got[0].Weight, want)
	}
}

func TestBoundedAndPruned(t *testing.T) {
	dir := t.TempDir()
	c := newClock()
	s := New(Options{CacheDir: dir, Limit: 5, Now: c.now})
	s.SetRoots([]string{"/w"})
	for i := range 8 {
		s.Visit("/w", fmt.Sprintf("f%d.go", i), Open)
		c.advance(time.Minute)
	}
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := rels(s.Recent(10, false)); got != "f7.go f6.go f5.go f4.go f3.go" {
		t.Fatalf("bounded to the weightiest: %q", got)
	}
	s.Prune("/w", func(rel string) bool { return rel != "f6.go" })
	if err := s.Flush(); err != nil {
		t.Fatal(err)
	}
	s.Close()
	again := New(Options{CacheDir: dir, Now: c.now})
	again.SetRoots([]string{"/w"})
	defer again.Close()
	if got := rels(again.Recent(10, false)); got != "f7.go f5.go f4.go f3.go" {
		t.Fatalf("pruned: %q", got)
	}
}

// TestBrokenFilesAreDiscarded: a corrupt file, a truncated one and one of
// another version are each dropped with a log line, and history goes on.
func TestBrokenFilesAreDiscarded(t *testing.T) {
	for name, spoil := range map[string]func(string) error{
		"garbage":   func(f string) error { return os.WriteFile(f, []byte("not a database at all"), 0o600) },
		"truncated": func(f string) error { return os.Truncate(f, 4096+100) },
		"version": func(f string) error {
			b, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			i := strings.Index(string(b), fileVersion)
			copy(b[i:], "wayfind history 0")
			return os.WriteFile(f, b, 0o600)
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			s := New(Options{CacheDir: dir})
			s.SetRoots([]string{"/w"})
			s.Visit("/w", "a.go", Open)
			s.Close()
			if err := spoil(s.File("/w")); err != nil {
				t.Fatal(err)
			}
			var logs []string
			again := New(Options{CacheDir: dir, Logf: func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }})
			again.SetRoots([]string{"/w"})
			if again.Len() != 0 || len(logs) != 1 || !strings.Contains(logs[0], "discarded") {
				t.Fatalf("len %d, logs %q", again.Len(), logs)
			}
			again.Visit("/w", "b.go", Open)
			again.Close()
			third := New(Options{CacheDir: dir})
			third.SetRoots([]string{"/w"})
			defer third.Close()
			if got := rels(third.Recent(5, false)); got != "b.go" {
				t.Fatalf("after recovery: %q", got)
			}
		})
	}
}

func TestFlushesByItself(t *testing.T) {
	dir := t.TempDir()
	s := New(Options{CacheDir: dir})
	defer s.Close()
	s.SetRoots([]string{"/w"})
	s.Visit("/w", "a.go", Open)
	deadline := time.Now().Add(10 * flushDelay)
	for {
		if _, err := os.Stat(filepath.Join(filepath.Dir(s.File("/w")), "history.db")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("never written")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestMemoryOnly(t *testing.T) {
	s := New(Options{CacheDir: "-"})
	s.SetRoots([]string{"/w"})
	s.Visit("/w", "a.go", Open)
	if s.File("/w") != "" || s.Flush() != nil || s.Len() != 1 {
		t.Fatal("memory-only store")
	}
	s.Close()
}

// TestSeesOtherProcesses: what another process on the root wrote joins
// this one's answers at its next question, even when this one visits
// nothing.
func TestSeesOtherProcesses(t *testing.T) {
	dir := t.TempDir()
	c := newClock()
	editor := editorAt(t, dir, c)
	editor.Frecent(5)
	agent := New(Options{CacheDir: dir, Now: c.now})
	agent.SetRoots([]string{"/w"})
	c.advance(time.Second)
	agent.Visit("/w", "read.go", Agent)
	agent.Close()
	// At the editor's next question, not at its next refresh.
	if got := rels(editor.Frecent(5)); got != "mine.go read.go" {
		t.Fatalf("after the agent wrote: %q", got)
	}
	if got := rels(editor.Recent(5, true)); got != "read.go mine.go" {
		t.Fatalf("recent after the agent wrote: %q", got)
	}
	// A person's recent files are theirs: the agent's read is not among
	// them, though it is weighed.
	if got := rels(editor.Recent(5, false)); got != "mine.go" {
		t.Fatalf("the person's recent files after the agent wrote: %q", got)
	}
}
