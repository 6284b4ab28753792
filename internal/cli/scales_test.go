package cli

import (
	"flag"
	"strings"
	"testing"

	"rkhs/loo"
)

// TestSigmaValue: -sigma reads a number, auto and ard; ard implies auto,
// and a later number clears both.
func TestSigmaValue(t *testing.T) {
	for _, c := range []struct {
		in        string
		auto, ard bool
		v         float64
		err       bool
	}{
		{"ard", true, true, 0, false},
		{"auto", true, false, 0, false},
		{"2.5", false, false, 2.5, false},
		{"ARD", false, false, 0, true},
		{"x", false, false, 0, true},
	} {
		var s SigmaValue
		s.Set("ard") // a value set before is replaced
		err := s.Set(c.in)
		if (err != nil) != c.err {
			t.Errorf("%q: error %v, want error %v", c.in, err, c.err)
			continue
		}
		if err == nil && (s.Auto != c.auto || s.ARD != c.ard || s.V != c.v) {
			t.Errorf("%q: auto %v ard %v v %v, want %v %v %v", c.in, s.Auto, s.ARD, s.V, c.auto, c.ard, c.v)
		}
		if err == nil && s.String() != strings.ToLower(c.in) {
			t.Errorf("%q: String %q", c.in, s.String())
		}
	}
}

// TestARDFlags: the refusals of -ard-rows and -ard-iters, of either
// without -sigma ard and of -sigma ard with another kernel than the
// Gaussian; the rows of -ard-rows auto on each side of loo.DefaultDescentAbove.
func TestARDFlags(t *testing.T) {
	ard, auto := SigmaValue{AutoValue{Auto: true}, true}, SigmaValue{AutoValue{Auto: true}, false}
	for _, c := range []struct {
		flags  ARDFlags
		sigma  SigmaValue
		kernel string
		given  map[string]bool
		err    string
	}{
		{ARDFlags{Rows: AutoValue{Auto: true}}, ard, "gaussian", nil, ""},
		{ARDFlags{Rows: AutoValue{V: 0}, Iters: 10}, ard, "gaussian", map[string]bool{"ard-rows": true, "ard-iters": true}, ""},
		{ARDFlags{Rows: AutoValue{V: 2}}, ard, "gaussian", nil, ""},
		{ARDFlags{Rows: AutoValue{Auto: true}}, auto, "laplacian", nil, ""},
		{ARDFlags{Rows: AutoValue{V: 1}}, ard, "gaussian", nil, "-ard-rows 1: want 0 (every row), auto, or at least 2"},
		{ARDFlags{Rows: AutoValue{V: 2.5}}, ard, "gaussian", nil, "-ard-rows 2.5: want a whole number"},
		{ARDFlags{Rows: AutoValue{V: -3}}, ard, "gaussian", nil, "-ard-rows -3"},
		{ARDFlags{Rows: AutoValue{Auto: true}, Iters: -1}, ard, "gaussian", nil, "-ard-iters -1: want ≥ 0"},
		{ARDFlags{Rows: AutoValue{Auto: true}}, ard, "laplacian", nil, ""},
		{ARDFlags{Rows: AutoValue{Auto: true}}, ard, "polynomial", nil, "-sigma ard: one length scale per feature is learnt for the gaussian and laplacian kernels, not polynomial"},
		{ARDFlags{Rows: AutoValue{V: 10}}, auto, "gaussian", map[string]bool{"ard-rows": true}, "-ard-rows is for -sigma ard"},
		{ARDFlags{Rows: AutoValue{Auto: true}, Iters: 5}, auto, "gaussian", map[string]bool{"ard-iters": true}, "-ard-iters is for -sigma ard"},
	} {
		err := c.flags.Check(c.sigma, c.kernel, c.given)
		if got := errString(err); c.err == "" && err != nil || c.err != "" && !strings.Contains(got, c.err) {
			t.Errorf("%+v, %v, %s: %q, want %q", c.flags, &c.sigma, c.kernel, got, c.err)
		}
	}
	for _, c := range []struct {
		v       AutoValue
		n, want int
	}{
		{AutoValue{Auto: true}, loo.DefaultDescentAbove, 0},
		{AutoValue{Auto: true}, loo.DefaultDescentAbove + 1, loo.DefaultDescentSubset},
		{AutoValue{V: 300}, 1000, 300},
		{AutoValue{V: 0}, 10 * loo.DefaultDescentAbove, 0},
	} {
		a := ARDFlags{Rows: c.v}
		if got := a.RowsOf(c.n); got != c.want {
			t.Errorf("RowsOf(%d) with -ard-rows %v = %d, want %d", c.n, &c.v, got, c.want)
		}
	}
	var a ARDFlags
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	a.Register(fs)
	if err := fs.Parse([]string{"-ard-iters", "7"}); err != nil || fs.Lookup("ard-rows").Value.String() != "auto" || a.Iters != 7 {
		t.Errorf("registered: -ard-rows %q, -ard-iters %d (%v); want auto, 7", fs.Lookup("ard-rows").Value.String(), a.Iters, err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestCheckARDRows: a subset of rows below twice the centres, or 30, is
// refused; every row (0, or at least n) is not.
func TestCheckARDRows(t *testing.T) {
	for _, tc := range []struct {
		rows, n, m int
		ok         bool
	}{{0, 200, 50, true}, {200, 200, 50, true}, {500, 200, 50, true}, {100, 200, 50, true}, {99, 200, 50, false},
		{2, 200, 50, false}, {29, 200, 5, false}, {30, 200, 5, true}} {
		if err := CheckARDRows(tc.rows, tc.n, tc.m); (err == nil) != tc.ok {
			t.Errorf("-ard-rows %d of %d rows, %d centres: %v, want ok %v", tc.rows, tc.n, tc.m, err, tc.ok)
		}
	}
}
