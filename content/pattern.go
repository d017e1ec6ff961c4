package content

import "bytes"

// pattern is what verify looks for, without regular expressions (a
// megabyte-sized file is read at memory speed, not a regexp engine's):
// parts, lower-case, that follow each other joined by nothing or — when
// seps is set — by one of space, underscore or hyphen. Case is folded for
// ASCII letters, against the chunk lowered once (lowerASCII); other
// letters match as written.
type pattern struct {
	parts [][]byte
	seps  bool
}

// findAll returns the non-overlapping matches of p in low (a chunk
// lowered by lowerASCII), leftmost first, at most n.
func (p *pattern) findAll(low []byte, n int) [][2]int {
	var out [][2]int
	first := p.parts[0]
	for i := 0; len(out) < n && i <= len(low); {
		j := bytes.Index(low[i:], first)
		if j < 0 {
			break
		}
		start := i + j
		if end, ok := p.rest(low, start+len(first), 1); ok {
			out = append(out, [2]int{start, end})
			i = max(end, start+1)
		} else {
			i = start + 1
		}
	}
	return out
}

// rest matches parts[k:] at low[at:].
func (p *pattern) rest(low []byte, at, k int) (int, bool) {
	if k == len(p.parts) {
		return at, true
	}
	w := p.parts[k]
	if bytes.HasPrefix(low[at:], w) {
		if end, ok := p.rest(low, at+len(w), k+1); ok {
			return end, true
		}
	}
	if p.seps && at < len(low) && (low[at] == ' ' || low[at] == '_' || low[at] == '-') && bytes.HasPrefix(low[at+1:], w) {
		return p.rest(low, at+1+len(w), k+1)
	}
	return 0, false
}

// lowerASCII writes src with ASCII letters lowered into dst (reused), byte
// for byte, so that offsets in one are offsets in the other.
func lowerASCII(dst, src []byte) []byte {
	dst = append(dst[:0], src...)
	for i, c := range dst {
		if c >= 'A' && c <= 'Z' {
			dst[i] = c + 'a' - 'A'
		}
	}
	return dst
}
