package report

import (
	"strings"
	"testing"

	"rkhs/loo"
)

// TestWarnFacts: one line per grid whose edge was chosen, naming the value,
// the side, the grid and the flag; none for a choice inside both grids.
func TestWarnFacts(t *testing.T) {
	tb := &loo.Table{Sigmas: []float64{1, 2, 4}, Lambdas: []float64{1e-6, 1e-3, 1}}
	for _, c := range []struct {
		chosen loo.Choice
		want   string
	}{
		{loo.Choice{Sigma: 2, Lambda: 1e-3}, ""},
		{loo.Choice{Sigma: 1, Lambda: 1e-3}, "x: warning: the chosen σ = 1 is the smallest of its grid (1 to 4, 3 values): the best σ may lie below it; widen -sigmas MIN:MAX:COUNT\n"},
		{loo.Choice{Sigma: 4, Lambda: 1}, "x: warning: the chosen σ = 4 is the largest of its grid (1 to 4, 3 values): the best σ may lie above it; widen -sigmas MIN:MAX:COUNT\n" +
			"x: warning: the chosen λ = 1 is the largest of its grid (1e-06 to 1, 3 values): the best λ may lie above it; widen -lambdas MIN:MAX:COUNT\n"},
	} {
		var b strings.Builder
		WarnFacts(&b, "x", tb, c.chosen)
		if b.String() != c.want {
			t.Errorf("%+v: %q, want %q", c.chosen, b.String(), c.want)
		}
	}
}

// TestWarnFactsFlat: a flat table gets its one warning and no edge
// warning, although its choice, the first pair, is at both grids'
// smallest values: telling the user to widen a grid that does not tell
// its values apart would contradict the flat warning.
func TestWarnFactsFlat(t *testing.T) {
	tb := &loo.Table{Sigmas: []float64{1, 2}, Lambdas: []float64{1e-3, 1}, Scores: [][]float64{{0.5, 0.5}, {0.5, 0.5}}}
	var b strings.Builder
	WarnFacts(&b, "x", tb, loo.Choice{Sigma: 1, Lambda: 1e-3, Score: 0.5})
	if got := b.String(); strings.Count(got, "\n") != 1 || !strings.Contains(got, "the same to six digits") || strings.Contains(got, "widen") {
		t.Errorf("%q, want the flat warning alone", got)
	}
}
