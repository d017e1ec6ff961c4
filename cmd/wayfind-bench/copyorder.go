package main

import (
	"flag"
	"fmt"

	"wayfind/rank"
	"wayfind/rerank"
)

// copyOrderFlags say whether find orders a shared name's copies by the
// fitted order the servers load (rerank.LoadCopyOrder) or by the formula,
// and where ONNX Runtime is.
type copyOrderFlags struct {
	use *bool
	lib *string
}

func addCopyOrderFlags(fs *flag.FlagSet) copyOrderFlags {
	return copyOrderFlags{
		use: fs.Bool("copy-order", true, "order a shared name's copies by the fitted order, as the servers do (false: by the formula)"),
		lib: fs.String("ort-lib", "", "libonnxruntime for the fitted order (default: $ONNXRUNTIME_LIB, then `make ort`'s, then the system's)"),
	}
}

// load is the fitted order (nil with -copy-order=false) and what the
// header says of it. A bench asked for the order and unable to load it
// fails: its figures would be the formula's under the order's name.
func (f copyOrderFlags) load() (rank.CopyOrder, string, error) {
	if !*f.use {
		return nil, "copies of a name ordered by the formula", nil
	}
	lib := *f.lib
	if lib == "" && fileExists(ortLibMakeOrt) {
		lib = ortLibMakeOrt
	}
	c, err := rerank.LoadCopyOrder(lib, len(rank.CopyFeatureNames))
	if err != nil {
		return nil, "", fmt.Errorf("the fitted copy order: %w (`make ort`, or -copy-order=false for the formula)", err)
	}
	return c, fmt.Sprintf("copies of a name ordered by the fitted order (rerank/copyorder.onnx, loaded in %.0f ms)", c.LoadMs), nil
}

// ortLibMakeOrt is where `make ort` puts the library, from the
// repository's root (where make runs the benches).
const ortLibMakeOrt = "third_party/onnxruntime/libonnxruntime.so.1"
