package main

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestRoundingWarning: a cubic kernel on features near 50 (K reaching
// 10¹³) at nλ ≈ 0.05 draws one warning from each spectral method, which
// says what rounding leaves uncertain; the same rows standardized, or a
// Gaussian kernel, draw none.
func TestRoundingWarning(t *testing.T) {
	var b strings.Builder
	b.WriteString("a,b,c,y\n")
	for i := range 105 {
		u, v, w := float64(i%7)/7, float64(i%11)/11, float64(i%5)/5
		fmt.Fprintf(&b, "%g,%g,%g,%g\n", 47+6*u, 47+6*v, 47+6*w, math.Sin(6*u)+(v-0.5)*(w-0.5))
	}
	train := write(t, t.TempDir(), "raw.csv", []byte(b.String()))
	cubic := []string{"-kernel", "polynomial", "-degree", "3", "-offset", "1.155", "-lambda", "4.5e-4"}
	for _, c := range []struct {
		method string
		extra  []string
		want   string // "" for no warning
	}{
		{"tikh", cubic, "the objective of Tikhonov on [K 1]"},
		{"eigen", cubic, "the coefficients are determined only to about"},
		{"tsvd", cubic, "the coefficients are determined only to about"},
		{"tikh", append([]string{"-standardize"}, cubic...), ""},
		{"eigen", append([]string{"-standardize"}, cubic...), ""},
		{"tikh", []string{"-sigma", "3", "-lambda", "1e-3"}, ""},
	} {
		code, _, e := runCmd(append([]string{"fit", "-train", train, "-method", c.method}, c.extra...)...)
		if code != 0 {
			t.Fatalf("%s %v: exit %d: %s", c.method, c.extra, code, e)
		}
		got := strings.Count(e, "warning: nλ")
		switch {
		case c.want == "" && got != 0:
			t.Errorf("%s %v: warned of rounding: %s", c.method, c.extra, e)
		case c.want != "" && (got != 1 || !strings.Contains(e, c.want)):
			t.Errorf("%s %v: stderr %q, want one rounding warning naming %q", c.method, c.extra, e, c.want)
		}
	}
}
