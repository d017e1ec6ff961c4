package pathlit

import (
	"reflect"
	"testing"
)

func TestFind(t *testing.T) {
	cases := []struct {
		name, text string
		want       []string
	}{
		{"python", `open("src/x.py")  # and 'config.yaml'`, []string{"src/x.py", "config.yaml"}},
		{"import", `import { h } from "./util/helpers";`, []string{"./util/helpers"}},
		{"markdown", "See [the guide](./docs/a.md#setup) and [site](https://x.org/a.md).", []string{"./docs/a.md"}},
		{"line suffix", `err at "pkg/a.go:42:7"`, []string{"pkg/a.go:42:7"}},
		{"windows", `"src\\auth\\login.py"`, []string{`src\\auth\\login.py`}},
		{"not paths", `"hello world" "a.b" "1.2.3" "text/plain; x" "{{.Name}}/x.go" "//comment" "v1.2"`, nil},
		{"unterminated", "\"src/a.go\n\"b.go\"", []string{"b.go"}},
		{"mime-like kept for the engine", `"text/plain"`, []string{"text/plain"}},
	}
	for _, c := range cases {
		var got []string
		for _, l := range Find(c.text) {
			if c.text[l.Start:l.End] != l.Text {
				t.Errorf("%s: offsets %d..%d do not hold %q", c.name, l.Start, l.End, l.Text)
			}
			got = append(got, l.Text)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

func FuzzFind(f *testing.F) {
	f.Add(`x = "src/a.py" [l](./b.md)`)
	f.Fuzz(func(t *testing.T, text string) {
		for _, l := range Find(text) {
			if l.Start < 0 || l.End > len(text) || text[l.Start:l.End] != l.Text {
				t.Fatalf("bad literal %+v", l)
			}
		}
	})
}
