package symbols

import (
	"bytes"

	sitter "github.com/smacker/go-tree-sitter"
)

// minElided is the least a skip must save to be worth the ranges.
const minElided = 4 << 10

// goBodies returns the parts of a Go file to parse when the bodies of its
// top-level functions are skipped, or nil to parse it whole.
//
// Function bodies are most of a Go file's bytes and hold nothing the index
// keeps, and tree-sitter's cost is linear in what it reads, so skipping
// them is most of the indexer's speed. gofmt makes bodies easy to find: a
// top-level function starts at column 0 with "func " and, when its body
// spans lines, the signature line ends with "{" and the body ends at the
// next line that starts with "}" (gofmt indents everything between). The parser then sees "func f(...) {}" at
// the function's true position. Code that does not follow the layout (or
// a raw string holding such a line) leaves syntax errors, and the caller
// parses the whole file instead; a declaration at column 0 while a body is
// open means the same, and that function is kept whole.
func goBodies(src []byte) []sitter.Range {
	var (
		ranges  []sitter.Range
		from    uint32       // start of the span being kept
		fromPt  sitter.Point // its position
		elided  int
		row     uint32
		inBody  bool
		skipAt  uint32 // where the body's skipped part starts
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
		if inBody && (bytes.HasPrefix(line, []byte("func ")) || bytes.HasPrefix(line, []byte("type "))) {
			// A declaration where the body should still be running: the
			// layout is not gofmt's, so this function is parsed whole.
			inBody = false
		}
		switch {
		case !inBody && bytes.HasPrefix(line, []byte("func ")) && bytes.HasSuffix(line, []byte("{")):
			inBody = true
			skipAt = uint32(off + len(line))
			skipRow, skipCol = row, uint32(len(line))
		case inBody && len(line) > 0 && line[0] == '}':
			inBody = false
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
	if elided < minElided || inBody {
		return nil
	}
	return append(ranges, sitter.Range{
		StartPoint: fromPt, EndPoint: sitter.Point{Row: ^uint32(0), Column: ^uint32(0)},
		StartByte: from, EndByte: ^uint32(0),
	})
}
