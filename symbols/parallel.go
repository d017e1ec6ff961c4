package symbols

import (
	"context"
	"fmt"
	"os"

	"wayfind/pool"
)

// Parsed is the outcome of extracting one file.
type Parsed struct {
	Symbols []Symbol
	Size    int64
	ModTime int64 // UnixNano
	Err     error // ErrTooLarge and ErrBinary included
}

// ExtractOptions tune ExtractFiles.
type ExtractOptions struct {
	Workers  int // 0: one per core
	MaxBytes int // 0: DefaultMaxBytes
	// Pace, when set, is called before each file: a server uses it to let
	// requests run first.
	Pace func()
}

// ExtractFiles extracts the files (absolute paths) on opt.Workers
// goroutines, each with its own Extractor, and hands each outcome to each,
// which is called from one goroutine at a time, in no set order. Files of
// no supported language are passed over without a call.
func ExtractFiles(ctx context.Context, files []string, opt ExtractOptions, each func(i int, p Parsed)) {
	defer releaseParserMemory() // the parsers are closed by then
	pool.Map(ctx, len(files), opt.Workers,
		func() (*Extractor, func()) {
			x := NewExtractor()
			x.MaxBytes = opt.MaxBytes
			return x, x.Close
		},
		func(i int) bool { return LanguageOf(files[i]) == nil },
		func(x *Extractor, i int) Parsed {
			if opt.Pace != nil {
				opt.Pace()
			}
			return x.extractFile(ctx, files[i])
		},
		each)
}

// extractFile reads and extracts one file. The size check comes before the
// read so a huge file costs a stat, not its bytes.
func (x *Extractor) extractFile(ctx context.Context, file string) Parsed {
	lang := LanguageOf(file)
	st, err := os.Stat(file)
	if err != nil {
		return Parsed{Err: err}
	}
	p := Parsed{Size: st.Size(), ModTime: st.ModTime().UnixNano()}
	if !st.Mode().IsRegular() {
		p.Err = fmt.Errorf("not a regular file")
		return p
	}
	max := x.MaxBytes
	if max <= 0 {
		max = DefaultMaxBytes
	}
	if st.Size() > int64(max) {
		p.Err = ErrTooLarge
		return p
	}
	src, err := os.ReadFile(file)
	if err != nil {
		p.Err = err
		return p
	}
	p.Symbols, p.Err = x.Extract(ctx, lang, src)
	return p
}

// ExtractSource extracts one file's symbols from src (an editor's text or
// a file read for one request), with an extractor of its own.
func ExtractSource(ctx context.Context, file string, src []byte, maxBytes int) ([]Symbol, error) {
	lang := LanguageOf(file)
	if lang == nil {
		return nil, nil
	}
	x := NewExtractor()
	defer x.Close()
	x.MaxBytes = maxBytes
	return x.Extract(ctx, lang, src)
}
