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
// is false when the file already held exactly these entries.
func Install(path, command string) (changed bool, err error) {
	return edit(path, func(hooks *object) {
		for _, e := range entries {
			var groups []json.RawMessage
			if raw, ok := hooks.get(e.event); ok {
				_ = json.Unmarshal(raw, &groups)
			}
			groups = withoutOurs(groups)
			g, _ := json.Marshal(map[string]any{"matcher": e.matcher, "hooks": []any{map[string]any{"type": "command", "command": command, "timeout": Timeout}}})
			groups = append(groups, g)
			b, _ := json.Marshal(groups)
			hooks.set(e.event, b)
		}
	})
}

// Uninstall takes wayfind's hook entries out of the settings file at
// path, keeping everything else; a missing file is no change.
func Uninstall(path string) (changed bool, err error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	return edit(path, func(hooks *object) {
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
			} else {
				b, _ := json.Marshal(left)
				hooks.set(e.event, b)
			}
		}
	})
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

// edit applies change to the "hooks" object of the settings at path and
// writes the file back (atomically, its mode kept) when that changed it.
func edit(path string, change func(hooks *object)) (bool, error) {
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
	change(&hooks)
	if len(hooks.keys) == 0 {
		top.del("hooks")
	} else {
		top.set("hooks", hooks.bytes())
	}
	var out bytes.Buffer
	if err := json.Indent(&out, top.bytes(), "", "  "); err != nil {
		return false, err
	}
	out.WriteByte('\n')
	if bytes.Equal(out.Bytes(), old) || (len(old) == 0 && len(top.keys) == 0) {
		return false, nil
	}
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
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
