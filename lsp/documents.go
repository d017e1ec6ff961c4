package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"wayfind/history"
	"wayfind/pathlit"
	"wayfind/service"
	"wayfind/wire"
)

// Documents larger than this are not scanned for path literals.
const maxDocument = 4 << 20

// diagnoseDelay lets a burst of keystrokes settle before a document is
// scanned again.
const diagnoseDelay = 150 * time.Millisecond

// document is an open text document, as the client last sent it.
type document struct {
	uri     protocol.DocumentURI
	path    string // local path, "" when the URI is not a file
	version int32
	text    string
	lines   []int // byte offset of each line's start

	refsVersion int32 // version refs was computed for; -1 none
	refs        []pathRef
	timer       *time.Timer
}

// pathRef is a path literal of a document and what it leads to.
type pathRef struct {
	lit     pathlit.Literal
	rng     wire.Range
	target  *wire.Candidate // the file it names or meant; nil when unsure
	broken  bool            // no such file, but target is what it meant
	newText string          // the literal rewritten to name target
}

func newDocument(uri protocol.DocumentURI, version int32, text string) *document {
	d := &document{uri: uri, version: version, refsVersion: -1}
	d.path, _ = uriPath(string(uri))
	d.setText(text)
	return d
}

func (d *document) setText(text string) {
	d.text = text
	d.lines = d.lines[:0]
	d.lines = append(d.lines, 0)
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			d.lines = append(d.lines, i+1)
		}
	}
}

// position converts a byte offset to an LSP position (UTF-16 columns).
func (d *document) position(off int) wire.Position {
	line := 0
	lo, hi := 0, len(d.lines)-1
	for lo <= hi {
		mid := (lo + hi) / 2
		if d.lines[mid] <= off {
			line, lo = mid, mid+1
		} else {
			hi = mid - 1
		}
	}
	col := 0
	for _, r := range d.text[d.lines[line]:off] {
		col++
		if r >= 0x10000 {
			col++
		}
	}
	return wire.Position{Line: line, Character: col}
}

// offset converts an LSP position to a byte offset, clamped to the text.
func (d *document) offset(p wire.Position) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(d.lines) {
		return len(d.text)
	}
	off := d.lines[p.Line]
	for col := 0; col < p.Character && off < len(d.text) && d.text[off] != '\n'; {
		r, size := utf8.DecodeRuneInString(d.text[off:])
		off += size
		col++
		if r >= 0x10000 {
			col++
		}
	}
	return off
}

type textDocumentItem struct {
	URI        protocol.DocumentURI `json:"uri"`
	LanguageID string               `json:"languageId"`
	Version    int32                `json:"version"`
	Text       string               `json:"text"`
}

type contentChange struct {
	Range *wire.Range `json:"range"`
	Text  string      `json:"text"`
}

func (s *server) documentNotification(ctx context.Context, method string, raw json.RawMessage) {
	var p struct {
		TextDocument   textDocumentItem `json:"textDocument"`
		ContentChanges []contentChange  `json:"contentChanges"`
	}
	if decode(raw, &p) != nil || p.TextDocument.URI == "" {
		return
	}
	uri := p.TextDocument.URI
	s.mu.Lock()
	defer s.mu.Unlock()
	switch method {
	case "textDocument/didOpen":
		d := newDocument(uri, p.TextDocument.Version, p.TextDocument.Text)
		s.docs[uri] = d
		if d.path != "" {
			s.sess.Visit(d.path, history.Open)
		}
		s.scheduleDiagnostics(d)
	case "textDocument/didChange":
		d := s.docs[uri]
		if d == nil {
			return
		}
		for _, c := range p.ContentChanges {
			if c.Range == nil {
				d.setText(c.Text)
				continue
			}
			start, end := d.offset(c.Range.Start), d.offset(c.Range.End)
			if end < start {
				start, end = end, start
			}
			d.setText(d.text[:start] + c.Text + d.text[end:])
		}
		d.version = p.TextDocument.Version
		s.scheduleDiagnostics(d)
		if d.path != "" {
			s.sess.UpdateContent(d.path, []byte(d.text))
		}
	case "textDocument/didSave":
		if d := s.docs[uri]; d != nil {
			s.scheduleDiagnostics(d)
			if d.path != "" {
				s.sess.Changed([]string{d.path}) // the disk has the text now
			}
		}
	case "textDocument/didClose":
		if d := s.docs[uri]; d != nil {
			if d.timer != nil {
				d.timer.Stop()
			}
			delete(s.docs, uri)
			if d.path != "" {
				s.sess.Changed([]string{d.path}) // unsaved edits are gone
			}
			if s.init.diagnostics() {
				go s.publish(uri, nil, nil)
			}
		}
	}
}

// scheduleDiagnostics (s.mu held) rescans d shortly.
func (s *server) scheduleDiagnostics(d *document) {
	if !s.init.diagnostics() {
		return
	}
	if d.timer != nil {
		d.timer.Stop()
	}
	uri := d.uri
	d.timer = time.AfterFunc(diagnoseDelay, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		refs, version, err := s.pathRefs(ctx, uri)
		if err != nil {
			return // closed, or no index yet: the next change tries again
		}
		var diags []diagnostic
		s.mu.Lock()
		d := s.docs[uri]
		s.mu.Unlock()
		if d == nil {
			return
		}
		for _, r := range refs {
			if r.broken {
				diags = append(diags, brokenPath(r))
			}
		}
		s.publish(uri, &version, diags)
	})
}

func brokenPath(r pathRef) diagnostic {
	return diagnostic{
		Range:    r.rng,
		Severity: int(protocol.DiagnosticSeverityWarning),
		Source:   "wayfind",
		Code:     "broken-path",
		Message:  fmt.Sprintf("no such file: %s; did you mean `%s`?", r.lit.Text, r.target.Path),
		Data:     diagnosticData{Replacement: r.newText, URI: r.target.URI},
	}
}

