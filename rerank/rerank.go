// Package rerank holds wayfind's models. The optional neural reranker: a
// ColBERT-style model, run with ONNX Runtime, scores a query against
// candidate texts by late interaction (MaxSim over token embeddings).
// And find's fitted order of a shared name's copies (copyorder.go):
// trees shipped inside the binary as an ONNX file, read and walked here.
// It is a leaf: the ranking engine calls them through
// rank.Reranker and rank.CopyOrder, passing texts and rows it has already
// made, and decides when and how much to listen.
//
// Everything that can go wrong (no library, no model, a corrupt file, an
// unexpected graph) is an error from Load or LoadCopyOrder, which the
// caller logs before going on without the model: the engine's own
// answers never depend on this package.
package rerank

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/sugarme/tokenizer"
	"github.com/sugarme/tokenizer/pretrained"
	ort "github.com/yalue/onnxruntime_go"
)

// Options say where the model and the runtime are.
type Options struct {
	// Dir holds model_int8.onnx, model_fp16.onnx and/or model.onnx, and
	// tokenizer.json.
	Dir string
	// Precision picks the model file: "int8" (default), "fp16" or "fp32";
	// a missing one falls back to the next (int8 → fp16 → fp32) with a log
	// line.
	Precision string
	// Lib is libonnxruntime's path; "" means $ONNXRUNTIME_LIB, else
	// DefaultLib's finds, else the system loader.
	Lib string
	// Threads is ORT's intra-op thread count (0: 1, measured fastest for
	// the small batches reranking sends).
	Threads int
	// MaxTokens truncates each text (0: 64).
	MaxTokens int
	Logf      func(string, ...any)
}

// Info describes a loaded model for find/status.
type Info struct {
	Name      string  `json:"name"`
	Precision string  `json:"precision"`
	File      string  `json:"file"`
	LoadMs    float64 `json:"loadMs"`
	Dim       int     `json:"dim"`
}

// Model is a loaded reranker. Safe for concurrent use (runs are
// serialised: one query's batch at a time).
type Model struct {
	info     Info
	tok      *tokenizer.Tokenizer
	session  *ort.DynamicAdvancedSession
	inputs   []string // input_ids, attention_mask[, token_type_ids] in the model's order
	output   string
	maxTok   int
	mu       sync.Mutex
	reranked int64
}

var (
	envOnce sync.Mutex
	envLib  string // the library the environment was initialised with
)

// initEnv initialises ONNX Runtime once per process with lib.
func initEnv(lib string) error {
	envOnce.Lock()
	defer envOnce.Unlock()
	if ort.IsInitialized() {
		if lib != envLib {
			return fmt.Errorf("ONNX Runtime is already loaded from %s", envLib)
		}
		return nil
	}
	ort.SetSharedLibraryPath(lib)
	if err := ort.InitializeEnvironment(); err != nil {
		return fmt.Errorf("cannot load ONNX Runtime from %s (wayfind needs libonnxruntime ≥ 1.24; `make ort` fetches it): %w", lib, err)
	}
	envLib = lib
	return nil
}

// DefaultLib is where `make ort` puts the library, relative to the
// running binary (bin/wayfind → third_party/onnxruntime/).
func DefaultLib() string {
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), "..", "third_party", "onnxruntime", "libonnxruntime.so.1")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

func resolveLib(lib string) string {
	switch {
	case lib != "":
		return lib
	case os.Getenv("ONNXRUNTIME_LIB") != "":
		return os.Getenv("ONNXRUNTIME_LIB")
	case DefaultLib() != "":
		return DefaultLib()
	}
	return "libonnxruntime.so.1" // the system loader's search path
}

var modelFiles = map[string]string{"int8": "model_int8.onnx", "fp16": "model_fp16.onnx", "fp32": "model.onnx"}

// pickModel returns the file for precision, falling back int8 → fp16 →
// fp32.
func pickModel(dir, precision string, logf func(string, ...any)) (string, string, error) {
	order := []string{"int8", "fp16", "fp32"}
	start := 0
	switch precision {
	case "", "int8":
	case "fp16":
		start = 1
	case "fp32":
		start = 2
	default:
		return "", "", fmt.Errorf("precision must be int8, fp16 or fp32, not %q", precision)
	}
	want := order[start]
	for _, p := range order[start:] {
		f := filepath.Join(dir, modelFiles[p])
		if _, err := os.Stat(f); err == nil {
			if p != want {
				logf("model: no %s in %s; using %s", modelFiles[want], dir, modelFiles[p])
			}
			return f, p, nil
		}
	}
	return "", "", fmt.Errorf("no model in %s (looked for %s)", dir, strings.Join([]string{modelFiles["int8"], modelFiles["fp16"], modelFiles["fp32"]}, ", "))
}

