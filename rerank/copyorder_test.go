package rerank

import (
	"encoding/json"
	"math"
	"os"
	"strings"
	"sync"
	"testing"
)

// TestCopyOrderMatchesFit asks the shipped copy order, through ONNX
// Runtime, for the rows the export checked it by
// (testdata/copyorder.check.json: a few tuning questions' rows and
// scikit-learn's own scores of them): the runtime reads the trees as
// they were fitted. Concurrent callers get the same scores.
func TestCopyOrderMatchesFit(t *testing.T) {
	lib := ortLib(t)
	b, err := os.ReadFile("testdata/copyorder.check.json")
	if err != nil {
		t.Fatal(err)
	}
	var checks []struct {
		X [][]float32
		Y []float64
	}
	if err := json.Unmarshal(b, &checks); err != nil || len(checks) == 0 {
		t.Fatalf("%d checks: %v", len(checks), err)
	}
	c, err := LoadCopyOrder(lib, len(checks[0].X[0]))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, ch := range checks {
				got, err := c.Score(ch.X)
				if err != nil {
					t.Error(err)
					return
				}
				if len(got) != len(ch.Y) {
					t.Errorf("check %d: %d scores for %d rows", i, len(got), len(ch.Y))
					return
				}
				for k := range got {
					if math.Abs(float64(got[k])-ch.Y[k]) > 1e-4 {
						t.Errorf("check %d row %d: runtime %v, fit %v", i, k, got[k], ch.Y[k])
					}
				}
			}
		}()
	}
	wg.Wait()
}

// TestCopyOrderBadInput: a caller expecting another width is told at
// load; a row of the wrong width is an error, not a crash, and so is a
// closed model.
func TestCopyOrderBadInput(t *testing.T) {
	lib := ortLib(t)
	if _, err := LoadCopyOrder(lib, 19); err == nil || !strings.Contains(err.Error(), "refit") {
		t.Errorf("a model of another width loaded: %v", err)
	}
	c, err := LoadCopyOrder(lib, 20)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Score([][]float32{make([]float32, 19)}); err == nil {
		t.Error("a short row scored")
	}
	c.Close()
	if _, err := c.Score([][]float32{make([]float32, 20)}); err == nil {
		t.Error("a closed model scored")
	}
}
