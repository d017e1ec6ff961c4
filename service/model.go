package service

import (
	"os"
	"strconv"

	"wayfind/rank"
	"wayfind/rerank"
	"wayfind/session"
)

// ModelConfig is what a front end was told about the optional reranking
// model: flags, LSP initializationOptions.model, or the environment.
type ModelConfig struct {
	Dir       string  // model directory; "" means $RESOLVE_MODEL_DIR, else no model
	Precision string  // int8 (default), fp16, fp32
	Lib       string  // libonnxruntime; "" means $ONNXRUNTIME_LIB, then `make ort`'s, then the system's
	Threads   int     // ORT intra-op threads (default 1)
	TopK      int     // the fewest candidates reranked; 0 means $RESOLVE_TOPK, else 10
	Margin    float64 // lexical lead under which a query is a close call (default 0.05)
	Weight    float64 // the model's share of a blended score (default 0.3)
}

// WithEnvironment fills what the configuration leaves open from
// RESOLVE_MODEL_DIR and RESOLVE_TOPK.
func (c ModelConfig) WithEnvironment() ModelConfig {
	if c.Dir == "" {
		c.Dir = os.Getenv("RESOLVE_MODEL_DIR")
	}
	if c.TopK == 0 {
		c.TopK, _ = strconv.Atoi(os.Getenv("RESOLVE_TOPK"))
	}
	return c
}

// LoadOptions are rerank.Load's options for this configuration.
func (c ModelConfig) LoadOptions(logf func(string, ...any)) rerank.Options {
	return rerank.Options{Dir: c.Dir, Precision: c.Precision, Lib: c.Lib, Threads: c.Threads, Logf: logf}
}

// RerankOptions are the engine's options for this configuration.
func (c ModelConfig) RerankOptions() rank.RerankOptions {
	return rank.RerankOptions{Margin: c.Margin, Weight: c.Weight, Min: c.TopK}
}

// LoadModel loads the configured model in the background for the
// session's answers; until it is loaded, and for good when it cannot
// be, answers are lexical. A failure is one log line and find/status's
// model.reason.
func LoadModel(s *session.Session, c ModelConfig, logf func(string, ...any)) {
	c = c.WithEnvironment()
	if c.Dir == "" {
		return
	}
	go func() {
		m, err := rerank.Load(c.LoadOptions(logf))
		if err != nil {
			logf("model not loaded, answers stay lexical: %v", err)
			s.Model().Set(nil, rank.RerankOptions{}, rank.ModelStatus{Reason: err.Error()}, nil)
			return
		}
		info := m.Info()
		logf("model %s (%s) loaded in %.0f ms", info.Name, info.Precision, info.LoadMs)
		s.Model().Set(m, c.RerankOptions(), rank.ModelStatus{Name: info.Name, Precision: info.Precision, LoadMs: info.LoadMs}, m.Reranked)
	}()
}
