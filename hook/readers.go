package hook

import (
	"slices"
	"strings"
)

// commandSpec says which words of a command are paths it reads.
type commandSpec struct {
	// valued are the options that take the next word as their value
	// ("-n" of head; a value joined to its option, "-n5" or
	// "--lines=5", is one word either way).
	valued []string
	// script: the first operand is a program or a pattern (sed, awk,
	// grep), unless one of scriptOpts gave it.
	script     bool
	scriptOpts []string
	// none are the options that leave no word read: the command writes
	// its operands (sed -i), runs a text (python -c) or works elsewhere
	// (go -C).
	none []string
	// first: only the first operand is read; the words after it are the
	// program's own (python FILE ARGS). last: only the last (git blame).
	first, last bool
	// dashDash: only the operands after "--" (git log -- PATH).
	dashDash bool
	// longSingle: options are words of one dash (go's -run), never
	// groups of letters.
	longSingle bool
	// rooted: an operand is a path only when it is written as one — ./,
	// ../ or / before it, or a .go file (go's import paths are not).
	rooted bool
	// What an operand may name: a file, a directory.
	file, dir bool
	// test: an operand may add a test after "::" (pytest); pkg: "/..."
	// (go).
	test, pkg bool
	// find: the operands are find's starting points (findStarts).
	find bool
	// seek: what the command searches its directories for (findSeek,
	// grepSeek).
	seek dirSeek
}

// Options of the commands below that take a value.
var (
	grepValued = []string{"-e", "-f", "-m", "-A", "-B", "-C", "-d", "-D", "--regexp", "--file", "--max-count", "--after-context", "--before-context", "--context", "--include", "--exclude", "--exclude-dir", "--label"}
	rgValued   = []string{"-e", "-f", "-g", "-t", "-T", "-m", "-A", "-B", "-C", "-j", "-M", "-E", "-r", "-d", "--regexp", "--file", "--glob", "--iglob", "--type", "--type-not", "--type-add", "--max-count", "--after-context", "--before-context", "--context", "--threads", "--max-columns", "--encoding", "--sort", "--sortr", "--max-depth", "--replace", "--context-separator", "--colors"}
	goValued   = []string{"-run", "-bench", "-benchtime", "-count", "-cpu", "-parallel", "-timeout", "-tags", "-p", "-o", "-coverprofile", "-cpuprofile", "-memprofile", "-blockprofile", "-mutexprofile", "-trace", "-covermode", "-coverpkg", "-exec", "-ldflags", "-gcflags", "-asmflags", "-mod", "-modfile", "-pkgdir", "-toolexec", "-skip", "-shuffle", "-fuzz", "-fuzztime", "-fuzzminimizetime", "-list", "-outputdir", "-vet", "-overlay", "-pgo"}
	pytestOpts = []string{"-k", "-m", "-c", "-p", "-o", "-n", "-W", "-r", "--rootdir", "--ignore", "--ignore-glob", "--deselect", "--junitxml", "--basetemp", "--confcutdir", "--maxfail", "--durations", "--tb", "--cov", "--cov-report", "--log-level", "--import-mode", "--capture", "--override-ini"}
)

