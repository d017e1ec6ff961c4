// Package symbols extracts definitions (classes, structs, interfaces, enums,
// types, functions, methods) from source files with tree-sitter, and keeps
// them per file in an on-disk cache so a warm start parses only what changed.
//
// It never ranks: rank/ searches the symbols this package produces.
package symbols

import (
	"strings"

	"wayfind/ident"
)

// Kind is an LSP SymbolKind, so front ends pass it through unchanged.
type Kind uint8

// The LSP SymbolKind values wayfind produces.
const (
	Module      Kind = 2
	Namespace   Kind = 3
	Package     Kind = 4
	Class       Kind = 5
	Method      Kind = 6
	Property    Kind = 7
	Field       Kind = 8
	Constructor Kind = 9
	Enum        Kind = 10
	Interface   Kind = 11
	Function    Kind = 12
	Constant    Kind = 14
	EnumMember  Kind = 22
	Struct      Kind = 23
	TypeAlias   Kind = 26 // LSP TypeParameter: the closest kind LSP has for an alias or typedef (as rust-analyzer does)
)

var kindNames = map[Kind]string{
	Module: "module", Namespace: "namespace", Package: "package", Class: "class",
	Method: "method", Property: "property", Field: "field", Constructor: "constructor",
	Enum: "enum", Interface: "interface", Function: "function", Constant: "constant",
	EnumMember: "enummember", Struct: "struct", TypeAlias: "type",
}

func (k Kind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return "unknown"
}

// IsMember reports whether k is something that lives inside a type (a
// method or constructor) rather than a definition of its own; searches list
// definitions first.
func (k Kind) IsMember() bool {
	return k == Method || k == Constructor || k == Property || k == Field || k == EnumMember
}

// IsType reports whether k names a type: what a file is most often named
// after, and so what the ranking engine treats as a file's strongest symbol.
func (k Kind) IsType() bool {
	switch k {
	case Class, Struct, Interface, Enum, TypeAlias:
		return true
	}
	return false
}

// Position is a zero-based line and a column in UTF-16 code units, the
// unit LSP positions use.
type Position struct {
	Line, Col uint32
}

// Range is a half-open span of a file.
type Range struct {
	Start, End Position
}

// Symbol is one definition in a file.
type Symbol struct {
	Name string
	Kind Kind
	// Container is the dotted chain of what encloses the definition,
	// outermost first: the package or namespace, then classes, impl blocks
	// or receivers ("http.Server" for Server.Serve in package http).
	Container string
	Range     Range // the whole definition
	Select    Range // the name
}

// NameKey is the form a symbol is filed under, in the cache's name
// buckets and the engine's index alike: its name squashed (ident.Squash:
// "ServeMux", "serve_mux" → "servemux"), or the name itself when nothing
// is left of it.
func (s *Symbol) NameKey() string {
	if k := ident.Squash(s.Name); k != "" {
		return k
	}
	return s.Name
}

// ContainerKey is, for a member (a method, a field), the squashed name of
// the type it belongs to — the innermost container — and "" for anything
// else: where a type's methods are implemented is found by it.
func (s *Symbol) ContainerKey() string {
	if !s.Kind.IsMember() || s.Container == "" {
		return ""
	}
	return ident.Squash(s.Container[strings.LastIndexByte(s.Container, '.')+1:])
}

// Qualified is the container chain and the name joined with dots.
func (s *Symbol) Qualified() string {
	if s.Container == "" {
		return s.Name
	}
	return s.Container + "." + s.Name
}
