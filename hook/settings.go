package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The entries Install writes into a Claude Code settings file: before a
// tool that takes a path or a shell command, and after a shell command. Each runs command
// (the wayfind binary's absolute path and "hook"), at most Timeout
// seconds: a hook that takes longer is not waited for.
var entries = []struct{ event, matcher string }{
	{"PreToolUse", "Read|Edit|MultiEdit|NotebookEdit|Write|Glob|Grep|LS|Bash"},
	{"PostToolUse", "Bash"},
	{"PostToolUseFailure", "Bash"},
}

// Timeout is the seconds the harness waits for the hook (the hook steps
// aside before it: cmd/wayfind hookBudget).
const Timeout = 10

// Command is the hook command for the wayfind binary at bin.
func Command(bin string) string { return shellQuote(bin) + " hook" }

// ours reports whether a hook command is a wayfind hook's (any binary
// named wayfind, quoted or not, running its hook command).
func ours(command string) bool {
	c := strings.TrimSpace(command)
	bin, rest := c, ""
	if c != "" && (c[0] == '\'' || c[0] == '"') {
		if end := strings.IndexByte(c[1:], c[0]); end >= 0 {
			bin, rest = c[1:end+1], c[end+2:]
		}
	} else if i := strings.IndexAny(c, " \t"); i >= 0 {
		bin, rest = c[:i], c[i:]
	}
	return strings.TrimSpace(rest) == "hook" && strings.TrimSuffix(filepath.Base(bin), ".exe") == "wayfind"
}

func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// ErrSettings: the settings file is not what Install can merge into (not
// a JSON object); it is left as it is.
var ErrSettings = errors.New("settings file is not a JSON object")

// Install writes wayfind's hook entries into the settings file at path
// (made when missing), keeping every other setting and hook as it was
// and in its order; entries of an earlier install are replaced. changed
// is false when the file already held exactly these entries. An event's
// value that is not a list of groups is not Install's to replace: the
// file is left as it is (ErrSettings).
func Install(path, command string) (changed bool, err error) {
	return edit(path, func(hooks *object) error {
		for _, e := range entries {
			var groups []json.RawMessage
			if raw, ok := hooks.get(e.event); ok {
				if err := json.Unmarshal(raw, &groups); err != nil {
					return fmt.Errorf("%w (\"hooks\".%q is not a list)", ErrSettings, e.event)
				}
			}
			groups = withoutOurs(groups)
			g, _ := json.Marshal(map[string]any{"matcher": e.matcher, "hooks": []any{map[string]any{"type": "command", "command": command, "timeout": Timeout}}})
			groups = append(groups, g)
			b, _ := json.Marshal(groups)
			hooks.set(e.event, b)
		}
		return nil
	})
}

// Uninstall takes wayfind's hook entries out of the settings file at
// path, keeping everything else; a missing file is no change.
func Uninstall(path string) (changed bool, err error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return edit(path, func(hooks *object) error {
		for _, e := range entries {
			raw, ok := hooks.get(e.event)
			if !ok {
				continue
			}
			var groups []json.RawMessage
			if json.Unmarshal(raw, &groups) != nil {
				continue
			}
			if left := withoutOurs(groups); len(left) == 0 {
				hooks.del(e.event)
			} else if len(left) < len(groups) || !sameGroups(left, groups) {
				b, _ := json.Marshal(left)
				hooks.set(e.event, b)
			}
		}
		return nil
	})
}

