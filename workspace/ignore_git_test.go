package workspace

import (
	"bytes"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	gogit "github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// The oracle for ignore rules is git itself: random trees with random
// .gitignore files at several levels, every file checked with
// `git check-ignore --no-index`, and our walk must index exactly the files
// git does not ignore. go-git's matcher runs over the same cases so the
// reason for owning a matcher stays measured (it is logged, not asserted).

var (
	genDirs  = []string{"a", "b", "gen", "build", "src", "x y", "Keep", "deep"}
	genFiles = []string{"a.go", "b.txt", "keep.go", "x.log", "README", "c.tmp", "#h", "!bang", "sp ace", "t1.txt", "T2.TXT", "[x]"}
	genPats  = []string{
		"*.go", "*.txt", "*.log", "/a", "a/", "a", "gen/", "/gen", "**/gen/**", "**/gen", "gen/**",
		"!keep.go", "!a/b/gen/keep.go", "!*.go", "a/**/b", "a/**/keep.go", "**/b/*.txt", "src/*", "src/*/",
		"*", "!*/", "[ab]*", "[!a]*.go", "*.t?t", "t[0-9].txt", "T[[:digit:]].TXT", "\\#h", "\\!bang",
		"sp\\ ace", "x\\ y/", "build", "/build/", "deep/**/x.log", "!deep/", "**", "b/**/", "README ",
		"# comment", "", "Keep/*", "!Keep/a.go", "*/a.go", "/*/*.tmp", "**/*.tmp", "a/b", "!a/b/", "\\[x\\]",
	}
)

func TestIgnoreMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is required for the ignore-rule oracle")
	}
	rng := rand.New(rand.NewSource(7))
	const trees = 150
	var files, oursWrong, gogitWrong int
	for n := 0; n < trees; n++ {
		dir := t.TempDir()
		git(t, dir, "init", "-q")
		paths := genTree(rng, dir)
		ignoreFiles := map[string][]string{} // base dir → lines
		for _, base := range append([]string{""}, dirsOf(paths)...) {
			if rng.Intn(3) == 0 && base != "" {
				continue
			}
			var lines []string
			for k := rng.Intn(5) + 1; k > 0; k-- {
				lines = append(lines, genPats[rng.Intn(len(genPats))])
			}
			ignoreFiles[base] = lines
			write(t, filepath.Join(dir, base, ".gitignore"), strings.Join(lines, "\n")+"\n")
			paths = append(paths, join(base, ".gitignore"))
		}
		if rng.Intn(4) == 0 {
			line := genPats[rng.Intn(len(genPats))]
			write(t, filepath.Join(dir, ".git", "info", "exclude"), line+"\n")
			ignoreFiles["\x00exclude"] = []string{line}
		}
		sort.Strings(paths)

		ignoredByGit := checkIgnore(t, dir, paths)
		root, _ := CleanRoots([]string{dir})
		ours := map[string]bool{}
		for _, f := range Build(root, Options{}).Files() {
			ours[f.Path] = true
		}
		gg := goGitMatcher(ignoreFiles)
		for _, p := range paths {
			files++
			want := !ignoredByGit[p]
			if ours[p] != want {
				oursWrong++
				if oursWrong <= 10 {
					t.Errorf("tree %d: %s: indexed=%v, git says indexed=%v; ignore files: %q", n, p, ours[p], want, ignoreFiles)
				}
			}
			if goGitIndexed(gg, p) != want {
				gogitWrong++
			}
		}
	}
	t.Logf("%d trees, %d files: wayfind disagrees with git on %d, go-git's matcher on %d", trees, files, oursWrong, gogitWrong)
}

func genTree(rng *rand.Rand, dir string) []string {
	var paths []string
	seen := map[string]bool{}
	for i := rng.Intn(25) + 5; i > 0; i-- {
		var parts []string
		for d := rng.Intn(4); d > 0; d-- {
			parts = append(parts, genDirs[rng.Intn(len(genDirs))])
		}
		parts = append(parts, genFiles[rng.Intn(len(genFiles))])
		p := strings.Join(parts, "/")
		if seen[p] || clashes(seen, p) {
			continue
		}
		seen[p] = true
		paths = append(paths, p)
		os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
		os.WriteFile(filepath.Join(dir, p), nil, 0o644)
	}
	return paths
}

