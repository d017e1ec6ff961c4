package rank

import (
	"context"
	"testing"
)

// TestScoringOrderings pins the orderings score.go promises, each with the
// navigation history pointing at the weaker candidate: exact over case over
// style over typo, whatever the history. A weight change that breaks one
// fails here.
func TestScoringOrderings(t *testing.T) {
	e, _ := fixture(t, "orderings")
	cases := []struct {
		rule, query, history, want string
	}{
		{"exact over case", "Widget.go", "b/other.go", "a/Widget.go"},
		{"case over typo", "widget.go", "c/other.go", "b/widget.go"},
		{"exact over typo", "widget.go", "d/other.go", "b/widget.go"},
		{"style over typo", "gadget_helper.go", "f/other.go", "e/gadget_helper.go"},
		{"exact over style", "gadgetHelper.go", "e/gadget_helper.go", "f/gadgetHelper.go"},
	}
	for _, c := range cases {
		res, err := e.Resolve(context.Background(), ResolveRequest{Path: c.query, History: []string{c.history}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Resolved == nil || res.Resolved.Path != c.want {
			t.Errorf("%s: %q with history %s resolved to %+v, want %s (candidates %+v)", c.rule, c.query, c.history, res.Resolved, c.want, res.Candidates)
		}
	}
	// The weights behind those promises.
	if proxWeight >= ResolveMargin {
		t.Errorf("proxWeight %.3f must stay under ResolveMargin %.3f", proxWeight, ResolveMargin)
	}
	if gap := (1 - 0.98) * 0.875; proxWeight >= gap {
		t.Errorf("proxWeight %.3f must stay under the exact→case gap %.4f", proxWeight, gap)
	}
}
