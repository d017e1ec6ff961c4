package main

import (
	"flag"
	"fmt"

	"wayfind/rank"
	"wayfind/rerank"
)

// copyOrderFlag says whether find orders a shared name's copies by the
// fitted order the servers give their engines (rerank.LoadCopyOrder) or
// by the formula.
type copyOrderFlag struct{ use *bool }

func addCopyOrderFlags(fs *flag.FlagSet) copyOrderFlag {
	return copyOrderFlag{fs.Bool("copy-order", true, "order a shared name's copies by the fitted order, as the servers do (false: by the formula)")}
}

// load is the fitted order (nil with -copy-order=false) and what the
// header says of it. A bench asked for the order and unable to read it
// fails: its figures would be the formula's under the order's name.
func (f copyOrderFlag) load() (rank.CopyOrder, string, error) {
	if !*f.use {
		return nil, "copies of a name ordered by the formula", nil
	}
	c, err := rerank.LoadCopyOrder(len(rank.CopyFeatureNames))
	if err != nil {
		return nil, "", fmt.Errorf("the fitted copy order: %w (-copy-order=false for the formula)", err)
	}
	return c, "copies of a name ordered by the fitted order (rerank/copyorder.onnx)", nil
}
