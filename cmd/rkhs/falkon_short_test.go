package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestFalkonStopsShort: a falkon run that ends on its budget far from
// convergence (housing, m = 100, λ = 10⁻⁴, 20 iterations: relative
// residual 2.7·10⁻³) says so in one warning line on stderr; with a budget
// of 10⁵ the run stops at convergence, well before, without a warning.
func TestFalkonStopsShort(t *testing.T) {
	const train = "../../datasets/regression/housing_scale"
	for _, tc := range []struct {
		iters    string
		warn     bool
		maxLines int
	}{
		{"20", true, 21},
		{"100000", false, 200},
	} {
		var out, errs bytes.Buffer
		args := []string{"fit", "-train", train, "-method", "falkon", "-centers", "100", "-lambda", "1e-4", "-sigma", "2", "-iters", tc.iters}
		if code := run(args, &out, &errs); code != 0 {
			t.Fatalf("-iters %s: exit %d: %s", tc.iters, code, errs.String())
		}
		lines := strings.Split(strings.TrimSpace(errs.String()), "\n")
		warnings := 0
		for _, l := range lines {
			if strings.HasPrefix(l, "rkhs: warning: falkon stopped after") && strings.Contains(l, "-iters") && strings.Contains(l, "-lambda") {
				warnings++
			}
		}
		if (warnings == 1) != tc.warn || warnings > 1 || len(lines) > tc.maxLines {
			t.Errorf("-iters %s: %d warnings in %d lines, want %v and at most %d lines:\n%s", tc.iters, warnings, len(lines), tc.warn, tc.maxLines, errs.String())
		}
	}
}

// TestFalkonShortAfterSelection: after a selection (σ grid or length
// scales, fit and classify), a falkon run on a small -iters is judged
// against the promise of the default budget, which the selection's
// converged score stands for, not the loose promise of the few
// iterations given: 5 iterations warn that the saved model is not the
// one scored; the default budget (which stops on that promise) does not.
func TestFalkonShortAfterSelection(t *testing.T) {
	dir := t.TempDir()
	train, _ := splitHousing(t, dir)
	heart, _ := splitSet(t, dir, "heart", "", 0)
	for _, c := range []struct {
		name  string
		args  []string
		iters string // "" for the default budget
		warn  bool
	}{
		{"fit σ grid, -iters 5", []string{"fit", "-train", train, "-sigma", "auto", "-lambda", "auto"}, "5", true},
		{"fit σ grid, default budget", []string{"fit", "-train", train, "-sigma", "auto", "-lambda", "auto"}, "", false},
		{"fit ard, -iters 5", []string{"fit", "-train", train, "-sigma", "ard", "-lambda", "auto", "-ard-iters", "5"}, "5", true},
		{"classify σ grid, -iters 3", []string{"classify", "-train", heart, "-sigma", "auto", "-lambda", "auto"}, "3", true},
		{"classify σ grid, default budget", []string{"classify", "-train", heart, "-sigma", "auto", "-lambda", "auto"}, "", false},
	} {
		args := append(c.args, "-method", "falkon", "-centers", "60", "-select-centers", "30")
		if c.iters != "" {
			args = append(args, "-iters", c.iters)
		}
		code, _, e := runCmd(args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.name, code, e)
		}
		warned := strings.Contains(e, "rkhs: warning: falkon stopped after") && strings.Contains(e, "not the one the selection scored") || strings.Contains(e, "the saved model is not converged")
		if warned != c.warn {
			t.Errorf("%s: warned %v, want %v:\n%s", c.name, warned, c.warn, e)
		}
	}
}