// commandSpecs are the commands whose paths are read, by name. A command
// not here is never read into: its words may be anything, written or
// deleted.
var commandSpecs = map[string]commandSpec{
	"cat":       {file: true},
	"tac":       {file: true},
	"less":      {file: true},
	"more":      {file: true},
	"head":      {file: true, valued: []string{"-n", "-c", "--lines", "--bytes"}},
	"tail":      {file: true, valued: []string{"-n", "-c", "-s", "--lines", "--bytes", "--pid", "--sleep-interval"}},
	"wc":        {file: true},
	"nl":        {file: true, valued: []string{"-b", "-d", "-f", "-h", "-i", "-l", "-n", "-s", "-v", "-w"}},
	"file":      {file: true, valued: []string{"-m", "-f", "-F"}},
	"stat":      {file: true, dir: true, valued: []string{"-c", "--format", "--printf"}},
	"md5sum":    {file: true},
	"sha1sum":   {file: true},
	"sha256sum": {file: true},
	"xxd":       {file: true, first: true, valued: []string{"-l", "-s", "-c", "-g", "-o", "-n"}},
	"strings":   {file: true, valued: []string{"-n", "-t", "-e"}},
	"od":        {file: true, valued: []string{"-A", "-j", "-N", "-t", "-w"}},
	"bat":       {file: true, valued: []string{"-l", "-r", "-H", "-m", "--language", "--line-range", "--highlight-line", "--style", "--theme", "--map-syntax"}},
	"ls":        {file: true, dir: true, valued: []string{"-I", "-w", "-T", "--ignore", "--hide", "--width", "--tabsize", "--format", "--sort", "--time"}},
	"tree":      {dir: true, valued: []string{"-L", "-I", "-P"}, none: []string{"-o"}},
	"grep":      {file: true, dir: true, script: true, scriptOpts: []string{"-e", "-f", "--regexp", "--file"}, valued: grepValued},
	"egrep":     {file: true, dir: true, script: true, scriptOpts: []string{"-e", "-f", "--regexp", "--file"}, valued: grepValued},
	"fgrep":     {file: true, dir: true, script: true, scriptOpts: []string{"-e", "-f", "--regexp", "--file"}, valued: grepValued},
	"rg":        {file: true, dir: true, script: true, scriptOpts: []string{"-e", "-f", "--regexp", "--file"}, valued: rgValued},
	"sed":       {file: true, script: true, scriptOpts: []string{"-e", "-f", "--expression", "--file"}, valued: []string{"-e", "-f", "-l", "--expression", "--file", "--line-length"}, none: []string{"-i", "--in-place"}},
	"awk":       {file: true, script: true, scriptOpts: []string{"-f", "--file"}, valued: []string{"-f", "-v", "-F", "--file", "--assign", "--field-separator"}},
	"gawk":      {file: true, script: true, scriptOpts: []string{"-f", "--file"}, valued: []string{"-f", "-v", "-F", "--file", "--assign", "--field-separator"}},
	"diff":      {file: true, dir: true, valued: []string{"-U", "-C", "-x", "-X", "-I", "-F", "--label", "--exclude", "--exclude-from", "--ignore-matching-lines", "--show-function-line"}},
	"cmp":       {file: true, valued: []string{"-i", "-n"}},
	"python":    {file: true, first: true, valued: []string{"-W", "-X"}},
	"node":      {file: true, first: true, valued: []string{"-r", "-C", "--require", "--import", "--loader"}, none: []string{"-e", "-p", "--eval", "--print"}},
	"bash":      {file: true, first: true, valued: []string{"-o", "-O"}, none: []string{"-c"}},
	"sh":        {file: true, first: true, valued: []string{"-o"}, none: []string{"-c"}},
	"source":    {file: true, first: true},
	".":         {file: true, first: true},
	"pytest":    {file: true, dir: true, test: true, valued: pytestOpts},
	"find":      {file: true, dir: true, find: true},
	"py.test":   {file: true, dir: true, test: true, valued: pytestOpts},
}

// goSpecs are go's subcommands that read packages, gitSpecs git's that
// read paths.
var (
	goSpecs = map[string]commandSpec{
		"test":  {file: true, dir: true, pkg: true, rooted: true, longSingle: true, valued: goValued, none: []string{"-C"}},
		"vet":   {file: true, dir: true, pkg: true, rooted: true, longSingle: true, valued: goValued, none: []string{"-C"}},
		"build": {file: true, dir: true, pkg: true, rooted: true, longSingle: true, valued: goValued, none: []string{"-C"}},
		"list":  {file: true, dir: true, pkg: true, rooted: true, longSingle: true, valued: append([]string{"-f"}, goValued...), none: []string{"-C"}},
		"run":   {file: true, dir: true, rooted: true, first: true, longSingle: true, valued: goValued, none: []string{"-C"}},
	}
	gitSpecs = map[string]commandSpec{
		"log":   {file: true, dir: true, dashDash: true},
		"diff":  {file: true, dir: true, dashDash: true},
		"show":  {file: true, dir: true, dashDash: true},
		"blame": {file: true, last: true, valued: []string{"-L", "-S", "--contents"}},
	}
)

