package symbols

import (
	"bytes"

	sitter "github.com/smacker/go-tree-sitter"
)

// minElided is the least a skip must save to be worth the ranges.
const minElided = 256

// goBodies returns the parts of a Go file to parse when the insides of
// its top-level blocks that hold nothing the index keeps are skipped, or
// nil to parse it whole.
//
// Function bodies, struct bodies and var/const initialisers (tables) are
// most of a Go file's bytes and hold no definition worth indexing, and
// tree-sitter's cost is linear in what it reads, so skipping them is most
// of the indexer's speed. gofmt makes them easy to find: such a block
// starts at column 0 with "func ", "var ", "const " or "type X struct"
// on a line ending with its opening "{" or "(", everything inside is
// indented, and it ends at the next line that starts with the closing
// "}" or ")". The parser then sees "func f(...) {}" at the function's
// true position. Code that does not follow the layout (or a raw string
// holding such a line) leaves syntax errors, and the caller parses the
// whole file instead; a declaration at column 0 while a block is open
// means the same, and that block is kept whole. Interface bodies are kept:
// their methods are indexed.
func goBodies(src []byte) []sitter.Range {
	var (
		ranges  []sitter.Range
		from    uint32       // start of the span being kept
		fromPt  sitter.Point // its position
		elided  int
		row     uint32
		closer  byte // the open block's closing byte; 0 when none is open
		skipAt  uint32
		skipRow uint32
		skipCol uint32
	)
	for off := 0; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		next := len(src)
		if end >= 0 {
			end += off
			next = end + 1
		} else {
			end = len(src)
		}
		line := bytes.TrimRight(src[off:end], " \t\r")
		if closer != 0 && declStart(line) {
			closer = 0 // not gofmt's layout: keep this block whole
		}
		switch {
		case closer == 0:
			if c := opens(line); c != 0 {
				closer = c
				skipAt = uint32(off + len(line))
				skipRow, skipCol = row, uint32(len(line))
			}
		case len(line) > 0 && line[0] == closer:
			closer = 0
			if uint32(off)-skipAt > 64 {
				ranges = append(ranges, sitter.Range{
					StartPoint: fromPt, EndPoint: sitter.Point{Row: skipRow, Column: skipCol},
					StartByte: from, EndByte: skipAt,
				})
				elided += off - int(skipAt)
				from, fromPt = uint32(off), sitter.Point{Row: row}
			}
		}
		off = next
		row++
	}
	if elided < minElided || closer != 0 {
		return nil
	}
	return append(ranges, sitter.Range{
		StartPoint: fromPt, EndPoint: sitter.Point{Row: ^uint32(0), Column: ^uint32(0)},
		StartByte: from, EndByte: ^uint32(0),
	})
}

// opens returns the byte that closes the skippable block line opens, or 0.
func opens(line []byte) byte {
	if len(line) == 0 {
		return 0
	}
	last := line[len(line)-1]
	switch {
	case last == '{' && bytes.HasPrefix(line, []byte("func ")):
		return '}'
	case last == '{' && bytes.HasPrefix(line, []byte("type ")) && bytes.HasSuffix(line, []byte(" struct {")):
		return '}'
	case bytes.HasPrefix(line, []byte("var ")) || bytes.HasPrefix(line, []byte("const ")):
		if last == '{' {
			return '}'
		}
		if last == '(' {
			return ')'
		}
	}
	return 0
}

func declStart(line []byte) bool {
	for _, kw := range [...]string{"func ", "type ", "var ", "const ", "import "} {
		if bytes.HasPrefix(line, []byte(kw)) {
			return true
		}
	}
	return false
}
