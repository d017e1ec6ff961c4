package ident

import "testing"

func TestHumpAt(t *testing.T) {
	cases := []struct {
		s    string
		want []int // every i where a word starts after the first
	}{
		{"parseHTTPRequest", []int{5, 9}},
		{"md5Hash", []int{3}},
		{"HTTPServer", []int{4}},
		{"http2Server", []int{5}},
		{"t9125", nil},
		{"i18n", nil},
		{"ABC", nil},
		{"aB", []int{1}},
	}
	for _, c := range cases {
		var got []int
		for i := range c.s {
			if HumpAt(c.s, i) {
				got = append(got, i)
			}
		}
		if len(got) != len(c.want) {
			t.Errorf("%q: humps at %v, want %v", c.s, got, c.want)
			continue
		}
		for k := range got {
			if got[k] != c.want[k] {
				t.Errorf("%q: humps at %v, want %v", c.s, got, c.want)
			}
		}
		if HumpAt([]byte(c.s), 1) != HumpAt(c.s, 1) {
			t.Errorf("%q: string and bytes disagree", c.s)
		}
	}
}

// TestSquash: the squashed form, and a name already squashed given back
// as it is, without a copy (New squashes a million names).
func TestSquash(t *testing.T) {
	for in, want := range map[string]string{
		"AuthMiddleware": "authmiddleware", "auth_middleware": "authmiddleware", "auth-middleware": "authmiddleware",
		"md5hash": "md5hash", "Ärger.go": "\xc3\x84rgergo", "": "", "__": "", "x86_64": "x8664",
	} {
		if got := Squash(in); got != want {
			t.Errorf("Squash(%q) = %q, want %q", in, got, want)
		}
	}
	name := "codelens"
	if n := testing.AllocsPerRun(10, func() { _ = Squash(name) }); n != 0 {
		t.Errorf("a squashed name was copied (%v allocations)", n)
	}
}