// Load loads the model and tokenizer, checks the graph's inputs and
// output, and runs one warm-up inference (ORT's first run is slow).
func Load(opts Options) (m *Model, err error) {
	start := time.Now()
	logf := opts.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	defer func() {
		if r := recover(); r != nil {
			m, err = nil, fmt.Errorf("model: %v", r)
		}
	}()
	if opts.Dir == "" {
		return nil, errors.New("no model directory")
	}
	file, precision, err := pickModel(opts.Dir, opts.Precision, logf)
	if err != nil {
		return nil, err
	}
	tok, err := pretrained.FromFile(filepath.Join(opts.Dir, "tokenizer.json"))
	if err != nil {
		return nil, fmt.Errorf("tokenizer.json in %s: %w", opts.Dir, err)
	}
	if err := initEnv(resolveLib(opts.Lib)); err != nil {
		return nil, err
	}
	m = &Model{tok: tok, maxTok: opts.MaxTokens}
	if m.maxTok <= 0 {
		m.maxTok = 64
	}
	if err := m.checkGraph(file); err != nil {
		return nil, err
	}
	if m.session, err = newSession(file, m.inputs, m.output, opts.Threads); err != nil {
		return nil, err
	}
	// Warm up, and learn the embedding size.
	emb, err := m.embed([]string{"warm up"})
	if err != nil {
		m.Close()
		return nil, fmt.Errorf("%s: warm-up run: %w", file, err)
	}
	m.info = Info{Name: filepath.Base(filepath.Clean(opts.Dir)), Precision: precision, File: file,
		LoadMs: float64(time.Since(start).Microseconds()) / 1000, Dim: emb[0].dim}
	return m, nil
}

func names(infos []ort.InputOutputInfo) []string {
	var out []string
	for _, i := range infos {
		out = append(out, i.Name)
	}
	return out
}

// Info describes the model.
func (m *Model) Info() Info { return m.info }

// Reranked counts the queries scored so far.
func (m *Model) Reranked() int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.reranked
}

// Close frees the session.
func (m *Model) Close() {
	if m.session != nil {
		m.session.Destroy()
		m.session = nil
	}
}

// tokens is one text's token embeddings: n rows of dim floats.
type tokens struct {
	vec []float32
	n   int
	dim int
}

// encode tokenizes texts into one padded batch.
func (m *Model) encode(texts []string) (ids, mask, types []int64, seq int, err error) {
	encs := make([][]int, len(texts))
	for i, t := range texts {
		e, err := m.tok.EncodeSingle(t, true)
		if err != nil {
			return nil, nil, nil, 0, fmt.Errorf("tokenize %q: %w", t, err)
		}
		id := e.GetIds()
		if len(id) > m.maxTok {
			id = append(id[:m.maxTok-1:m.maxTok-1], id[len(id)-1]) // keep [SEP]
		}
		encs[i] = id
		seq = max(seq, len(id))
	}
	ids = make([]int64, len(texts)*seq)
	mask = make([]int64, len(texts)*seq)
	types = make([]int64, len(texts)*seq)
	for i, e := range encs {
		for j, id := range e {
			ids[i*seq+j] = int64(id)
			mask[i*seq+j] = 1
		}
	}
	return ids, mask, types, seq, nil
}

// embed runs the model once over texts (one batch).
func (m *Model) embed(texts []string) ([]tokens, error) {
	ids, mask, types, seq, err := m.encode(texts)
	if err != nil {
		return nil, err
	}
	shape := ort.NewShape(int64(len(texts)), int64(seq))
	var inputs []ort.Value
	defer func() {
		for _, v := range inputs {
			v.Destroy()
		}
	}()
	for _, name := range m.inputs {
		data := map[string][]int64{"input_ids": ids, "attention_mask": mask, "token_type_ids": types}[name]
		t, err := ort.NewTensor(shape, data)
		if err != nil {
			return nil, err
		}
		inputs = append(inputs, t)
	}
	outputs := []ort.Value{nil}
	m.mu.Lock()
	err = m.session.Run(inputs, outputs)
	m.mu.Unlock()
	if err != nil {
		return nil, err
	}
	defer outputs[0].Destroy()
	out, ok := outputs[0].(*ort.Tensor[float32])
	if !ok {
		return nil, fmt.Errorf("output %s is not a float tensor", m.output)
	}
	s := out.GetShape()
	if len(s) != 3 || s[0] != int64(len(texts)) || s[1] != int64(seq) {
		return nil, fmt.Errorf("output shape %v, want [%d %d dim]", s, len(texts), seq)
	}
	dim := int(s[2])
	data := out.GetData()
	res := make([]tokens, len(texts))
	for i := range texts {
		n := 0
		for j := 0; j < seq; j++ {
			if mask[i*seq+j] == 1 {
				n++
			}
		}
		v := make([]float32, n*dim)
		copy(v, data[i*seq*dim:i*seq*dim+n*dim]) // padding is at the end
		res[i] = tokens{vec: v, n: n, dim: dim}
	}
	return res, nil
}

