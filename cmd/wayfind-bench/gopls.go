package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"wayfind/ident"
)

// The workspace/symbol bench (make bench-symbols-gopls): wayfind and gopls
// answer the same queries over the same Go workspace, both through the
// protocol, in one run; a second, non-Go workspace is answered by wayfind
// alone. Queries come from universal-ctags' definitions (types, aliases,
// functions, methods) outside testdata/, in six shapes people type:
//
//	exact    the name as written              NewServer
//	lower    the name in lower case           newserver
//	prefix   its first 60%                    NewSe
//	humps    each word cut to its first letter and the consonants after it,
//	         at most three letters (short words whole)   NewSrv
//	typo     two adjacent letters swapped     NewSevrer
//	qualified  Type.Method                    Server.Serve
//
// A hit is a result of the same name, in the same file, within a line of
// the definition. Deterministic for a seed.
const symbolShapeQueries = 50

var symbolShapes = []string{"exact", "lower", "prefix", "humps", "typo", "qualified"}

type ctagsDef struct {
	Name, Path, Container string
	Line                  int
	Method                bool
	// Sample: a query may be made from it (not in a test directory); the
	// others only make names ambiguous.
	Sample bool
}

type symbolQuery struct {
	shape, text string
	want        ctagsDef
}

// ctagsDefs lists the definitions universal-ctags finds under root in the
// given language (ctags' name); Go's testdata is left out, as the go
// command leaves it out.
func ctagsDefs(root, lang string) ([]ctagsDef, error) {
	cmd := exec.Command("ctags", "-R", "--languages="+lang, "--output-format=json", "--fields=+nKZ", "-f", "-", ".")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("ctags: %w", err)
	}
	var defs []ctagsDef
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var t struct {
			Name, Path, Kind, Scope, ScopeKind string
			Line                               int
		}
		if json.Unmarshal(sc.Bytes(), &t) != nil || t.Name == "" || t.Name == "_" {
			continue
		}
		if strings.Contains("/"+t.Path, "/testdata/") && lang == "Go" {
			continue // the go command, and so gopls, ignores testdata
		}
		d := ctagsDef{Name: t.Name, Path: filepath.ToSlash(t.Path), Line: t.Line,
			Sample: !strings.Contains("/"+t.Path, "/testdata/") && !strings.Contains("/"+t.Path, "/test/")}
		switch t.Kind {
		case "struct", "interface", "type", "talias", "class":
		case "func", "function", "method", "member":
			switch t.ScopeKind {
			case "package", "":
			case "struct", "interface", "type", "class":
				d.Method = true
				d.Container = t.Scope[strings.LastIndexByte(t.Scope, '.')+1:]
			default:
				continue // a closure's or a function's own names
			}
			if t.Kind == "member" && (!d.Method || lang == "Go") {
				continue // Go's members are struct fields
			}
		default:
			continue
		}
		defs = append(defs, d)
	}
	sort.Slice(defs, func(i, j int) bool {
		if defs[i].Path != defs[j].Path {
			return defs[i].Path < defs[j].Path
		}
		return defs[i].Line < defs[j].Line
	})
	return defs, nil
}

// symbolQueries draws perShape queries of each shape from defs, each from
// a definition that is the only one of its name (ignoring case; for the
// qualified shape, of its type and name): a query that names one thing,
// so that the first answer can be judged.
func symbolQueries(defs []ctagsDef, perShape int, seed int64) []symbolQuery {
	r := rand.New(rand.NewSource(seed))
	names, pairs := map[string]int{}, map[string]int{}
	for _, d := range defs {
		names[strings.ToLower(d.Name)]++
		pairs[d.Container+"."+d.Name]++
	}
	var out []symbolQuery
	for _, shape := range symbolShapes {
		seen := map[string]bool{}
		for tries := 0; tries < 200*perShape && len(seen) < perShape; tries++ {
			d := defs[r.Intn(len(defs))]
			if !d.Sample {
				continue
			}
			if shape == "qualified" && pairs[d.Container+"."+d.Name] > 1 || shape != "qualified" && names[strings.ToLower(d.Name)] > 1 {
				continue
			}
			q, ok := shapeOf(shape, d, r)
			if !ok || seen[q] {
				continue
			}
			seen[q] = true
			out = append(out, symbolQuery{shape: shape, text: q, want: d})
		}
	}
	return out
}