func (s *server) publish(uri protocol.DocumentURI, version *int32, diags []diagnostic) {
	if diags == nil {
		diags = []diagnostic{}
	}
	params := publishDiagnosticsParams{URI: string(uri), Version: version, Diagnostics: diags}
	_ = s.conn.Notify(context.Background(), "textDocument/publishDiagnostics", params)
}

// pathRefs returns the document's path literals, resolved, computing them
// once per version.
func (s *server) pathRefs(ctx context.Context, uri protocol.DocumentURI) ([]pathRef, int32, error) {
	s.mu.Lock()
	d := s.docs[uri]
	if d == nil {
		s.mu.Unlock()
		return nil, 0, errNotOpen
	}
	if d.refsVersion == d.version && d.refs != nil {
		refs, v := d.refs, d.version
		s.mu.Unlock()
		return refs, v, nil
	}
	// A snapshot of the text: the document may change while we resolve.
	snap := &document{uri: d.uri, path: d.path, version: d.version, text: d.text, lines: append([]int(nil), d.lines...)}
	s.mu.Unlock()

	svc := s.service()
	refs := []pathRef{}
	if len(snap.text) <= maxDocument {
		for _, lit := range pathlit.Find(snap.text) {
			r, ok, err := resolveLiteral(ctx, svc, snap, lit)
			if err != nil {
				return nil, 0, err
			}
			if ok {
				refs = append(refs, r)
			}
		}
	}
	s.mu.Lock()
	if cur := s.docs[uri]; cur != nil && cur.version == snap.version {
		cur.refs, cur.refsVersion = refs, snap.version
	}
	s.mu.Unlock()
	return refs, snap.version, nil
}

var errNotOpen = fmt.Errorf("document is not open")

// resolveLiteral turns the request layer's judgement of one literal into
// what the LSP shows: a link, or a warning with a fix.
func resolveLiteral(ctx context.Context, svc *service.Service, d *document, lit pathlit.Literal) (pathRef, bool, error) {
	ref, roots, ok, err := svc.Literal(ctx, d.path, lit)
	if err != nil || !ok {
		return pathRef{}, false, err
	}
	out := wire.FromResolve(roots, ref.Result)
	target := out.Resolved
	for i := range out.Candidates {
		if c := &out.Candidates[i]; target == nil && c.Path == ref.Target.Path && c.URI == wire.URI(roots, ref.Target.Root, ref.Target.Path) {
			target = c
		}
	}
	if target == nil {
		return pathRef{}, false, nil
	}
	return pathRef{lit: lit, target: target, rng: wire.Range{Start: d.position(lit.Start), End: d.position(lit.End)},
		broken: ref.Broken, newText: ref.Fix}, true, nil
}

type textDocumentParams struct {
	TextDocument struct {
		URI protocol.DocumentURI `json:"uri"`
	} `json:"textDocument"`
	Position wire.Position `json:"position"`
	Range    wire.Range    `json:"range"`
}

func (s *server) documentLink(ctx context.Context, raw json.RawMessage) (any, int, error) {
	var p textDocumentParams
	if err := decode(raw, &p); err != nil {
		return nil, 0, err
	}
	refs, _, err := s.pathRefs(ctx, p.TextDocument.URI)
	if err == errNotOpen {
		return []any{}, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	links := []documentLink{}
	for _, r := range refs {
		tip := r.target.Path
		if r.broken {
			tip = "no such file; opens " + r.target.Path
		}
		links = append(links, documentLink{Range: r.rng, Target: r.target.URI, Tooltip: tip})
	}
	return links, len(links), nil
}

func (s *server) definition(ctx context.Context, raw json.RawMessage) (any, int, error) {
	var p textDocumentParams
	if err := decode(raw, &p); err != nil {
		return nil, 0, err
	}
	refs, _, err := s.pathRefs(ctx, p.TextDocument.URI)
	if err == errNotOpen {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	for _, r := range refs {
		if contains(r.rng, p.Position) {
			rng := wire.Range{}
			if r.target.Range != nil {
				rng = *r.target.Range
			}
			return location{URI: r.target.URI, Range: rng}, 1, nil
		}
	}
	return nil, 0, nil
}

func (s *server) codeAction(ctx context.Context, raw json.RawMessage) (any, int, error) {
	var p textDocumentParams
	if err := decode(raw, &p); err != nil {
		return nil, 0, err
	}
	actions := []codeAction{}
	s.mu.Lock()
	enabled := s.init.diagnostics()
	s.mu.Unlock()
	if !enabled {
		return actions, 0, nil
	}
	refs, _, err := s.pathRefs(ctx, p.TextDocument.URI)
	if err == errNotOpen {
		return actions, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	for _, r := range refs {
		if !r.broken || !overlaps(r.rng, p.Range) {
			continue
		}
		actions = append(actions, codeAction{
			Title:       fmt.Sprintf("Change to %s", r.newText),
			Kind:        "quickfix",
			IsPreferred: true,
			Diagnostics: []diagnostic{brokenPath(r)},
			Edit: workspaceEdit{Changes: map[string][]textEdit{
				string(p.TextDocument.URI): {{Range: r.rng, NewText: r.newText}},
			}},
		})
	}
	return actions, len(actions), nil
}

func before(a, b wire.Position) bool {
	return a.Line < b.Line || (a.Line == b.Line && a.Character < b.Character)
}

func contains(r wire.Range, p wire.Position) bool {
	return !before(p, r.Start) && !before(r.End, p)
}

func overlaps(a, b wire.Range) bool {
	return !before(a.End, b.Start) && !before(b.End, a.Start)
}
