package symbols

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// TestAgainstCtags measures extraction against universal-ctags, the
// outside reference, on the Go and Python standard libraries of this
// machine: of the function, type, class and method definitions ctags finds,
// wayfind must find at least 97% (same name, same file, line within one).
func TestAgainstCtags(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the ctags comparison parses two standard libraries")
	}
	if _, err := exec.LookPath("ctags"); err != nil {
		t.Fatal("universal-ctags is needed (make deps installs it): ", err)
	}
	pyLib, err := exec.Command("python3", "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output()
	if err != nil {
		t.Fatal("python3 is needed to find the Python standard library: ", err)
	}
	cases := []struct {
		lang, ctagsLang, root string
		kinds                 []string
	}{
		{"go", "Go", filepath.Join(runtime.GOROOT(), "src"), []string{"func", "type", "struct", "interface", "talias", "methodSpec"}},
		{"python", "Python", strings.TrimSpace(string(pyLib)), []string{"class", "function", "member"}},
	}
	for _, c := range cases {
		t.Run(c.lang, func(t *testing.T) {
			r := compareWithCtags(t, c.ctagsLang, c.root, c.kinds)
			t.Logf("%s (%s): ctags %d definitions, wayfind found %d of them (%.2f%%); wayfind total %d symbols in %d files",
				c.lang, c.root, r.ctags, r.found, r.recall(), r.ours, r.files)
			for _, k := range c.kinds {
				t.Logf("  %-11s ctags %6d  found %6d", k, r.byKind[k][0], r.byKind[k][1])
			}
			for _, m := range r.missedSample {
				t.Logf("  missed: %s", m)
			}
			if r.recall() < 97 {
				t.Errorf("%s: recall %.2f%% < 97%%", c.lang, r.recall())
			}
		})
	}
}

type ctagsComparison struct {
	ctags, found, ours, files int
	byKind                    map[string]*[2]int
	missedSample              []string
}

func (r ctagsComparison) recall() float64 {
	if r.ctags == 0 {
		return 0
	}
	return 100 * float64(r.found) / float64(r.ctags)
}

func compareWithCtags(t *testing.T, ctagsLang, root string, kinds []string) ctagsComparison {
	out, err := exec.Command("ctags", "-R", "--languages="+ctagsLang, "--fields=+nK", "--extras=-F", "-f", "-", root).Output()
	if err != nil {
		t.Fatalf("ctags: %v", err)
	}
	want := map[string]bool{}
	for _, k := range kinds {
		want[k] = true
	}
	type def struct {
		name, kind string
		line       int
	}
	ctagsDefs := map[string][]def{} // file → definitions
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 4 || strings.HasPrefix(f[0], "!_") {
			continue
		}
		var kind string
		line := -1
		for _, x := range f[3:] {
			if n, ok := strings.CutPrefix(x, "line:"); ok {
				line, _ = strconv.Atoi(n)
			} else if !strings.Contains(x, ":") {
				kind = x
			}
		}
		if want[kind] && line > 0 {
			ctagsDefs[f[1]] = append(ctagsDefs[f[1]], def{f[0], kind, line})
		}
	}
	if len(ctagsDefs) == 0 {
		t.Fatalf("ctags found no definitions under %s", root)
	}
	files := make([]string, 0, len(ctagsDefs))
	for f := range ctagsDefs {
		files = append(files, f)
	}
	sort.Strings(files)
	r := ctagsComparison{byKind: map[string]*[2]int{}, files: len(files)}
	for _, k := range kinds {
		r.byKind[k] = &[2]int{}
	}
	ExtractFiles(context.Background(), files, ExtractOptions{}, func(i int, p Parsed) {
		lines := map[string][]int{}
		for _, s := range p.Symbols {
			lines[s.Name] = append(lines[s.Name], int(s.Select.Start.Line)+1)
		}
		r.ours += len(p.Symbols)
		for _, d := range ctagsDefs[files[i]] {
			r.ctags++
			r.byKind[d.kind][0]++
			hit := false
			for _, l := range lines[d.name] {
				if l-d.line <= 1 && d.line-l <= 1 {
					hit = true
					break
				}
			}
			if hit {
				r.found++
				r.byKind[d.kind][1]++
			} else if len(r.missedSample) < 25 && (len(r.missedSample) == 0 || p.Err == nil) {
				msg := fmt.Sprintf("%s:%d %s %s", files[i], d.line, d.kind, d.name)
				if p.Err != nil {
					msg += " (" + p.Err.Error() + ")"
				}
				r.missedSample = append(r.missedSample, msg)
			}
		}
	})
	_ = os.Stderr
	return r
}