func shapeOf(shape string, d ctagsDef, r *rand.Rand) (string, bool) {
	n := d.Name
	switch shape {
	case "exact":
		return n, len(n) >= 3
	case "lower":
		return strings.ToLower(n), strings.ToLower(n) != n && len(n) >= 4
	case "prefix":
		k := (len(n)*6 + 9) / 10
		return n[:k], len(n) >= 6 && k >= 3
	case "humps":
		words := nameWords(n)
		if len(words) < 2 {
			return "", false
		}
		var b strings.Builder
		for _, w := range words {
			b.WriteString(abbreviate(w))
		}
		return b.String(), b.String() != n
	case "typo":
		if len(n) < 6 || strings.IndexFunc(n, func(c rune) bool { return c > 127 }) >= 0 {
			return "", false // letters swapped, not bytes
		}
		i := 1 + r.Intn(len(n)-3)
		if n[i] == n[i+1] {
			return "", false
		}
		return n[:i] + string(n[i+1]) + string(n[i]) + n[i+2:], true
	case "qualified":
		return d.Container + "." + n, d.Method && d.Container != ""
	}
	return "", false
}

// nameWords splits an identifier at its humps and underscores.
func nameWords(s string) []string {
	var out []string
	start := 0
	for i := 1; i <= len(s); i++ {
		if i == len(s) || s[i] == '_' || ident.HumpAt(s, i) {
			if w := strings.Trim(s[start:i], "_"); w != "" {
				out = append(out, w)
			}
			start = i
		}
	}
	return out
}

// abbreviate cuts a word the way people shorten one in a name: its first
// letter and the consonants after it, three letters at most ("Server" →
// "Srv", "range" → "rng"); words of three letters or fewer stay whole.
func abbreviate(w string) string {
	if len(w) <= 3 {
		return w
	}
	b := []byte{w[0]}
	for i := 1; i < len(w) && len(b) < 3; i++ {
		if !strings.ContainsRune("aeiouAEIOU", rune(w[i])) {
			b = append(b, w[i])
		}
	}
	return string(b)
}

type symbolAnswer struct {
	top1, top5 bool
	elapsed    time.Duration
	first      string
}

type lspSymbol struct {
	Name     string `json:"name"`
	Kind     int    `json:"kind"`
	Location struct {
		URI   string `json:"uri"`
		Range struct {
			Start struct{ Line, Character int } `json:"start"`
		} `json:"range"`
	} `json:"location"`
}

// askSymbols runs every query through srv's workspace/symbol (after one
// untimed warm-up each) and judges the answers against root.
func askSymbols(srv *lspServer, root string, qs []symbolQuery) []symbolAnswer {
	out := make([]symbolAnswer, len(qs))
	for i, q := range qs {
		var res []lspSymbol
		_ = srv.call("workspace/symbol", map[string]any{"query": q.text}, &res)
		t := time.Now()
		res = nil
		if err := srv.call("workspace/symbol", map[string]any{"query": q.text}, &res); err != nil {
			continue
		}
		a := symbolAnswer{elapsed: time.Since(t)}
		for k, s := range res {
			if k >= 5 {
				break
			}
			u, _ := url.Parse(s.Location.URI)
			rel, _ := filepath.Rel(root, u.Path)
			name := s.Name[strings.LastIndexByte(s.Name, '.')+1:] // gopls qualifies: "http.Server"
			line := s.Location.Range.Start.Line + 1
			if k == 0 {
				a.first = fmt.Sprintf("%s %s:%d", s.Name, rel, line)
			}
			if name == q.want.Name && filepath.ToSlash(rel) == q.want.Path && line >= q.want.Line-1 && line <= q.want.Line+1 {
				a.top5 = true
				a.top1 = a.top1 || k == 0
			}
		}
		out[i] = a
	}
	return out
}

