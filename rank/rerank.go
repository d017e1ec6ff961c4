package rank

import (
	"context"
	"math"
	"sort"
	"strings"
	"sync/atomic"
	"time"
)

// Reranker scores candidate texts against a query by meaning (the rerank
// package's ONNX model implements it). Texts are words joined by spaces,
// as modelText makes them; scores are higher for better, in [-1, 1].
type Reranker interface {
	Score(ctx context.Context, query string, docs []string) ([]float64, error)
}

// RerankOptions decide when the model is asked and how much it counts.
//
// It is asked only for close calls — the lexical top-1 leads the next by
// less than Margin — and only about the candidates within Margin of the
// top (at most K = clamp(ceil(files × Ratio), Min, Max)). Their order is
// then decided by (1 − Weight) × lexical + Weight × neural (the model's
// score mapped to [0, 1]); candidates outside the band keep their places
// below it. The model never decides alone, never reorders a clear lexical
// answer, and never makes or unmakes resolvePath's resolved answer: it
// orders what the lexical engine could not tell apart.
type RerankOptions struct {
	Margin float64 // default rerankMargin
	Weight float64 // default rerankWeight
	Ratio  float64 // default rerankRatio
	Min    int     // default 10
	Max    int     // default 200
}

func (o RerankOptions) withDefaults() RerankOptions {
	if o.Margin <= 0 {
		o.Margin = rerankMargin
	}
	if o.Weight <= 0 || o.Weight >= 1 {
		o.Weight = rerankWeight
	}
	if o.Ratio <= 0 {
		o.Ratio = rerankRatio
	}
	if o.Min <= 0 {
		o.Min = 10
	}
	if o.Max < o.Min {
		o.Max = max(200, o.Min)
	}
	return o
}

// WithReranker returns an engine over the same files that asks r about
// close calls.
func (e *Engine) WithReranker(r Reranker, o RerankOptions) *Engine {
	c := *e
	c.rr, c.rro = r, o.withDefaults()
	return &c
}

// ModelSlot holds the model a long-lived front end loads in the
// background: the engines it attaches to once the model is set ask it
// about close calls. The zero value holds none.
type ModelSlot struct{ cur atomic.Pointer[slotted] }

// ModelStatus describes a slot's model for find/status.
type ModelStatus struct {
	Loaded    bool
	Name      string
	Precision string
	LoadMs    float64
	Reranked  int64
	Reason    string // why no model is loaded, when one was asked for
}

type slotted struct {
	r        Reranker
	opts     RerankOptions
	status   ModelStatus
	reranked func() int64
}

// Set makes the engines attached from now on ask r (nil r records why
// there is no model); reranked reports the model's running count of
// reranked queries.
func (m *ModelSlot) Set(r Reranker, opts RerankOptions, st ModelStatus, reranked func() int64) {
	st.Loaded = r != nil
	m.cur.Store(&slotted{r: r, opts: opts, status: st, reranked: reranked})
}

// Attach returns e asking the slot's model, or e when it holds none.
func (m *ModelSlot) Attach(e *Engine) *Engine {
	if c := m.cur.Load(); c != nil && c.r != nil {
		return e.WithReranker(c.r, c.opts)
	}
	return e
}

// Status describes the model held, with its count so far.
func (m *ModelSlot) Status() ModelStatus {
	c := m.cur.Load()
	if c == nil {
		return ModelStatus{}
	}
	st := c.status
	if c.reranked != nil {
		st.Reranked = c.reranked()
	}
	return st
}

// Close closes the model held, if it has a Close; the engines still
// answering must be done with it.
func (m *ModelSlot) Close() {
	if c := m.cur.Load(); c != nil {
		if cl, ok := c.r.(interface{ Close() }); ok {
			cl.Close()
		}
	}
}

// rerankK is the most candidates one query sends to the model.
func (e *Engine) rerankK() int {
	o := e.rro
	k := int(math.Ceil(float64(e.Len()) * o.Ratio))
	return min(max(k, o.Min), o.Max)
}

// RerankStats say what the model did for one request.
type RerankStats struct {
	Reranked   bool
	Candidates int
	Ms         float64
	Err        error // the model failed; the lexical order stands
}

// modelText is what the model reads for a path or a query: its words, as
// the lexical engine splits them ("src/auth/auth_middleware.py" → "src
// auth auth middleware py"), so that the model sees words, not
// punctuation.
func modelText(s string) string {
	return strings.Join(words(s), " ")
}

// rerankBand reorders the leading items whose scores are within Margin of
// the first (they must be sorted best first), when the first leads the
// second by less than Margin. score and set read and write an item's
// score; text is what the model reads for it.
func (e *Engine) rerankBand(ctx context.Context, query string, n int, score func(i int) float64, set func(i int, s float64), text func(i int) string, swap func(order []int)) RerankStats {
	var st RerankStats
	if e.rr == nil || n < 2 || score(0)-score(1) >= e.rro.Margin {
		return st
	}
	band := 1
	for band < n && band < e.rerankK() && score(0)-score(band) < e.rro.Margin {
		band++
	}
	docs := make([]string, band)
	for i := range docs {
		docs[i] = text(i)
	}
	start := time.Now()
	neural, err := e.rr.Score(ctx, modelText(query), docs)
	st.Ms = float64(time.Since(start).Microseconds()) / 1000
	st.Candidates = band
	if err != nil || len(neural) != band {
		st.Err = err
		return st
	}
	st.Reranked = true
	w := e.rro.Weight
	blended := make([]float64, band)
	for i := range blended {
		blended[i] = (1-w)*score(i) + w*(neural[i]+1)/2
	}
	order := make([]int, band)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return blended[order[a]] > blended[order[b]] })
	// Scores stay the lexical ones, made monotonic so that the reported
	// order and scores agree: the band's scores are reassigned in order.
	scores := make([]float64, band)
	for i := range scores {
		scores[i] = score(i)
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(scores)))
	swap(order)
	for i := 0; i < band; i++ {
		set(i, scores[i])
	}
	return st
}
