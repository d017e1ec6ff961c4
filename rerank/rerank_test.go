package rerank

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/sugarme/tokenizer/pretrained"

	"wayfind/rerank/reranktest"
)

const modelDir = "../testdata/model"

func ortLib(t *testing.T) string { return reranktest.Lib(t) }

// reference computes the model's math in Go from weights.json: each token's
// embedding row times the projection, L2-normalised.
type reference struct {
	dim  int
	emb  [][]float64
	proj [][]float64
}

func loadReference(t *testing.T, precision string) reference {
	b, err := os.ReadFile(filepath.Join(modelDir, "weights.json"))
	if err != nil {
		t.Fatal(err)
	}
	var w map[string]json.RawMessage
	if err := json.Unmarshal(b, &w); err != nil {
		t.Fatal(err)
	}
	var r reference
	json.Unmarshal(w["dim"], &r.dim)
	var m struct{ Embedding, Projection [][]float64 }
	json.Unmarshal(w[precision], &m)
	r.emb, r.proj = m.Embedding, m.Projection
	return r
}

func (r reference) embed(t *testing.T, text string) []float32 {
	tok, err := pretrained.FromFile(filepath.Join(modelDir, "tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	enc, err := tok.EncodeSingle(text, true)
	if err != nil {
		t.Fatal(err)
	}
	var out []float32
	for _, id := range enc.GetIds() {
		v := make([]float64, r.dim)
		for k := 0; k < r.dim; k++ {
			for j := 0; j < r.dim; j++ {
				v[k] += r.emb[id][j] * r.proj[j][k]
			}
		}
		var n float64
		for _, x := range v {
			n += x * x
		}
		n = math.Sqrt(n)
		for _, x := range v {
			out = append(out, float32(x/n))
		}
	}
	return out
}

var docs = []string{"src auth auth middleware py", "src auth login py", "docs readme md", "lib client go", "a"}

func TestScoresMatchReference(t *testing.T) {
	lib := ortLib(t)
	for _, c := range []struct{ precision, weights, file string }{
		{"int8", "int8", "model_int8.onnx"},
		{"fp32", "fp32", "model.onnx"},
	} {
		t.Run(c.precision, func(t *testing.T) {
			m, err := Load(Options{Dir: modelDir, Lib: lib, Precision: c.precision})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			if info := m.Info(); info.Precision != c.precision || filepath.Base(info.File) != c.file || info.Dim != 32 {
				t.Errorf("info %+v", info)
			}
			query := "auth midleware"
			got, err := m.Score(context.Background(), query, docs)
			if err != nil {
				t.Fatal(err)
			}
			ref := loadReference(t, c.weights)
			q := ref.embed(t, query)
			for i, d := range docs {
				want := MaxSim(q, ref.embed(t, d), ref.dim)
				if math.Abs(got[i]-want) > 1e-5 {
					t.Errorf("%q: ORT %.7f, Go reference %.7f", d, got[i], want)
				}
			}
			exact, err := m.Score(context.Background(), "auth middleware", docs)
			if err != nil || exact[0] <= exact[2] || exact[0] < 0.99 {
				t.Errorf("shared words count for nothing: %v %v", exact, err)
			}
		})
	}
}

func TestBatchingMatchesOneByOne(t *testing.T) {
	m, err := Load(Options{Dir: modelDir, Lib: ortLib(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	batch, err := m.Score(context.Background(), "client", docs)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range docs {
		one, err := m.Score(context.Background(), "client", []string{d})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(one[0]-batch[i]) > 1e-6 {
			t.Errorf("%q: batched %.7f, alone %.7f", d, batch[i], one[0])
		}
	}
	// Concurrent callers are served one batch at a time, correctly.
	var wg sync.WaitGroup
	for k := 0; k < 4; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := m.Score(context.Background(), "client", docs)
			if err != nil || math.Abs(s[3]-batch[3]) > 1e-6 {
				t.Errorf("concurrent: %v %v", s, err)
			}
		}()
	}
	wg.Wait()
	if m.Reranked() != int64(2+len(docs)+4-1) {
		t.Errorf("reranked count %d", m.Reranked())
	}
}

func TestLoadFailures(t *testing.T) {
	lib := ortLib(t)
	tmp := t.TempDir()
	corrupt := filepath.Join(tmp, "corrupt")
	os.MkdirAll(corrupt, 0o755)
	os.WriteFile(filepath.Join(corrupt, "model.onnx"), []byte("not an onnx file"), 0o644)
	copyFile(t, filepath.Join(modelDir, "tokenizer.json"), filepath.Join(corrupt, "tokenizer.json"))
	noTok := filepath.Join(tmp, "notok")
	os.MkdirAll(noTok, 0o755)
	copyFile(t, filepath.Join(modelDir, "model.onnx"), filepath.Join(noTok, "model.onnx"))
	badTok := filepath.Join(tmp, "badtok")
	os.MkdirAll(badTok, 0o755)
	copyFile(t, filepath.Join(modelDir, "model.onnx"), filepath.Join(badTok, "model.onnx"))
	os.WriteFile(filepath.Join(badTok, "tokenizer.json"), []byte("{truncated"), 0o644)
	cases := []struct {
		name string
		opts Options
		want string
	}{
		{"no directory given", Options{Lib: lib}, "no model directory"},
		{"missing directory", Options{Dir: filepath.Join(tmp, "nope"), Lib: lib}, "no model in"},
		{"empty directory", Options{Dir: tmp, Lib: lib}, "no model in"},
		{"corrupt model", Options{Dir: corrupt, Lib: lib}, "corrupt"},
		{"no tokenizer", Options{Dir: noTok, Lib: lib}, "tokenizer.json"},
		{"broken tokenizer", Options{Dir: badTok, Lib: lib}, "tokenizer.json"},
		{"wrong output shape", Options{Dir: filepath.Join(modelDir, "pooled"), Lib: lib}, "token embeddings"},
		{"unknown precision", Options{Dir: modelDir, Lib: lib, Precision: "int4"}, "precision"},
		{"missing library", Options{Dir: modelDir, Lib: "/nonexistent/libonnxruntime.so.1"}, "ONNX Runtime"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Load(c.opts)
			if err == nil {
				m.Close()
				t.Fatal("loaded")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want it to mention %q", err, c.want)
			}
		})
	}
	// A precision whose file is missing falls back, saying so.
	var logs []string
	m, err := Load(Options{Dir: modelDir, Lib: lib, Precision: "fp16", Logf: func(f string, a ...any) { logs = append(logs, f) }})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if m.Info().Precision != "fp32" || len(logs) != 1 {
		t.Errorf("fp16 fallback: %+v, logs %q", m.Info(), logs)
	}
}

func copyFile(t *testing.T, from, to string) {
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