// startSymbolServer starts a server (argv) on root and waits until probe
// finds its symbol: wayfind's symbol pass, gopls' workspace load.
func startSymbolServer(argv []string, root, probe string) (*lspServer, time.Duration, error) {
	srv, err := startLSPArgs(argv...)
	if err != nil {
		return nil, 0, err
	}
	uri := (&url.URL{Scheme: "file", Path: filepath.ToSlash(root)}).String()
	caps := map[string]any{"workspace": map[string]any{"symbol": map[string]any{}}}
	if err := srv.call("initialize", map[string]any{"processId": os.Getpid(), "rootUri": uri, "capabilities": caps,
		"workspaceFolders": []map[string]string{{"uri": uri, "name": filepath.Base(root)}}}, nil); err != nil {
		return nil, 0, err
	}
	start := time.Now()
	if err := srv.notify("initialized", map[string]any{}); err != nil {
		return nil, 0, err
	}
	for time.Since(start) < 2*time.Minute {
		var res []lspSymbol
		if srv.call("workspace/symbol", map[string]any{"query": probe}, &res) == nil && len(res) > 0 {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	return srv, time.Since(start), nil
}

func symbolsVsGopls(bin, gopls, goRoot, otherRoot, otherLang string, seed int64, verbose bool) {
	type run struct {
		name, root string
		argv       []string
		qs         []symbolQuery
	}
	goDefs, err := ctagsDefs(goRoot, "Go")
	if err != nil {
		fatal(err)
	}
	goQs := symbolQueries(goDefs, symbolShapeQueries, seed)
	runs := []run{{"wayfind", goRoot, []string{bin, "lsp"}, goQs}, {"gopls", goRoot, []string{gopls}, goQs}}
	var otherQs []symbolQuery
	if otherRoot != "" {
		defs, err := ctagsDefs(otherRoot, otherLang)
		if err != nil {
			fatal(err)
		}
		otherQs = symbolQueries(defs, symbolShapeQueries, seed)
		runs = append(runs, run{"wayfind (" + otherLang + ")", otherRoot, []string{bin, "lsp"}, otherQs})
	}
	fmt.Printf("Go workspace: %s (%d ctags definitions outside testdata); %d queries a shape, each from a definition outside test directories whose name (or Type.Method) no other definition has.\n\n", goRoot, len(goDefs), symbolShapeQueries)
	fmt.Println("| server | workspace | ready s | RSS MB | shape | queries | top-1 | top-5 | p50 ms | p99 ms |")
	fmt.Println("|---|---|---:|---:|---|---:|---:|---:|---:|---:|")
	for _, rn := range runs {
		probe := rn.qs[0].want.Name
		srv, ready, err := startSymbolServer(rn.argv, rn.root, probe)
		if err != nil {
			fatal(err)
		}
		answers := askSymbols(srv, rn.root, rn.qs)
		rss := rssOf(srv.cmd.Process.Pid)
		srv.stop()
		byShape := map[string][]int{}
		for i, q := range rn.qs {
			byShape[q.shape] = append(byShape[q.shape], i)
		}
		var all []int
		for _, shape := range append(symbolShapes, "all") {
			idx := byShape[shape]
			if shape == "all" {
				idx = all
			} else {
				all = append(all, idx...)
			}
			t1, t5 := 0, 0
			var ds []time.Duration
			for _, i := range idx {
				a := answers[i]
				if a.top1 {
					t1++
				}
				if a.top5 {
					t5++
				}
				ds = append(ds, a.elapsed)
				if verbose && !a.top1 && shape != "all" {
					q := rn.qs[i]
					miss5 := ""
					if !a.top5 {
						miss5 = " (not in the top 5)"
					}
					fmt.Printf("  %s %s %q: want %s:%d, first %s%s\n", rn.name, shape, q.text, q.want.Path, q.want.Line, a.first, miss5)
				}
			}
			label := shape
			if shape == "all" {
				label = "**all**"
			}
			fmt.Printf("| %s | %s | %.1f | %.0f | %s | %d | %s | %s | %s | %s |\n", rn.name, filepath.Base(rn.root), ready.Seconds(), rss,
				label, len(idx), pct(t1, len(idx)), pct(t5, len(idx)), ms(quantile(ds, 0.5)), ms(quantile(ds, 0.99)))
		}
	}
}
