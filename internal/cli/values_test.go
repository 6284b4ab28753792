package cli

import (
	"flag"
	"io"
	"slices"
	"testing"
)

// TestJoinValues: "-standardize WORD" reads as "-standardize=WORD" for the
// words the flag takes, in any case; anything else is left as it is, and
// the parse then sees what the user meant.
func TestJoinValues(t *testing.T) {
	for _, c := range []struct {
		args, want []string
		mode       string
	}{
		{[]string{"-standardize", "yes", "-x", "1"}, []string{"-standardize=yes", "-x", "1"}, "yes"},
		{[]string{"--standardize", "No"}, []string{"-standardize=No"}, "no"},
		{[]string{"-standardize", "-x", "2"}, []string{"-standardize", "-x", "2"}, "yes"},
		{[]string{"-standardize"}, []string{"-standardize"}, "yes"},
		{[]string{"-standardize=auto"}, []string{"-standardize=auto"}, "auto"},
		{[]string{"-x", "yes"}, []string{"-x", "yes"}, ""},
		{[]string{"-standardize", "maybe"}, []string{"-standardize", "maybe"}, "yes"},
		{[]string{"--", "-standardize", "yes"}, []string{"--", "-standardize", "yes"}, ""},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var s Standardize
		fs.Var(&s, "standardize", "")
		fs.String("x", "", "")
		got := JoinValues(fs, c.args)
		if !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.args, got, c.want)
		}
		if err := fs.Parse(got); err != nil {
			t.Errorf("%q: %v", c.args, err)
		}
		if s.Mode != c.mode {
			t.Errorf("%q: mode %q, want %q", c.args, s.Mode, c.mode)
		}
	}
}

// TestWholeCount: auto, whole numbers up to 2³¹ − 1, and refusals naming
// the flag for the rest.
func TestWholeCount(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		ok   bool
		fail bool
	}{{"auto", 0, false, false}, {"0", 0, true, false}, {"20000", 20000, true, false}, {"2147483647", 2147483647, true, false},
		{"3e9", 0, false, true}, {"-1", 0, false, true}, {"2.5", 0, false, true}, {"NaN", 0, false, true}, {"Inf", 0, false, true}} {
		var a AutoValue
		if err := a.Set(c.in); err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		n, ok, err := a.WholeCount("loo-rows")
		if n != c.n || ok != c.ok || (err != nil) != c.fail || err != nil && Status(err) != 2 {
			t.Errorf("%q: %d, %v, %v; want %d, %v, error %v", c.in, n, ok, err, c.n, c.ok, c.fail)
		}
	}
}
