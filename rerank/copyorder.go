package rerank

import (
	_ "embed"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	ort "github.com/yalue/onnxruntime_go"
)

// copyOrderModel is find's fitted order of a shared name's copies
// (rank/copyorder.go, which calls it through rank.CopyOrder): gradient-
// boosted trees written by `scripts/fit-session-order.py --export
// rerank/copyorder.onnx`, an ONNX TreeEnsembleRegressor from X, float
// [n, the columns of rank.CopyFeatures], to Y, float [n, 1]. It ships
// inside the binary: only the runtime is looked for.
//
//go:embed copyorder.onnx
var copyOrderModel []byte

// CopyOrder runs copyOrderModel (rank.CopyOrder). Safe for concurrent
// use: runs are serialised, each a few copies.
type CopyOrder struct {
	mu      sync.Mutex
	session *ort.DynamicAdvancedSession
	columns int
	// LoadMs is how long loading took, the runtime's start included.
	LoadMs float64
}

// LoadCopyOrder starts ONNX Runtime from lib ("" as Options.Lib) and
// loads the copy order, checking that it reads rows of columns (the
// caller's: len(rank.CopyFeatureNames)) and gives one score a row.
func LoadCopyOrder(lib string, columns int) (c *CopyOrder, err error) {
	start := time.Now()
	defer func() {
		if r := recover(); r != nil {
			c, err = nil, fmt.Errorf("copy order: %v", r)
		}
	}()
	if err := initEnv(resolveLib(lib)); err != nil {
		return nil, err
	}
	ins, outs, err := ort.GetInputOutputInfoWithONNXData(copyOrderModel)
	if err != nil {
		return nil, fmt.Errorf("copy order: %w", err)
	}
	want := int64(columns)
	if len(ins) != 1 || len(ins[0].Dimensions) != 2 || ins[0].Dimensions[1] != want || ins[0].DataType != ort.TensorElementDataTypeFloat ||
		len(outs) != 1 || len(outs[0].Dimensions) != 2 || outs[0].Dimensions[1] != 1 {
		return nil, fmt.Errorf("copy order: the model takes %v and gives %v; want float [n, %d] to [n, 1] (refit it: scripts/fit-session-order.py --export)", ins, outs, want)
	}
	so, err := sessionOptions(1)
	if err != nil {
		return nil, err
	}
	defer so.Destroy()
	s, err := ort.NewDynamicAdvancedSessionWithONNXData(copyOrderModel, []string{ins[0].Name}, []string{outs[0].Name}, so)
	if err != nil {
		return nil, fmt.Errorf("copy order: %w", err)
	}
	return &CopyOrder{session: s, columns: columns, LoadMs: float64(time.Since(start).Microseconds()) / 1000}, nil
}

// Score is the model's score of each row (rank.CopyFeatures).
func (c *CopyOrder) Score(rows [][]float32) ([]float32, error) {
	k := c.columns
	data := make([]float32, 0, len(rows)*k)
	for i, r := range rows {
		if len(r) != k {
			return nil, fmt.Errorf("copy order: row %d has %d columns, want %d", i, len(r), k)
		}
		data = append(data, r...)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	x, err := ort.NewTensor(ort.NewShape(int64(len(rows)), int64(k)), data)
	if err != nil {
		return nil, err
	}
	defer x.Destroy()
	y, err := ort.NewEmptyTensor[float32](ort.NewShape(int64(len(rows)), 1))
	if err != nil {
		return nil, err
	}
	defer y.Destroy()
	c.mu.Lock()
	if c.session == nil {
		err = errors.New("copy order: closed")
	} else {
		err = c.session.Run([]ort.Value{x}, []ort.Value{y})
	}
	c.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("copy order: %w", err)
	}
	return slices.Clone(y.GetData()), nil
}

// Close releases the session; the engines ordering by it must be done.
func (c *CopyOrder) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.session != nil {
		c.session.Destroy()
		c.session = nil
	}
}
