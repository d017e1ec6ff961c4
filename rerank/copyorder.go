package rerank

import (
	_ "embed"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
)

// copyOrderModel is find's fitted order of a shared name's copies
// (rank/copyorder.go, which calls it through rank.CopyOrder): gradient-
// boosted trees written by `scripts/fit-session-order.py --export
// rerank/copyorder.onnx`, an ONNX TreeEnsembleRegressor from X, float
// [n, the columns of rank.CopyFeatures], to Y, float [n, 1]. It ships
// inside the binary.
//
// The trees are read from the ONNX file and walked here, not run by ONNX
// Runtime, though the runtime reads the same file
// (TestCopyOrderMatchesRuntime): a server that loaded the runtime for
// them held more than twice the memory a small workspace's server needs
// otherwise, and a share of the million-file tree's budget, to walk a
// few hundred small trees (docs/BENCHMARKS.md has the figures); and
// without the library, which `make ort` fetches and an installed binary
// may not find, the answers would differ from one front end or machine
// to the next. The walk is the runtime's reading: each branch node sends
// a value at or below its threshold (both float32) to its true child, a
// leaf's weights are summed over the trees with the base value, and the
// sum is the score, untransformed.
//
//go:embed copyorder.onnx
var copyOrderModel []byte

// CopyOrder is copyOrderModel's trees (rank.CopyOrder). Immutable: safe
// for concurrent use.
type CopyOrder struct {
	nodes   []treeNode
	roots   []int32 // each tree's first node in nodes
	base    float64
	columns int
	// LoadMs is how long reading the trees took (once a process).
	LoadMs float64
}

// treeNode is a branch (feature ≥ 0: x[feature] ≤ threshold goes to yes,
// else no, both indexes into nodes) or a leaf (feature < 0: weight).
type treeNode struct {
	feature   int32
	threshold float32
	yes, no   int32
	weight    float64
}

// LoadCopyOrder is the shipped trees, checking that they read rows of
// columns (the caller's: len(rank.CopyFeatureNames)). They are read once
// a process and shared: every session's engines walk the same trees.
func LoadCopyOrder(columns int) (*CopyOrder, error) {
	c, err := shippedCopyOrder()
	if err != nil {
		return nil, err
	}
	if c.columns != columns {
		return nil, fmt.Errorf("copy order: the model reads rows of %d columns; the engine gives %d (refit it: scripts/fit-session-order.py --export)", c.columns, columns)
	}
	return c, nil
}

var shippedCopyOrder = sync.OnceValues(func() (*CopyOrder, error) {
	start := time.Now()
	c, err := readTreeEnsemble(copyOrderModel)
	if err != nil {
		return nil, fmt.Errorf("copy order: %w", err)
	}
	c.LoadMs = float64(time.Since(start).Microseconds()) / 1000
	return c, nil
})

// Score is the trees' score of each row (rank.CopyFeatures).
func (c *CopyOrder) Score(rows [][]float32) ([]float32, error) {
	out := make([]float32, len(rows))
	for i, r := range rows {
		if len(r) != c.columns {
			return nil, fmt.Errorf("copy order: row %d has %d columns, want %d", i, len(r), c.columns)
		}
		s := c.base
		for _, n := range c.roots {
			for c.nodes[n].feature >= 0 {
				if t := &c.nodes[n]; r[t.feature] <= t.threshold {
					n = t.yes
				} else {
					n = t.no
				}
			}
			s += c.nodes[n].weight
		}
		out[i] = float32(s)
	}
	return out, nil
}

// The ONNX protobuf fields read (onnx.proto): ModelProto.graph,
// GraphProto.node and input (its shape, down to the dims' dim_value),
// NodeProto.op_type and attribute, AttributeProto's name, f, i, s,
// floats, ints and strings.
const (
	modelGraph     = 7
	graphNode      = 1
	graphInput     = 11
	valueInfoType  = 2
	typeTensor     = 1
	tensorShape    = 2
	shapeDim       = 1
	dimValue       = 1
	nodeOpType     = 4
	nodeAttribute  = 5
	attrName       = 1
	attrFloat      = 2
	attrInt        = 3
	attrString     = 4
	attrFloats     = 7
	attrInts       = 8
	attrStrings    = 9
	treeEnsembleOp = "TreeEnsembleRegressor"
)

// attribute is one AttributeProto's values.
type attribute struct {
	floats  []float32
	ints    []int64
	strings []string
}

