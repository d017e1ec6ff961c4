package lsp

import "wayfind/wire"

// The LSP shapes the server writes that go.lsp.dev/protocol either lacks
// or types awkwardly (its URIs panic on non-file schemes, its omitempty
// drops a 0 percentage). Positions and ranges are wire's. Every response
// and server message is one of these, a protocol type or a wire type.

// initializeResult answers initialize.
type initializeResult struct {
	Capabilities serverCapabilities `json:"capabilities"`
	ServerInfo   serverInfo         `json:"serverInfo"`
}

type serverInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

type serverCapabilities struct {
	TextDocumentSync        textDocumentSync    `json:"textDocumentSync"`
	DocumentLinkProvider    documentLinkOptions `json:"documentLinkProvider"`
	DefinitionProvider      bool                `json:"definitionProvider"`
	WorkspaceSymbolProvider bool                `json:"workspaceSymbolProvider"`
	DocumentSymbolProvider  bool                `json:"documentSymbolProvider"`
	CodeActionProvider      *codeActionOptions  `json:"codeActionProvider,omitempty"`
	Workspace               workspaceCaps       `json:"workspace"`
	Experimental            experimentalCaps    `json:"experimental"`
}

type textDocumentSync struct {
	OpenClose bool        `json:"openClose"`
	Change    int         `json:"change"`
	Save      saveOptions `json:"save"`
}

type saveOptions struct {
	IncludeText bool `json:"includeText"`
}

type documentLinkOptions struct {
	ResolveProvider bool `json:"resolveProvider"`
}

type codeActionOptions struct {
	CodeActionKinds []string `json:"codeActionKinds"`
}

type workspaceCaps struct {
	WorkspaceFolders workspaceFoldersCaps `json:"workspaceFolders"`
}

type workspaceFoldersCaps struct {
	Supported           bool `json:"supported"`
	ChangeNotifications bool `json:"changeNotifications"`
}

// experimentalCaps lists the find/* methods, for clients that look.
type experimentalCaps struct {
	Find []string `json:"find"`
}

// documentLink is one textDocument/documentLink result.
type documentLink struct {
	Range   wire.Range `json:"range"`
	Target  string     `json:"target"`
	Tooltip string     `json:"tooltip"`
}

// location is textDocument/definition's result.
type location struct {
	URI   string     `json:"uri"`
	Range wire.Range `json:"range"`
}

// diagnostic is a broken path literal's warning; Data carries the fix
// for codeAction.
type diagnostic struct {
	Range    wire.Range     `json:"range"`
	Severity int            `json:"severity"`
	Source   string         `json:"source"`
	Code     string         `json:"code"`
	Message  string         `json:"message"`
	Data     diagnosticData `json:"data"`
}

type diagnosticData struct {
	Replacement string `json:"replacement"`
	URI         string `json:"uri"`
}

type publishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     *int32       `json:"version,omitempty"`
	Diagnostics []diagnostic `json:"diagnostics"`
}

// codeAction is a quick fix rewriting one literal.
type codeAction struct {
	Title       string        `json:"title"`
	Kind        string        `json:"kind"`
	IsPreferred bool          `json:"isPreferred"`
	Diagnostics []diagnostic  `json:"diagnostics"`
	Edit        workspaceEdit `json:"edit"`
}

type workspaceEdit struct {
	Changes map[string][]textEdit `json:"changes"`
}

type textEdit struct {
	Range   wire.Range `json:"range"`
	NewText string     `json:"newText"`
}

// progressParams is a $/progress notification; Percentage is written out
// even when 0.
type progressParams struct {
	Token string        `json:"token"`
	Value progressValue `json:"value"`
}

type progressValue struct {
	Kind        string `json:"kind"`
	Title       string `json:"title,omitempty"`
	Message     string `json:"message,omitempty"`
	Percentage  *int   `json:"percentage,omitempty"`
	Cancellable *bool  `json:"cancellable,omitempty"`
}

type workDoneProgressCreateParams struct {
	Token string `json:"token"`
}

type logMessageParams struct {
	Type    int    `json:"type"`
	Message string `json:"message"`
}

type registrationParams struct {
	Registrations []registration `json:"registrations"`
}

type registration struct {
	ID              string                 `json:"id"`
	Method          string                 `json:"method"`
	RegisterOptions watchedFilesRegOptions `json:"registerOptions"`
}

type watchedFilesRegOptions struct {
	Watchers []fileWatcher `json:"watchers"`
}

type fileWatcher struct {
	GlobPattern string `json:"globPattern"`
}
