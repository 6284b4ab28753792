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