// readTreeEnsemble reads the one TreeEnsembleRegressor of an ONNX model:
// one target, SUM, no transform, branches BRANCH_LEQ (what the export
// writes; anything else is an error, not a guess).
func readTreeEnsemble(model []byte) (*CopyOrder, error) {
	graph, err := field(model, modelGraph)
	if err != nil {
		return nil, err
	}
	var attrs map[string]attribute
	err = eachField(graph, func(num protowire.Number, v []byte) error {
		if num != graphNode {
			return nil
		}
		op, a, err := readNode(v)
		if err != nil || op != treeEnsembleOp {
			return err
		}
		if attrs != nil {
			return errors.New("more than one TreeEnsembleRegressor")
		}
		attrs = a
		return nil
	})
	if err != nil {
		return nil, err
	}
	if attrs == nil {
		return nil, errors.New("no TreeEnsembleRegressor")
	}
	for name, want := range map[string]string{"aggregate_function": "SUM", "post_transform": "NONE"} {
		if got := attrs[name].strings; len(got) > 0 && got[0] != want {
			return nil, fmt.Errorf("%s %s; want %s", name, got[0], want)
		}
	}
	if n := attrs["n_targets"].ints; len(n) > 0 && n[0] != 1 {
		return nil, fmt.Errorf("%d targets; want 1", n[0])
	}
	trees, ids, features := attrs["nodes_treeids"].ints, attrs["nodes_nodeids"].ints, attrs["nodes_featureids"].ints
	values, modes := attrs["nodes_values"].floats, attrs["nodes_modes"].strings
	yes, no := attrs["nodes_truenodeids"].ints, attrs["nodes_falsenodeids"].ints
	n := len(trees)
	if n == 0 || len(ids) != n || len(features) != n || len(values) != n || len(modes) != n || len(yes) != n || len(no) != n {
		return nil, errors.New("the nodes' attributes differ in length")
	}
	type key struct{ tree, node int64 }
	at := make(map[key]int32, n)
	for i := range n {
		at[key{trees[i], ids[i]}] = int32(i)
	}
	columns, err := inputWidth(graph)
	if err != nil {
		return nil, err
	}
	c := &CopyOrder{nodes: make([]treeNode, n), columns: columns}
	for i := range n {
		switch modes[i] {
		case "LEAF":
			c.nodes[i] = treeNode{feature: -1}
		case "BRANCH_LEQ":
			y, ok1 := at[key{trees[i], yes[i]}]
			f, ok2 := at[key{trees[i], no[i]}]
			if !ok1 || !ok2 || features[i] < 0 {
				return nil, fmt.Errorf("node %d of tree %d: a child or feature out of range", ids[i], trees[i])
			}
			if features[i] >= int64(c.columns) {
				return nil, fmt.Errorf("node %d of tree %d reads column %d of %d", ids[i], trees[i], features[i], c.columns)
			}
			c.nodes[i] = treeNode{feature: int32(features[i]), threshold: values[i], yes: y, no: f}
		default:
			return nil, fmt.Errorf("node mode %s; want BRANCH_LEQ or LEAF", modes[i])
		}
		if i == 0 || trees[i] != trees[i-1] {
			root, ok := at[key{trees[i], 0}]
			if !ok {
				return nil, fmt.Errorf("tree %d has no node 0", trees[i])
			}
			c.roots = append(c.roots, root)
		}
	}
	tt, tn, tw := attrs["target_treeids"].ints, attrs["target_nodeids"].ints, attrs["target_weights"].floats
	if len(tn) != len(tt) || len(tw) != len(tt) {
		return nil, errors.New("the targets' attributes differ in length")
	}
	for i := range tt {
		j, ok := at[key{tt[i], tn[i]}]
		if !ok || c.nodes[j].feature >= 0 {
			return nil, fmt.Errorf("target %d: no leaf %d of tree %d", i, tn[i], tt[i])
		}
		c.nodes[j].weight += float64(tw[i])
	}
	if b := attrs["base_values"].floats; len(b) > 0 {
		c.base = float64(b[0])
	}
	if math.IsNaN(c.base) {
		return nil, errors.New("base value NaN")
	}
	return c, nil
}

