package symbols

import (
	"fmt"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// Capture names a query file may use. Every language's query follows one
// convention so that one extractor serves them all:
//
//	@definition.KIND  the whole definition (KIND: class struct interface
//	                  enum type function method constructor namespace
//	                  module trait object)
//	@name             its name
//	@declarator       a C/C++ declarator whose innermost identifier is the
//	                  name (pointer and reference declarators nest it)
//	@receiver         a type the definition belongs to without being inside
//	                  it (a Go method's receiver)
//	@scope            a block that encloses definitions without being one
//	                  (a Rust impl, a Swift extension), named by @scope.name
//	@package          the file's package or namespace, the outermost
//	                  container of everything in the file
type captureRole uint8

const (
	roleIgnored captureRole = iota
	roleDefinition
	roleName
	roleDeclarator
	roleReceiver
	roleScope
	roleScopeName
	rolePackage
)

var captureRoles = map[string]captureRole{
	"name": roleName, "declarator": roleDeclarator, "receiver": roleReceiver,
	"scope": roleScope, "scope.name": roleScopeName, "package": rolePackage,
}

var definitionKinds = map[string]Kind{
	"class": Class, "struct": Struct, "interface": Interface, "enum": Enum,
	"type": TypeAlias, "function": Function, "method": Method,
	"constructor": Constructor, "namespace": Namespace, "module": Module,
	"trait": Interface, "object": Class,
}

type compiledQuery struct {
	q    *sitter.Query
	role []captureRole // by capture id
	kind []Kind        // by capture id, for roleDefinition
}

func compileQuery(src []byte, lang *sitter.Language) (*compiledQuery, error) {
	q, err := sitter.NewQuery(src, lang)
	if err != nil {
		return nil, err
	}
	n := q.CaptureCount()
	cq := &compiledQuery{q: q, role: make([]captureRole, n), kind: make([]Kind, n)}
	for id := uint32(0); id < n; id++ {
		name := q.CaptureNameForId(id)
		role, named := captureRoles[name]
		switch {
		case named:
			cq.role[id] = role
		case strings.HasPrefix(name, "definition."):
			k, ok := definitionKinds[strings.TrimPrefix(name, "definition.")]
			if !ok {
				q.Close()
				return nil, fmt.Errorf("unknown definition kind @%s", name)
			}
			cq.role[id], cq.kind[id] = roleDefinition, k
		case strings.HasPrefix(name, "_"):
			// helper captures for predicates
		default:
			q.Close()
			return nil, fmt.Errorf("unknown capture @%s", name)
		}
	}
	return cq, nil
}
