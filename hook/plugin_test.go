package hook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestPluginHooksAreInstalls: the repository's plugin (plugin/) hooks the
// events, tools and timeout Install writes into settings — one list, two
// ways to install it — each through the plugin's launcher.
func TestPluginHooksAreInstalls(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "plugin", "hooks", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var plugin struct {
		Hooks map[string][]struct {
			Matcher string `json:"matcher"`
			Hooks   []struct {
				Type    string `json:"type"`
				Command string `json:"command"`
				Timeout int    `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(b, &plugin); err != nil {
		t.Fatal(err)
	}
	if len(plugin.Hooks) != len(entries) {
		t.Errorf("the plugin hooks %d events, Install %d", len(plugin.Hooks), len(entries))
	}
	const launcher = `"${CLAUDE_PLUGIN_ROOT}/bin/wayfind-plugin" hook`
	for _, e := range entries {
		groups := plugin.Hooks[e.event]
		if len(groups) != 1 || groups[0].Matcher != e.matcher || len(groups[0].Hooks) != 1 {
			t.Errorf("%s: the plugin's %+v, Install's matcher %q", e.event, groups, e.matcher)
			continue
		}
		h := groups[0].Hooks[0]
		if h.Type != "command" || h.Command != launcher || h.Timeout != Timeout {
			t.Errorf("%s: the plugin runs %+v, want %q with timeout %d", e.event, h, launcher, Timeout)
		}
	}
}