// inputWidth is the second dimension of the graph's one input, X [n,
// width] (GraphProto.input → ValueInfoProto.type → TypeProto.tensor_type
// → shape → the dims' dim_value).
func inputWidth(graph []byte) (int, error) {
	in, err := field(graph, graphInput)
	if err != nil {
		return 0, fmt.Errorf("the graph's input: %w", err)
	}
	shape := in
	for _, num := range []protowire.Number{valueInfoType, typeTensor, tensorShape} {
		if shape, err = field(shape, num); err != nil {
			return 0, fmt.Errorf("the input's shape: %w", err)
		}
	}
	var dims []int64
	err = eachField(shape, func(num protowire.Number, d []byte) error {
		if num != shapeDim {
			return nil
		}
		v := int64(-1) // a named dimension (n)
		for len(d) > 0 {
			dn, typ, k := protowire.ConsumeTag(d)
			if k < 0 {
				return protowire.ParseError(k)
			}
			d = d[k:]
			if dn == dimValue && typ == protowire.VarintType {
				x, m := protowire.ConsumeVarint(d)
				if m < 0 {
					return protowire.ParseError(m)
				}
				v, k = int64(x), m
			} else if k = protowire.ConsumeFieldValue(dn, typ, d); k < 0 {
				return protowire.ParseError(k)
			}
			d = d[k:]
		}
		dims = append(dims, v)
		return nil
	})
	if err != nil || len(dims) != 2 || dims[1] <= 0 {
		return 0, fmt.Errorf("the input is not [n, width]: %v %v", dims, err)
	}
	return int(dims[1]), nil
}

// readNode reads a NodeProto's op_type and, for the tree ensemble, its
// attributes.
func readNode(b []byte) (string, map[string]attribute, error) {
	op, err := field(b, nodeOpType)
	if err != nil || string(op) != treeEnsembleOp {
		return string(op), nil, nil
	}
	attrs := map[string]attribute{}
	err = eachField(b, func(num protowire.Number, v []byte) error {
		if num != nodeAttribute {
			return nil
		}
		name, a, err := readAttribute(v)
		if err == nil {
			attrs[name] = a
		}
		return err
	})
	return string(op), attrs, err
}

// readAttribute reads an AttributeProto's name and values (a single f, i
// or s read as a one-element list; lists packed or not).
func readAttribute(b []byte) (string, attribute, error) {
	var name string
	var a attribute
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return "", a, protowire.ParseError(n)
		}
		b = b[n:]
		var raw []byte // a length-delimited field's bytes
		var x uint64   // a fixed32's or a varint's value
		switch typ {
		case protowire.BytesType:
			raw, n = protowire.ConsumeBytes(b)
		case protowire.Fixed32Type:
			var f uint32
			f, n = protowire.ConsumeFixed32(b)
			x = uint64(f)
		case protowire.VarintType:
			x, n = protowire.ConsumeVarint(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return "", a, protowire.ParseError(n)
		}
		b = b[n:]
		switch {
		case num == attrName && typ == protowire.BytesType:
			name = string(raw)
		case (num == attrFloat || num == attrFloats) && typ == protowire.Fixed32Type:
			a.floats = append(a.floats, math.Float32frombits(uint32(x)))
		case num == attrFloats && typ == protowire.BytesType: // packed
			if len(raw)%4 != 0 {
				return "", a, errors.New("a packed float list cut short")
			}
			for ; len(raw) > 0; raw = raw[4:] {
				f, _ := protowire.ConsumeFixed32(raw)
				a.floats = append(a.floats, math.Float32frombits(f))
			}
		case (num == attrInt || num == attrInts) && typ == protowire.VarintType:
			a.ints = append(a.ints, int64(x))
		case num == attrInts && typ == protowire.BytesType: // packed
			for len(raw) > 0 {
				v, k := protowire.ConsumeVarint(raw)
				if k < 0 {
					return "", a, protowire.ParseError(k)
				}
				a.ints, raw = append(a.ints, int64(v)), raw[k:]
			}
		case (num == attrString || num == attrStrings) && typ == protowire.BytesType:
			a.strings = append(a.strings, string(raw))
		}
	}
	return name, a, nil
}

// field is the bytes of message b's last field num (a message or a
// string).
func field(b []byte, num protowire.Number) ([]byte, error) {
	var out []byte
	found := false
	err := eachField(b, func(n protowire.Number, v []byte) error {
		if n == num {
			out, found = v, true
		}
		return nil
	})
	if err == nil && !found {
		err = fmt.Errorf("no field %d", num)
	}
	return out, err
}

// eachField calls f with each length-delimited field of message b (the
// others skipped).
func eachField(b []byte, f func(protowire.Number, []byte) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if typ != protowire.BytesType {
			n = protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return protowire.ParseError(n)
			}
			b = b[n:]
			continue
		}
		v, m := protowire.ConsumeBytes(b)
		if m < 0 {
			return protowire.ParseError(m)
		}
		if err := f(num, v); err != nil {
			return err
		}
		b = b[m:]
	}
	return nil
}