// sameGroups: a and b hold the same groups, byte for byte.
func sameGroups(a, b []json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// withoutOurs is groups without wayfind's hooks: a group left with no
// hook is dropped, another's kept as written.
func withoutOurs(groups []json.RawMessage) []json.RawMessage {
	var out []json.RawMessage
	for _, raw := range groups {
		var g struct {
			Hooks []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		}
		if json.Unmarshal(raw, &g) != nil {
			out = append(out, raw)
			continue
		}
		mine := 0
		for _, h := range g.Hooks {
			if ours(h.Command) {
				mine++
			}
		}
		switch {
		case mine == 0:
			out = append(out, raw)
		case mine < len(g.Hooks):
			// A group of the user's that also runs wayfind: only wayfind's
			// hook leaves it.
			var obj object
			if obj.parse(raw) == nil {
				var hooks []json.RawMessage
				hb, _ := obj.get("hooks")
				_ = json.Unmarshal(hb, &hooks)
				var keep []json.RawMessage
				for _, h := range hooks {
					var c struct {
						Command string `json:"command"`
					}
					if json.Unmarshal(h, &c) != nil || !ours(c.Command) {
						keep = append(keep, h)
					}
				}
				b, _ := json.Marshal(keep)
				obj.set("hooks", b)
				out = append(out, obj.bytes())
			}
		}
	}
	return out
}

// ErrReadOnly: the settings file may not be written (its mode says so);
// it is left as it is.
var ErrReadOnly = errors.New("settings file is read-only")

// edit applies change to the "hooks" object of the settings at path and
// writes the file back when that changed it: where a symbolic link at
// path leads (a settings file kept with one's dotfiles stays where it
// is, and stays a link), atomically (a temporary beside it, renamed), its
// mode kept. A file whose mode forbids writing is refused, not
// overwritten; so is one change refuses.
func edit(path string, change func(hooks *object) error) (bool, error) {
	path, err := linkTarget(path)
	if err != nil {
		return false, err
	}
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	var top object
	if len(bytes.TrimSpace(old)) > 0 {
		if err := top.parse(old); err != nil {
			return false, fmt.Errorf("%s: %w (%v); not changed", path, ErrSettings, err)
		}
	}
	var hooks object
	if raw, ok := top.get("hooks"); ok {
		if err := hooks.parse(raw); err != nil {
			return false, fmt.Errorf("%s: %w (\"hooks\" is not an object); not changed", path, ErrSettings)
		}
	}
	before := len(hooks.keys)
	if err := change(&hooks); err != nil {
		return false, fmt.Errorf("%s: %w; not changed", path, err)
	}
	if len(hooks.keys) == 0 && before > 0 {
		top.del("hooks")
	} else if len(hooks.keys) > 0 {
		top.set("hooks", hooks.bytes())
	}
	if bytes.Equal(top.bytes(), compact(old)) || (len(old) == 0 && len(top.keys) == 0) {
		return false, nil
	}
	var out bytes.Buffer
	if err := json.Indent(&out, top.bytes(), "", "  "); err != nil {
		return false, err
	}
	out.WriteByte('\n')
	if bytes.Equal(out.Bytes(), old) {
		return false, nil
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
		if mode&0o222 == 0 {
			return false, fmt.Errorf("%s: %w (mode %v); not changed", path, ErrReadOnly, mode)
		}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".settings-*.json")
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(out.Bytes()); err != nil {
		tmp.Close()
		return false, err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return false, err
	}
	if err := tmp.Close(); err != nil {
		return false, err
	}
	return true, os.Rename(tmp.Name(), path)
}

// compact is b's JSON with its insignificant space removed (b itself
// when it is not JSON): two files that say the same are equal so.
func compact(b []byte) []byte {
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return b
	}
	return out.Bytes()
}

// maxLinks bounds the symbolic links followed from a settings path (a
// loop of links is an error, as the system's own bound makes it).
const maxLinks = 40

// linkTarget is the file path names once its symbolic links are
// followed — a link whose target does not exist yet leads to where the
// file is to be made.
func linkTarget(path string) (string, error) {
	for range maxLinks {
		st, err := os.Lstat(path)
		if err != nil || st.Mode()&fs.ModeSymlink == 0 {
			return path, nil
		}
		to, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return "", fmt.Errorf("%s: too many symbolic links", path)
}

// object is a JSON object that keeps its keys' order and its values as
// written.
type object struct {
	keys []string
	vals map[string]json.RawMessage
}

func (o *object) parse(b []byte) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return errors.New("not an object")
	}
	o.keys, o.vals = nil, map[string]json.RawMessage{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		if _, dup := o.vals[k]; !dup {
			o.keys = append(o.keys, k)
		}
		o.vals[k] = v
	}
	if _, err := dec.Token(); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("text after the object")
	}
	return nil
}

func (o *object) get(k string) (json.RawMessage, bool) {
	v, ok := o.vals[k]
	return v, ok
}

func (o *object) set(k string, v json.RawMessage) {
	if o.vals == nil {
		o.vals = map[string]json.RawMessage{}
	}
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *object) del(k string) {
	if _, ok := o.vals[k]; !ok {
		return
	}
	delete(o.vals, k)
	for i, key := range o.keys {
		if key == k {
			o.keys = append(o.keys[:i], o.keys[i+1:]...)
			break
		}
	}
}

func (o *object) bytes() []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(o.vals[k])
	}
	b.WriteByte('}')
	return b.Bytes()
}
