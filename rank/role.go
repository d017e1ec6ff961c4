package rank

import "strings"

// What a file is for, read from its path alone: the one rule find, locate,
// symbols and the affinity share for "a test", "a fixture", "generated"
// and "vendored" (role_test.go runs testdata/rank/roles.txt through it).
//
// Tests and fixtures are what a user rarely means by a name that also
// names source ("server" is lsp/server.go, not lsp/server_test.go);
// generated files are not where code is written; vendored ones are other
// projects' code copied in.
type fileRole uint8

const (
	roleSource fileRole = iota
	roleTest
	roleFixture
	roleGenerated
	roleVendored
)

var roleNames = [...]string{"source", "test", "fixture", "generated", "vendored"}

func (r fileRole) String() string { return roleNames[r] }

// The directories and name parts that give a file its role. Directory
// names and stems are compared in lower case; camelTestSuffixes in the
// case written, since "FooTest" is a test and "contest", "shortest" and
// "latest" are not.
var (
	roleDirs = map[string]fileRole{
		"test": roleTest, "tests": roleTest, "__tests__": roleTest, "spec": roleTest, "specs": roleTest, "testdata": roleFixture,
		"fixture": roleFixture, "fixtures": roleFixture, "__fixtures__": roleFixture, "__mocks__": roleFixture, "__snapshots__": roleFixture,
		"vendor": roleVendored, "third_party": roleVendored, "third-party": roleVendored, "node_modules": roleVendored, "external": roleVendored,
	}
	roleStemSuffixes = []struct {
		suffix string
		role   fileRole
	}{
		{"_test", roleTest}, {"-test", roleTest}, {".test", roleTest}, {"_spec", roleTest}, {"-spec", roleTest}, {".spec", roleTest},
		{"_fixture", roleFixture}, {"-fixture", roleFixture},
		{".pb", roleGenerated}, {"_generated", roleGenerated}, {".generated", roleGenerated}, {".g", roleGenerated},
	}
	camelTestSuffixes = []string{"Test", "Tests"}
)

// roleOf is the role of a root-relative, '/'-separated path: the innermost
// directory of tests or fixtures, else the name's role, else vendored if
// a directory says so (a vendored project's tests are tests).
func roleOf(rel string) fileRole {
	slash := strings.LastIndexByte(rel, '/')
	base := rel[slash+1:]
	vendored := false
	// The directories innermost first, read in place (New asks this of
	// every file: split, they were a sizeable share of it).
	for dirs := rel[:max(slash, 0)]; dirs != ""; {
		i := strings.LastIndexByte(dirs, '/')
		switch r := roleDirs[strings.ToLower(dirs[i+1:])]; r {
		case roleTest, roleFixture:
			return r
		case roleVendored:
			vendored = true
		}
		dirs = dirs[:max(i, 0)]
	}
	if r := nameRole(base); r != roleSource {
		return r
	}
	if vendored {
		return roleVendored
	}
	return roleSource
}

// nameRole is the role a file's name gives it.
func nameRole(base string) fileRole {
	stem, _ := splitExt(base)
	ls := strings.ToLower(stem)
	for _, s := range roleStemSuffixes {
		if strings.HasSuffix(ls, s.suffix) {
			return s.role
		}
	}
	if strings.HasPrefix(ls, "test_") {
		return roleTest
	}
	for _, s := range camelTestSuffixes {
		if strings.HasSuffix(stem, s) {
			return roleTest
		}
	}
	if strings.Contains(stem, "FIXTURE") {
		return roleFixture
	}
	return roleSource
}

// isAuxiliary: a test, fixture or generated file — never outranking the
// source beside it.
func isAuxiliary(rel string) bool {
	r := roleOf(rel)
	return r == roleTest || r == roleFixture || r == roleGenerated
}

// IsAuxiliary is isAuxiliary for a root-relative path, for those who
// weigh files as the engine does (the bench's fitted orders).
func IsAuxiliary(rel string) bool { return isAuxiliary(rel) }

// isTestPath: a test or fixture — where code is exercised, not written.
func isTestPath(rel string) bool {
	r := roleOf(rel)
	return r == roleTest || r == roleFixture
}
