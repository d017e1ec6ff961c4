package lsp

import (
	"context"
	"encoding/json"
	"os"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"wayfind/service"
	"wayfind/symbols"
	"wayfind/wire"
)

func (s *server) workspaceSymbol(ctx context.Context, raw json.RawMessage) (any, int, error) {
	var p struct {
		Query *string `json:"query"`
		Limit int     `json:"limit"` // an extension; LSP clients send none
	}
	if err := decode(raw, &p); err != nil {
		return nil, 0, err
	}
	if err := required(p.Query); err != nil {
		return nil, 0, err
	}
	return s.service().Symbols(ctx, service.SymbolParams{Query: *p.Query, Limit: p.Limit})
}

// documentSymbol parses the document as the editor has it (or, when it is
// not open, as it is on disk inside the roots): outlines must follow
// unsaved edits, and one file parses quickly.
func (s *server) documentSymbol(ctx context.Context, raw json.RawMessage) (any, int, error) {
	var p struct {
		TextDocument struct {
			URI protocol.DocumentURI `json:"uri"`
		} `json:"textDocument"`
	}
	if err := decode(raw, &p); err != nil {
		return nil, 0, err
	}
	file, ok := uriPath(string(p.TextDocument.URI))
	if !ok {
		return nil, 0, jsonrpc2.NewError(jsonrpc2.InvalidParams, "textDocument.uri is not a file URI")
	}
	s.mu.Lock()
	var text []byte
	if d := s.docs[p.TextDocument.URI]; d != nil {
		text = []byte(d.text)
	}
	hier := s.caps.hierSymbols
	maxBytes := s.init.MaxFileBytes
	s.mu.Unlock()
	if text == nil {
		eng, err := s.engine(ctx)
		if err != nil {
			return nil, 0, err
		}
		// Only an indexed file is read: inside the roots, not ignored, and
		// not a symlink leading out of them.
		ix := eng.Index()
		if !ix.Has(file) {
			return nil, 0, jsonrpc2.NewError(jsonrpc2.InvalidParams, "document is neither open nor a file of the workspace")
		}
		if text, err = os.ReadFile(file); err != nil {
			return nil, 0, jsonrpc2.NewError(jsonrpc2.InvalidParams, "cannot read document: "+err.Error())
		}
	}
	syms, err := symbols.ExtractSource(ctx, file, text, maxBytes)
	if err != nil && err != symbols.ErrTooLarge && err != symbols.ErrBinary {
		return nil, 0, err
	}
	if hier {
		out := wire.FromDocument(syms)
		if out == nil {
			out = []wire.DocumentSymbol{}
		}
		return out, len(syms), nil
	}
	uri := wire.FileURI(file)
	out := make([]wire.SymbolInformation, len(syms))
	for i, sym := range syms {
		out[i] = wire.SymbolInformation{Name: sym.Name, Kind: int(sym.Kind), ContainerName: sym.Container,
			Location: wire.Location{URI: uri, Range: wire.FromRange(sym.Range)}}
	}
	return out, len(syms), nil
}
