package cli

import (
	"flag"
	"slices"
	"strings"
	"testing"

	"rkhs/regress"
)

// TestCSVColumns: each flag value gives the options package dataset reads
// with, or a refusal that names the flag.
func TestCSVColumns(t *testing.T) {
	for _, c := range []struct {
		header, target, features, comma string
		detect, head                    bool
		names                           []string
		sep                             rune
		err                             string
	}{
		{header: "auto", detect: true},
		{header: "", detect: true},
		{header: "yes", head: true, target: "y", features: "a,b", names: []string{"a", "b"}},
		{header: "no", comma: `\t`, sep: '\t'},
		{header: "no", target: "y", err: "not with -header no"},
		{header: "maybe", err: `-header "maybe"`},
		{header: "auto", comma: ";;", err: `-comma ";;"`},
		{header: "auto", comma: `"`, err: "-comma"},
	} {
		opt, err := CSVColumns(c.header, c.target, c.features, c.comma)
		if c.err != "" {
			if Status(err) != 2 || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%+v: %v, want a refusal with %q", c, err, c.err)
			}
			continue
		}
		if err != nil || opt.DetectHeader != c.detect || opt.Header != c.head || opt.Target != c.target ||
			!slices.Equal(opt.Features, c.names) || opt.Comma != c.sep || opt.LabelCol != -1 {
			t.Errorf("%+v: %+v, %v", c, opt, err)
		}
	}
}

// TestIntercept: every mode reads back from its name; others are refused.
func TestIntercept(t *testing.T) {
	for _, ic := range []regress.Intercept{regress.NoIntercept, regress.FreeIntercept, regress.PenalizedIntercept} {
		if got, err := Intercept(ic.String()); got != ic || err != nil {
			t.Errorf("%s: %v, %v", ic, got, err)
		}
	}
	if _, err := Intercept("both"); Status(err) != 2 {
		t.Errorf("both: %v, want a refusal", err)
	}
}

// TestHeaderFlag: -header alone is yes, and "-header no" reads as written.
func TestHeaderFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "auto"}, {[]string{"-header"}, "yes"}, {[]string{"-header", "no"}, "no"}, {[]string{"-header=auto"}, "auto"},
	} {
		var h Header
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.Var(&h, "header", "")
		if err := fs.Parse(JoinValues(fs, c.args)); err != nil || h.String() != c.want || fs.NArg() != 0 {
			t.Errorf("%v: %q, %v, %d arguments left; want %q", c.args, h.String(), err, fs.NArg(), c.want)
		}
	}
}
