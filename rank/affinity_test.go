package rank

import (
	"context"
	"math"
	"slices"
	"testing"
)

// visits weighs each file as given.
func visits(pairs ...any) []Visit {
	var out []Visit
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, Visit{File: pairs[i].(string), Weight: pairs[i+1].(float64)})
	}
	return out
}

func matchPaths(ms []Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Path)
	}
	return out
}

// TestAffinityBreaksTies: the same name in several places goes to the
// copy near where the user works — in find, resolve and locate alike.
func TestAffinityBreaksTies(t *testing.T) {
	e, _ := fixture(t, "monorepo")
	ctx := context.Background()
	// Twenty visits in services/shipping, then one excursion — the latest
	// and weightiest visit — to src/storage: the working area wins.
	var hist []Visit
	for range 20 {
		hist = append(hist, visits("services/shipping/server.go", 1.0)...)
	}
	hist = append(visits("src/storage/s3/client.go", 5.0), hist...)
	cases := []struct {
		name    string
		query   string
		current string
		history []Visit
		want    string
	}{
		{"no history: the shortest path", "client.go", "", nil, "src/api/client.go"},
		{"history", "client.go", "", visits("services/shipping/server.go", 1.0), "services/shipping/client.go"},
		{"an excursion does not outvote the working area", "client.go", "", hist, "services/shipping/client.go"},
		{"the current file", "index.ts", "packages/beta/src/renderer.ts", nil, "packages/beta/src/index.ts"},
		{"the current file over older history", "index.ts", "packages/beta/src/renderer.ts", visits("packages/alpha/src/parser.ts", 1.0), "packages/beta/src/index.ts"},
		// Never over a better match: the source file beside its test, the
		// exact case.
		{"source before its test", "users", "src/api/handlers/users_test.go", visits("src/api/handlers/users_test.go", 1.0), "src/api/handlers/users.go"},
		{"exact case before history", "Button", "", visits("src/components/button.css", 1.0), "src/components/Button.tsx"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := e.Find(ctx, FindRequest{Query: c.query, Current: c.current, History: c.history})
			if err != nil {
				t.Fatal(err)
			}
			if got := matchPaths(res.Matches); len(got) == 0 || got[0] != c.want {
				t.Fatalf("find: %v, want %s first", got, c.want)
			}
			if c.current != "" || c.query == "users" || c.query == "Button" {
				return // resolve reads names, not find queries
			}
			r, err := e.Resolve(ctx, ResolveRequest{Path: c.query, History: c.history})
			if err != nil {
				t.Fatal(err)
			}
			if c.history == nil {
				if r.Resolved != nil {
					t.Fatalf("resolve without history is a tie, got %s", r.Resolved.Path)
				}
			} else if r.Resolved != nil || len(r.Candidates) == 0 || r.Candidates[0].Path != c.want {
				// Nearness orders; alone, it never decides (confidence.go).
				t.Fatalf("resolve: resolved %+v, candidates %+v, want %s first, nothing resolved", r.Resolved, r.Candidates, c.want)
			}
			l, err := e.Locate(ctx, LocateRequest{Query: "where is " + c.query, History: c.history})
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Results) == 0 || l.Results[0].Path != c.want {
				t.Fatalf("locate: %+v, want %s first", l.Results, c.want)
			}
		})
	}
}