// runsAsIs are the words that run the command after them as it is, each
// with how many words of its own follow it (time, nohup; timeout's
// duration; env's assignments are passed over too).
var runsAsIs = map[string]int{"time": 0, "nohup": 0, "command": 0, "env": 0, "timeout": 1, "nice": 0}

// chdirs are the commands that move the shell (their one operand).
var chdirs = map[string]bool{"cd": true, "pushd": true}

// specOf is the spec of the command name run with words, and how many of
// the words are its own before the spec's (go's and git's subcommand,
// python's -m pytest).
func specOf(name string, words []string) (commandSpec, int, bool) {
	switch {
	case name == "go":
		if len(words) > 0 {
			s, ok := goSpecs[words[0]]
			return s, 1, ok
		}
	case name == "git":
		i := 0
		for i < len(words) && strings.HasPrefix(words[i], "-") {
			switch words[i] {
			case "-c":
				i += 2
			case "--no-pager", "-P", "--no-optional-locks":
				i++
			default:
				return commandSpec{}, 0, false // -C, --git-dir: another tree's paths
			}
		}
		if i < len(words) {
			s, ok := gitSpecs[words[i]]
			return s, i + 1, ok
		}
	case python(name):
		for i := 0; i < len(words) && strings.HasPrefix(words[i], "-"); i++ {
			switch words[i] {
			case "-m":
				if i+1 < len(words) && words[i+1] == "pytest" {
					return commandSpecs["pytest"], i + 2, true
				}
				return commandSpec{}, 0, false // a module runs
			case "-c":
				return commandSpec{}, 0, false
			case "-W", "-X":
				i++
			}
		}
		return commandSpecs["python"], 0, true
	default:
		s, ok := commandSpecs[name]
		return s, 0, ok
	}
	return commandSpec{}, 0, false
}

// python: python, python3, python3.12.
func python(name string) bool {
	v, ok := strings.CutPrefix(name, "python")
	return ok && strings.Trim(v, "0123456789.") == ""
}

// operands are the indexes of the words (a command's, after its name;
// "" where the shell expands one) that spec reads as paths. None when an
// option of spec.none is there.
func operands(words []string, spec commandSpec) []int {
	if spec.find {
		return findStarts(words)
	}
	var ops []int
	scriptGiven, afterDashDash := false, false
	for i := 0; i < len(words); i++ {
		w := words[i]
		if !afterDashDash && w == "--" {
			afterDashDash = true
			continue
		}
		if !afterDashDash && len(w) > 1 && w[0] == '-' {
			name, joined := w, false
			if j := strings.IndexByte(w, '='); j > 0 {
				name, joined = w[:j], true
			}
			if spec.longSingle && strings.HasPrefix(name, "--") {
				name = name[1:]
			}
			if !spec.longSingle && !strings.HasPrefix(name, "--") && len(name) > 2 {
				// A group of letters: -rn, -ne SCRIPT, -n5.
				for k := 1; k < len(name); k++ {
					letter := "-" + name[k:k+1]
					if slices.Contains(spec.none, letter) {
						return nil
					}
					if slices.Contains(spec.scriptOpts, letter) {
						scriptGiven = true
					}
					if slices.Contains(spec.valued, letter) {
						if k == len(name)-1 && !joined {
							i++ // its value is the next word
						}
						break // or the rest of this one
					}
				}
				continue
			}
			if slices.Contains(spec.none, name) {
				return nil
			}
			if slices.Contains(spec.scriptOpts, name) {
				scriptGiven = true
			}
			if !joined && slices.Contains(spec.valued, name) {
				i++
			}
			continue
		}
		if spec.dashDash && !afterDashDash {
			continue
		}
		ops = append(ops, i)
	}
	if spec.script && !scriptGiven && len(ops) > 0 {
		ops = ops[1:]
	}
	switch {
	case spec.first && len(ops) > 0:
		ops = ops[:1]
	case spec.last && len(ops) > 0:
		ops = ops[len(ops)-1:]
	}
	if spec.rooted {
		ops = slices.DeleteFunc(ops, func(i int) bool {
			w := words[i]
			return !strings.HasPrefix(w, "./") && !strings.HasPrefix(w, "../") && !strings.HasPrefix(w, "/") && !strings.HasSuffix(w, ".go")
		})
	}
	return ops
}

