package lsp

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wayfind/rerank/reranktest"
	"wayfind/wire"
)

// TestModelThroughTheProtocol: initializationOptions.model loads the
// reranker in the background; find/status reports it; a close call is
// reranked and its metrics line says how long the model took. A model
// that cannot load leaves the answers exactly as they were.
func TestModelThroughTheProtocol(t *testing.T) {
	lib := reranktest.Lib(t)
	modelDir, _ := filepath.Abs("../testdata/model")
	dir := project(t)

	plain := startServer(t)
	plain.initialize(nil, nil, dir)
	var want wire.Files
	plain.ok("find/files", map[string]any{"query": "client"}, &want)

	c := startServer(t)
	c.initialize(nil, map[string]any{"model": map[string]any{"dir": modelDir, "ortLib": lib}}, dir)
	var st wire.Status
	deadline := time.Now().Add(10 * time.Second)
	for !st.Model.Loaded {
		if time.Now().After(deadline) {
			t.Fatalf("model never loaded: %+v", st.Model)
		}
		c.ok("find/status", map[string]any{}, &st)
		time.Sleep(10 * time.Millisecond)
	}
	if st.Model.Name != "model" || st.Model.Precision != "int8" || st.Model.LoadMs <= 0 {
		t.Errorf("status model %+v", st.Model)
	}
	var got wire.Files
	c.ok("find/files", map[string]any{"query": "client"}, &got) // two client.go files tie
	if len(got.Matches) != len(want.Matches) {
		t.Errorf("rerank changed what matched: %+v vs %+v", got.Matches, want.Matches)
	}
	c.ok("find/status", map[string]any{}, &st)
	if st.Model.Reranked < 1 {
		t.Errorf("the tie was not reranked: %+v", st.Model)
	}
	deadline = time.Now().Add(5 * time.Second)
	for !strings.Contains(c.stderr.String(), `"rerankMs"`) {
		if time.Now().After(deadline) {
			t.Fatalf("no rerankMs in the metrics lines:\n%s", c.stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}

	bad := startServer(t)
	bad.initialize(nil, map[string]any{"model": map[string]any{"dir": filepath.Join(dir, "no-model-here"), "ortLib": lib}}, dir)
	deadline = time.Now().Add(10 * time.Second)
	for st = (wire.Status{}); st.Model.Reason == ""; {
		if time.Now().After(deadline) {
			t.Fatalf("no reason for the missing model: %+v", st.Model)
		}
		bad.ok("find/status", map[string]any{}, &st)
		time.Sleep(10 * time.Millisecond)
	}
	if st.Model.Loaded || !strings.Contains(st.Model.Reason, "no model in") {
		t.Errorf("status model %+v", st.Model)
	}
	bad.ok("find/files", map[string]any{"query": "client"}, &got)
	if len(got.Matches) != len(want.Matches) || got.Matches[0].Path != want.Matches[0].Path {
		t.Errorf("a missing model changed the answer: %+v vs %+v", got.Matches, want.Matches)
	}
}
