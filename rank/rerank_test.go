package rank

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// fakeModel prefers texts containing its word, and records what it was
// asked.
type fakeModel struct {
	word  string
	calls int
	docs  []string
	err   error
}

func (f *fakeModel) Score(_ context.Context, query string, docs []string) ([]float64, error) {
	f.calls++
	f.docs = docs
	if f.err != nil {
		return nil, f.err
	}
	out := make([]float64, len(docs))
	for i, d := range docs {
		out[i] = -1
		if strings.Contains(d, f.word) {
			out[i] = 1
		}
	}
	return out, nil
}

func TestRerankOnlyCloseCalls(t *testing.T) {
	e, _ := fixture(t, "monorepo")
	// A bare name shared by several files: no lexical winner, so the model
	// orders the tie, and resolved stays undecided.
	base, err := e.Resolve(context.Background(), ResolveRequest{Path: "client.go", History: Recency([]string{})})
	if err != nil {
		t.Fatal(err)
	}
	if base.Resolved != nil || len(base.Candidates) < 2 {
		t.Fatalf("fixture lost its tie: %+v", base)
	}
	last := base.Candidates[len(base.Candidates)-1].Path
	fm := &fakeModel{word: strings.Join(words(last), " ")}
	re := e.WithReranker(fm, RerankOptions{})
	res, _ := re.Resolve(context.Background(), ResolveRequest{Path: "client.go", History: Recency([]string{})})
	if fm.calls != 1 || !res.Rerank.Reranked || res.Resolved != nil {
		t.Fatalf("calls %d, stats %+v, resolved %+v", fm.calls, res.Rerank, res.Resolved)
	}
	if res.Candidates[0].Path != last || !strings.Contains(strings.Join(res.Candidates[0].Reasons, ","), "rerank") {
		t.Errorf("the model's pick is not first: %+v", res.Candidates)
	}
	for i := 1; i < len(res.Candidates); i++ {
		if res.Candidates[i].Score > res.Candidates[i-1].Score {
			t.Errorf("scores out of order after rerank: %+v", res.Candidates)
		}
	}
	// A clear lexical answer is never sent to the model.
	fm.calls = 0
	res, _ = re.Resolve(context.Background(), ResolveRequest{Path: "src/storage/s3/client.go"})
	if fm.calls != 0 || res.Resolved == nil {
		t.Errorf("confident answer reranked: calls %d, %+v", fm.calls, res)
	}
	// A failing model leaves the lexical order.
	bad := e.WithReranker(&fakeModel{err: errors.New("boom")}, RerankOptions{})
	res, _ = bad.Resolve(context.Background(), ResolveRequest{Path: "client.go", History: Recency([]string{})})
	if res.Rerank.Err == nil || res.Rerank.Reranked || res.Candidates[0].Path != base.Candidates[0].Path {
		t.Errorf("failed model changed the answer: %+v", res)
	}
}

func TestRerankMarginAndBand(t *testing.T) {
	e, _ := fixture(t, "monorepo")
	// The band holds only candidates within the margin of the top: with a
	// tiny margin, only exact ties.
	plain, _ := e.Find(context.Background(), FindRequest{Query: "client", Limit: 50})
	for _, margin := range []float64{1e-9, 0.05} {
		fm := &fakeModel{word: "zzz"}
		res, _ := e.WithReranker(fm, RerankOptions{Margin: margin}).Find(context.Background(), FindRequest{Query: "client", Limit: 50})
		if !res.Rerank.Reranked || len(fm.docs) < 2 {
			t.Fatalf("margin %g: the tie of client.go files was not reranked: %+v", margin, res.Rerank)
		}
		top := plain.Matches[0].Score
		for _, d := range fm.docs {
			inBand := false
			for _, m := range plain.Matches {
				if modelText(m.Path) == d && top-m.Score < margin+1e-3 {
					inBand = true
				}
			}
			if !inBand {
				t.Errorf("margin %g: %q sent to the model from outside the band", margin, d)
			}
		}
	}
}

// closingModel is a fakeModel that records its Close.
type closingModel struct {
	fakeModel
	closed bool
}

func (c *closingModel) Close() { c.closed = true }

// TestModelSlot: an empty slot or one holding only a reason attaches
// nothing; a model set is attached to engines from then on, its status
// counts what it reranked, and Close closes it.
func TestModelSlot(t *testing.T) {
	var slot ModelSlot
	e := &Engine{}
	if got := slot.Attach(e); got != e || slot.Status() != (ModelStatus{}) {
		t.Fatalf("an empty slot attached %+v, status %+v", got.rr, slot.Status())
	}
	slot.Set(nil, RerankOptions{}, ModelStatus{Reason: "no model in dir"}, nil)
	if got := slot.Attach(e); got.rr != nil {
		t.Errorf("a reason attached a model")
	}
	if st := slot.Status(); st.Loaded || st.Reason != "no model in dir" {
		t.Errorf("status %+v", st)
	}
	m := &closingModel{}
	slot.Set(m, RerankOptions{Margin: 0.2}, ModelStatus{Name: "model"}, func() int64 { return 7 })
	got := slot.Attach(e)
	if got.rr != Reranker(m) || got.rro.Margin != 0.2 || e.rr != nil {
		t.Errorf("attached %v %+v; the engine given changed: %v", got.rr, got.rro, e.rr)
	}
	if st := slot.Status(); st != (ModelStatus{Loaded: true, Name: "model", Reranked: 7}) {
		t.Errorf("status %+v", st)
	}
	slot.Close()
	if !m.closed {
		t.Error("Close left the model open")
	}
}
