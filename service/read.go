package service

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"wayfind/history"
	"wayfind/wire"
	"wayfind/workspace"
)

// What Read returns at most: 64 KiB unless asked, never more than 4 MiB.
const (
	DefaultReadBytes = 64 << 10
	MaxReadBytes     = 4 << 20
)

// ReadParams is read_resolved's input.
type ReadParams struct {
	Path     string
	From     string
	MaxBytes int // 0: DefaultReadBytes; capped at MaxReadBytes
}

func unreadable(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnreadable, fmt.Sprintf(format, args...))
}

// Read resolves p.Path and returns the text of the file it names. Only a
// file of the index is ever read: inside the roots, not ignored, not a
// symlink leading out; never a binary file. What is read is recorded as
// visited.
func (s *Service) Read(ctx context.Context, p ReadParams) (*wire.Read, error) {
	if strings.TrimSpace(p.Path) == "" {
		return nil, invalid("path is required")
	}
	limit := p.MaxBytes
	switch {
	case limit < 0:
		return nil, invalid("maxBytes must not be negative")
	case limit == 0:
		limit = DefaultReadBytes
	case limit > MaxReadBytes:
		limit = MaxReadBytes
	}
	eng, res, err := s.resolve(ctx, &ResolveParams{Path: p.Path, From: p.From, Limit: 3})
	if err != nil {
		return nil, err
	}
	if g := res.Gone; g != nil && res.Resolved == nil {
		return nil, unreadable("%s was %s", g.Path, HistoryLine("deleted", wire.HistoryNoteOf(g.Path, g.Fate)))
	}
	if res.Resolved == nil {
		var cands []string
		for _, c := range res.Candidates {
			cands = append(cands, c.Path)
		}
		if len(cands) == 0 {
			return nil, unreadable("no file in the workspace matches %q", p.Path)
		}
		return nil, unreadable("no file clearly matches %q; candidates: %s", p.Path, strings.Join(cands, ", "))
	}
	ix := eng.Index()
	c := res.Resolved
	abs := filepath.Join(ix.Roots[c.Root], filepath.FromSlash(c.Path))
	if !ix.Contains(c.Root, c.Path) {
		return nil, unreadable("%s is not a file of the workspace", c.Path)
	}
	f, size, err := openInside(ix.Roots, c.Root, c.Path)
	if err != nil {
		return nil, unreadable("%v", err)
	}
	defer f.Close()
	buf := make([]byte, limit+1)
	n, err := io.ReadFull(f, buf)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, unreadable("%s: %v", c.Path, err)
	}
	data := buf[:n]
	truncated := n > limit
	if truncated {
		data = data[:limit]
		for len(data) > 0 && !utf8.Valid(data[max(0, len(data)-4):]) {
			data = data[:len(data)-1]
		}
	}
	if workspace.IsBinary(data) {
		return nil, unreadable("%s is a binary file", c.Path)
	}
	s.ws.Visit(abs, history.Agent)
	return &wire.Read{Path: c.Path, URI: wire.FileURI(abs), Requested: p.Path, Exact: res.Exact, Reasons: c.Reasons,
		Size: size, Truncated: truncated, Text: string(data)}, nil
}