// clashes reports a path that would need a file and a directory of one name.
func clashes(seen map[string]bool, p string) bool {
	for q := range seen {
		if strings.HasPrefix(q, p+"/") || strings.HasPrefix(p, q+"/") {
			return true
		}
	}
	return false
}

func dirsOf(paths []string) []string {
	set := map[string]bool{}
	for _, p := range paths {
		for d := filepath.Dir(p); d != "."; d = filepath.Dir(d) {
			set[filepath.ToSlash(d)] = true
		}
	}
	var out []string
	for d := range set {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

func join(base, name string) string {
	if base == "" {
		return name
	}
	return base + "/" + name
}

func checkIgnore(t *testing.T, dir string, paths []string) map[string]bool {
	cmd := exec.Command("git", "check-ignore", "--no-index", "-z", "--stdin")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\x00") + "\x00")
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 { // 1: nothing ignored
			t.Fatalf("git check-ignore: %v", err)
		}
	}
	res := map[string]bool{}
	for _, p := range strings.Split(out.String(), "\x00") {
		if p != "" {
			res[p] = true
		}
	}
	return res
}

func git(t *testing.T, dir string, args ...string) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func goGitMatcher(files map[string][]string) gogit.Matcher {
	var ps []gogit.Pattern
	bases := make([]string, 0, len(files))
	for b := range files {
		bases = append(bases, b)
	}
	sort.Strings(bases) // "\x00exclude" first, then root, then deeper: increasing priority
	for _, b := range bases {
		var domain []string
		if b != "" && b != "\x00exclude" {
			domain = strings.Split(b, "/")
		}
		for _, l := range files[b] {
			if l == "" || strings.HasPrefix(l, "#") {
				continue
			}
			ps = append(ps, gogit.ParsePattern(l, domain))
		}
	}
	return gogit.NewMatcher(ps)
}

// goGitIndexed walks p's directories with pruning, as a go-git user would.
func goGitIndexed(m gogit.Matcher, p string) bool {
	parts := strings.Split(p, "/")
	for i := 1; i < len(parts); i++ {
		if m.Match(parts[:i], true) {
			return false
		}
	}
	return !m.Match(parts, false)
}

func TestIgnoreGitExamples(t *testing.T) {
	cases := []struct {
		name    string
		ignores map[string]string // dir → .gitignore text
		files   []string
		want    []string // indexed
	}{
		{"negation", map[string]string{"": "*.log\n!keep.log\n"},
			[]string{"a.log", "keep.log", "b.txt"}, []string{".gitignore", "b.txt", "keep.log"}},
		{"anchored", map[string]string{"": "/models/*\n"},
			[]string{"models/a.bin", "src/models/b.go"}, []string{".gitignore", "src/models/b.go"}},
		{"dir only", map[string]string{"": "build/\n"},
			[]string{"build/x.o", "src/build", "a/build/y"}, []string{".gitignore", "src/build"}},
		{"double star", map[string]string{"": "**/gen/**\n!a/b/gen/keep.go\n"},
			[]string{"a/b/gen/keep.go", "a/b/gen/x.go", "c/gen/y.go", "gen.go"}, []string{".gitignore", "a/b/gen/keep.go", "gen.go"}},
		{"excluded parent cannot be re-included", map[string]string{"": "a/\n!a/keep.go\n"},
			[]string{"a/keep.go", "b.go"}, []string{".gitignore", "b.go"}},
		{"nested file wins", map[string]string{"": "*.txt\n", "sub": "!*.txt\n"},
			[]string{"a.txt", "sub/b.txt"}, []string{".gitignore", "sub/.gitignore", "sub/b.txt"}},
		{"nested is relative", map[string]string{"sub": "/x.go\n"},
			[]string{"x.go", "sub/x.go", "sub/d/x.go"}, []string{"sub/.gitignore", "sub/d/x.go", "x.go"}},
		{"always skipped", map[string]string{},
			[]string{"node_modules/p/index.js", "src/a.js"}, []string{"src/a.js"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for d, text := range c.ignores {
				write(t, filepath.Join(dir, d, ".gitignore"), text)
			}
			for _, f := range c.files {
				write(t, filepath.Join(dir, f), "")
			}
			root, _ := CleanRoots([]string{dir})
			var got []string
			for _, f := range Build(root, Options{}).Files() {
				got = append(got, f.Path)
			}
			if strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("indexed %v, want %v", got, c.want)
			}
		})
	}
}