// TestNothingTypedListsTheHistory: find with an empty query lists the
// history's files in the order given, the current one and files not in
// the index left out; without history, nothing — not an error.
func TestNothingTypedListsTheHistory(t *testing.T) {
	e, dir := fixture(t, "monorepo")
	h := Recency([]string{"README.md", "src/api/client.go", "gone/file.go", "src/auth/login.py", dir + "/src/api/client.go"})
	res, err := e.Find(context.Background(), FindRequest{Query: " ", History: h, Current: "file://" + dir + "/src/auth/login.py", Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if got := matchPaths(res.Matches); !slices.Equal(got, []string{"src/api/client.go", "README.md"}) || res.Matches[0].MatchedIn[0] != "history" {
		t.Fatalf("listed %v %+v", got, res.Matches)
	}
	res, err = e.Find(context.Background(), FindRequest{Query: "", Limit: 1, History: h})
	if err != nil || len(res.Matches) != 1 || !res.Truncated {
		t.Fatalf("limit: %+v %v", res, err)
	}
	res, err = e.Find(context.Background(), FindRequest{Query: ""})
	if err != nil || len(res.Matches) != 0 {
		t.Fatalf("no history: %+v %v", res, err)
	}
}

func TestRecencyHalvesEachOlderFile(t *testing.T) {
	got := Recency([]string{"a", "b", "c"})
	want := []Visit{{"c", 1}, {"b", 0.5}, {"a", 0.25}}
	if !slices.Equal(got, want) {
		t.Fatalf("%v", got)
	}
	if n := len(Recency(make([]string, 3*MaxVisits))); n != MaxVisits {
		t.Fatalf("kept %d", n)
	}
}

// TestAuthoredBreaksTies: the user's own latest commits say where they
// work when nothing else does, and weigh beside the visits.
func TestAuthoredBreaksTies(t *testing.T) {
	e, _ := fixture(t, "monorepo")
	ctx := context.Background()
	mine := Authored{Authorship([][]string{{"src/storage/s3/client.go", "src/storage/s3/upload.go"}})}
	res, err := e.Find(ctx, FindRequest{Query: "client.go", Authored: mine})
	if err != nil {
		t.Fatal(err)
	}
	if got := matchPaths(res.Matches); len(got) == 0 || got[0] != "src/storage/s3/client.go" {
		t.Fatalf("find: %v", got)
	}
	// Exact values: the latest commit's file weighs 1 of authoredWeight,
	// over the three parts' weights (1 + coWeight + authoredWeight = 2.5);
	// the commit before, authoredStep of it; twice, capped at 1.
	older := Authored{Authorship([][]string{{"src/api/client.go"}, {"src/storage/s3/client.go"}, {"src/api/client.go"}})}
	for _, c := range []struct {
		authored Authored
		file     string
		want     float64
		reason   string
	}{
		{mine, "src/storage/s3/client.go", 0.4, "near:authored"},
		{mine, "src/api/client.go", 0, ""},
		{older, "src/storage/s3/client.go", 0.4 * authoredStep, "near:authored"},
		{older, "src/api/client.go", 0.4, "near:authored"},
	} {
		a := e.newAffinity("", nil, c.authored)
		id, _ := e.fileID(0, c.file)
		if n := a.of(e, id); math.Abs(n.value-c.want) > 1e-12 || n.reason != c.reason {
			t.Errorf("%s: %v %q, want %v %q", c.file, n.value, n.reason, c.want, c.reason)
		}
	}
	if s := authoredStep; math.Abs(math.Pow(s, authoredHalfLife)-0.5) > 1e-12 {
		t.Errorf("step %v does not halve in %d commits", s, authoredHalfLife)
	}
}

// TestActivityShare: activity weighs activityWeight beside nearness when
// nothing says where the user works, activityNearShare of it when
// something does — in resolve and find alike (the one rule).
func TestActivityShare(t *testing.T) {
	if got := activityShare(nil); got != activityWeight {
		t.Errorf("no affinity: %v, want %v", got, activityWeight)
	}
	if got := activityShare(&affinity{}); got != activityNearShare*activityWeight {
		t.Errorf("an affinity: %v, want %v", got, activityNearShare*activityWeight)
	}
}

// TestTheFileTheUserIsIn: a client naming the file the user is in
// (InCurrent: an editor's active file) is not looking for it — it gets
// no nearness, and the copies of its name near it come first; from the
// last focus alone it keeps its nearness (the user may go back).
func TestTheFileTheUserIsIn(t *testing.T) {
	e, _ := fixture(t, "monorepo")
	hist := visits("services/shipping/server.go", 1.0)
	cases := []struct {
		name      string
		current   string
		inCurrent bool
		want      []string
	}{
		{"the last focus: itself first", "services/shipping/client.go", false,
			[]string{"services/shipping/client.go", "services/payment/client.go", "src/api/client.go", "src/storage/client.go", "src/storage/s3/client.go"}},
		{"the file the user is in: the others first, the nearest first", "services/shipping/client.go", true,
			[]string{"services/payment/client.go", "src/api/client.go", "src/storage/client.go", "src/storage/s3/client.go", "services/shipping/client.go"}},
		{"another file named: nearness as ever", "services/shipping/server.go", true,
			[]string{"services/shipping/client.go", "services/payment/client.go", "src/api/client.go", "src/storage/client.go", "src/storage/s3/client.go"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := e.Find(context.Background(), FindRequest{Query: "client.go", Current: c.current, InCurrent: c.inCurrent, History: hist})
			if err != nil {
				t.Fatal(err)
			}
			if got := matchPaths(res.Matches); !slices.Equal(got, c.want) {
				t.Fatalf("find: %v, want %v", got, c.want)
			}
		})
	}
}
