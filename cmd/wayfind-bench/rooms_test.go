package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestWalkRooms: the walk follows the parameter, not every call, and
// counts a call back into a room above as a climb.
func TestWalkRooms(t *testing.T) {
	files := map[string]string{
		"go.mod": "module fixture\n\ngo 1.22\n",
		// The handler's room: it hands the question down, and holds a
		// helper the room below calls back up into.
		"p/handler.go": `package p

func Handle(q string) string {
	unrelated(len("x"))
	var r reading
	decode(q, &r)
	return stage(r.path)
}

func helper(s string) string { return s + "!" }

func unrelated(int) {}

type reading struct{ path string }

func decode(q string, r *reading) { r.path = q }
`,
		"p/stage.go": `package p

func stage(p string) string {
	untouched()
	return leaf(helper(p))
}

func untouched() { never() }
`,
		"p/leaf.go": `package p

func leaf(s string) string { return s }

func never() {}
`,
	}
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w, err := walkRooms(dir, "fixture/p.Handle", "q", false)
	if err != nil {
		t.Fatal(err)
	}
	// decode writes q into r through its address, so r.path carries it
	// to stage; unrelated and untouched are given nothing of it.
	if want := []string{"p/handler.go", "p/stage.go", "p/leaf.go"}; !slices.Equal(w.rooms, want) {
		t.Errorf("rooms %v, want %v", w.rooms, want)
	}
	if len(w.climbs) != 1 || w.climbs[0].to != "fixture/p.helper" || w.climbs[0].from != "fixture/p.stage" {
		t.Errorf("climbs %+v, want the one of stage into helper", w.climbs)
	}
	// By package, the fixture is one room, which no call climbs back to.
	if w, err := walkRooms(dir, "fixture/p.Handle", "q", true); err != nil || !slices.Equal(w.rooms, []string{"p"}) || len(w.climbs) != 0 {
		t.Errorf("by package: %v, %+v, %v", w.rooms, w.climbs, err)
	}
	if _, err := walkRooms(dir, "fixture/p.Handle", "nothing", false); err == nil {
		t.Error("a parameter the handler does not have: no error")
	}
}

// climbsBound is issue 55's bound on resolve's climbs back up.
const climbsBound = 8

// TestResolveClimbs holds find/resolvePath's path through the code to
// the bound: a helper written in a room above its callers, or a stage
// handing the question back up, shows here.
func TestResolveClimbs(t *testing.T) {
	w, err := walkRooms("../..", "(*wayfind/lsp.server).resolvePath", "raw", false)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d rooms, %d climbs back up", len(w.rooms), len(w.climbs))
	if len(w.rooms) < 10 {
		t.Fatalf("the walk reached %d rooms (%v): it did not follow the parameter into the engine", len(w.rooms), w.rooms)
	}
	if len(w.climbs) > climbsBound {
		for _, c := range w.climbs {
			t.Errorf("climb: %s → %s (%s)", c.from, c.to, c.room)
		}
	}
}