// findStarts are the indexes of find's starting points — the words
// before its expression, past find's own leading options (-H, -L, -P,
// -D LIST, -O LEVEL) — when its expression only reads: none when an
// action writes or deletes (-delete, -fprint, -fprint0, -fprintf, -fls)
// or runs a program (-exec, -execdir, -ok, -okdir) that is not one of
// findReaders. A starting point that names nothing is an error find
// reports after walking the others: rewritten, it walks the directory
// meant.
func findStarts(words []string) []int {
	i := 0
	for i < len(words) {
		w := words[i]
		if w == "-H" || w == "-L" || w == "-P" || strings.HasPrefix(w, "-O") {
			i++
		} else if w == "-D" {
			i += 2
		} else {
			break
		}
	}
	var starts []int
	for ; i < len(words); i++ {
		w := words[i]
		if strings.HasPrefix(w, "-") || w == "(" || w == ")" || w == "!" || w == "," {
			break
		}
		starts = append(starts, i)
	}
	for ; i < len(words); i++ {
		switch words[i] {
		case "-delete", "-fprint", "-fprint0", "-fprintf", "-fls":
			return nil
		case "-exec", "-execdir", "-ok", "-okdir":
			if i+1 == len(words) || !findReaders[words[i+1]] {
				return nil // a program that may write, or one the shell expands
			}
		}
	}
	return starts
}

// findSeek is the file name find's expression searches for: the value
// of its one -name or -iname (fold), a name's glob; none when there are
// several (an -o of names), or the expression negates one.
func findSeek(words []string) dirSeek {
	var seek dirSeek
	n := 0
	for i := 0; i+1 < len(words); i++ {
		switch words[i] {
		case "!", "-not":
			return dirSeek{}
		case "-name", "-iname":
			seek, n = dirSeek{name: words[i+1], fold: words[i] == "-iname"}, n+1
			i++
		}
	}
	if n != 1 {
		return dirSeek{}
	}
	return seek
}

// grepSeek is the file name a recursive grep or rg searches its
// directories for: the last component of its one file filter — grep's
// --include, rg's -g/--glob (--iglob: fold); none when there are several,
// or the filter excludes (rg's "!", grep's --exclude).
func grepSeek(words []string) dirSeek {
	var seek dirSeek
	n := 0
	for i, w := range words {
		if w == "--" {
			break
		}
		name, value, joined := strings.Cut(w, "=")
		switch name {
		case "--exclude":
			return dirSeek{}
		case "--include", "-g", "--glob", "--iglob":
		default:
			continue
		}
		if !joined {
			if i+1 == len(words) {
				return dirSeek{}
			}
			value = words[i+1]
		}
		if strings.HasPrefix(value, "!") {
			return dirSeek{}
		}
		seek, n = dirSeek{name: value[strings.LastIndexByte(value, '/')+1:], fold: name == "--iglob"}, n+1
	}
	if n != 1 {
		return dirSeek{}
	}
	return seek
}

// findReaders are the programs find may run on what it finds (-exec)
// that only read their operands and print: a find running any other
// (rm, sed, a script) is left as it is written.
var findReaders = map[string]bool{
	"grep": true, "egrep": true, "fgrep": true, "rg": true, "cat": true, "head": true, "tail": true,
	"wc": true, "ls": true, "stat": true, "file": true, "md5sum": true, "sha1sum": true, "sha256sum": true,
	"strings": true, "nl": true, "basename": true, "dirname": true, "echo": true, "printf": true,
}
