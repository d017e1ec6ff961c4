// This go.mod only keeps `go test ./...` and `go vet ./...` of the wayfind
// module out of this directory: node_modules ships Go files of its own.
module wayfind/vscode-client

go 1.26