// Score returns, for each doc, the MaxSim of query against it — for
// every query token the best dot product with a doc token, averaged over
// the query's tokens — in [-1, 1] for a model whose embeddings are unit
// vectors. One batch, one Run.
func (m *Model) Score(ctx context.Context, query string, docs []string) ([]float64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	embs, err := m.embed(append([]string{query}, docs...))
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	m.reranked++
	m.mu.Unlock()
	out := make([]float64, len(docs))
	for i := range docs {
		out[i] = MaxSim(embs[0].vec, embs[i+1].vec, embs[0].dim)
	}
	return out, nil
}

// MaxSim is ColBERT's late interaction over row-major token embeddings
// q and d of width dim: Σ over q's rows of the best dot product with a
// row of d, divided by q's row count.
func MaxSim(q, d []float32, dim int) float64 {
	nq, nd := len(q)/dim, len(d)/dim
	if nq == 0 || nd == 0 {
		return 0
	}
	var sum float64
	for i := 0; i < nq; i++ {
		best := math.Inf(-1)
		qi := q[i*dim : (i+1)*dim]
		for j := 0; j < nd; j++ {
			dj := d[j*dim : (j+1)*dim]
			var dot float64
			for k := range qi {
				dot += float64(qi[k]) * float64(dj[k])
			}
			best = math.Max(best, dot)
		}
		sum += best
	}
	return sum / float64(nq)
}

// checkGraph reads the model's inputs and output and checks they are what
// Score feeds and reads: int64 input_ids and attention_mask (optionally
// token_type_ids), and float token embeddings [batch, seq, dim] whose
// name is taken, not assumed.
func (m *Model) checkGraph(file string) error {
	ins, outs, err := ort.GetInputOutputInfo(file)
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	have := map[string]bool{}
	for _, in := range ins {
		have[in.Name] = true
		if in.DataType != ort.TensorElementDataTypeInt64 {
			return fmt.Errorf("%s: input %s is %v, want int64", file, in.Name, in.DataType)
		}
	}
	if !have["input_ids"] || !have["attention_mask"] {
		return fmt.Errorf("%s: inputs %v; want input_ids and attention_mask (and optionally token_type_ids)", file, names(ins))
	}
	for _, in := range ins {
		switch in.Name {
		case "input_ids", "attention_mask", "token_type_ids":
			m.inputs = append(m.inputs, in.Name)
		default:
			return fmt.Errorf("%s: unexpected input %s", file, in.Name)
		}
	}
	if len(outs) == 0 {
		return fmt.Errorf("%s: the model has no output", file)
	}
	out := outs[0]
	if len(out.Dimensions) != 3 || out.DataType != ort.TensorElementDataTypeFloat {
		return fmt.Errorf("%s: output %s is %v %v; want float token embeddings [batch, seq, dim]", file, out.Name, out.DataType, out.Dimensions)
	}
	m.output = out.Name
	return nil
}

// newSession opens the model with threads intra-op threads.
func newSession(file string, inputs []string, output string, threads int) (*ort.DynamicAdvancedSession, error) {
	so, err := sessionOptions(threads)
	if err != nil {
		return nil, err
	}
	defer so.Destroy()
	s, err := ort.NewDynamicAdvancedSession(file, inputs, []string{output}, so)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return s, nil
}

// sessionOptions are a session's with threads intra-op threads (default
// 1: a model here is asked about a few candidates at a time, beside a
// busy server).
func sessionOptions(threads int) (*ort.SessionOptions, error) {
	so, err := ort.NewSessionOptions()
	if err != nil {
		return nil, err
	}
	if threads <= 0 {
		threads = 1
	}
	if err := so.SetIntraOpNumThreads(threads); err != nil {
		so.Destroy()
		return nil, err
	}
	if err := so.SetInterOpNumThreads(1); err != nil {
		so.Destroy()
		return nil, err
	}
	return so, nil
}
