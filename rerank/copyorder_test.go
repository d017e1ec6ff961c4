package rerank

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"

	ort "github.com/yalue/onnxruntime_go"
)

// copyOrderChecks are the rows the export checked the model by
// (testdata/copyorder.check.json: a few tuning questions' rows and
// scikit-learn's own scores of them).
func copyOrderChecks(t *testing.T) (x [][]float32, y []float64) {
	t.Helper()
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
	for _, c := range checks {
		x, y = append(x, c.X...), append(y, c.Y...)
	}
	return x, y
}

// TestCopyOrderMatchesFit: the trees as read here score the export's
// rows as scikit-learn did.
func TestCopyOrderMatchesFit(t *testing.T) {
	x, y := copyOrderChecks(t)
	c, err := LoadCopyOrder(len(x[0]))
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.Score(x)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if math.Abs(float64(got[i])-y[i]) > 1e-4 {
			t.Errorf("row %d: walked %v, fitted %v", i, got[i], y[i])
		}
	}
}

// TestCopyOrderMatchesRuntime: ONNX Runtime, given the same file, scores
// the export's rows and a thousand rows near them (each value moved
// across the trees' thresholds) as the walk does: the walk reads the
// file as the runtime does.
func TestCopyOrderMatchesRuntime(t *testing.T) {
	if err := initEnv(resolveLib(ortLib(t))); err != nil {
		t.Fatal(err)
	}
	x, _ := copyOrderChecks(t)
	c, err := LoadCopyOrder(len(x[0]))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	rows := slices.Clone(x)
	for range 1000 {
		row := slices.Clone(x[r.IntN(len(x))])
		for k := range row {
			if r.IntN(3) == 0 {
				row[k] += float32(r.NormFloat64())
			}
		}
		rows = append(rows, row)
	}
	so, err := sessionOptions(1)
	if err != nil {
		t.Fatal(err)
	}
	defer so.Destroy()
	s, err := ort.NewDynamicAdvancedSessionWithONNXData(copyOrderModel, []string{"X"}, []string{"Y"}, so)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Destroy()
	flat := slices.Concat(rows...)
	in, err := ort.NewTensor(ort.NewShape(int64(len(rows)), int64(len(rows[0]))), flat)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Destroy()
	out, err := ort.NewEmptyTensor[float32](ort.NewShape(int64(len(rows)), 1))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Destroy()
	if err := s.Run([]ort.Value{in}, []ort.Value{out}); err != nil {
		t.Fatal(err)
	}
	walked, err := c.Score(rows)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range out.GetData() {
		if math.Abs(float64(walked[i]-want)) > 1e-5 {
			t.Errorf("row %d %v: walked %v, the runtime %v", i, rows[i], walked[i], want)
		}
	}
}

// TestCopyOrderBadInput: a caller expecting another width is told at
// load, a row of the wrong width is an error, and a damaged model is an
// error, not a crash.
func TestCopyOrderBadInput(t *testing.T) {
	if _, err := LoadCopyOrder(19); err == nil || !strings.Contains(err.Error(), "refit") {
		t.Errorf("a model of another width loaded: %v", err)
	}
	c, err := LoadCopyOrder(20)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Score([][]float32{make([]float32, 19)}); err == nil {
		t.Error("a short row scored")
	}
	for _, cut := range []int{0, 10, len(copyOrderModel) / 2, len(copyOrderModel) - 3} {
		if _, err := readTreeEnsemble(copyOrderModel[:cut]); err == nil {
			t.Errorf("the model cut at %d bytes read", cut)
		}
	}
}
