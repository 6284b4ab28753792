package loo

import (
	"math"
	"strings"
	"testing"
)

// TestTableBest: the smallest finite score wins; NaN and ±Inf never do;
// equal scores go to the smaller tie value, NaN ties losing, then to the
// first pair in grid order (σ before λ); no finite score is no choice.
func TestTableBest(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	for _, c := range []struct {
		name         string
		scores, ties [][]float64
		a, j         int
		ok           bool
	}{
		{"smallest", [][]float64{{3, 2}, {1, 4}}, nil, 1, 0, true},
		{"first on ties", [][]float64{{2, 1}, {1, 1}}, nil, 0, 1, true},
		{"never NaN or Inf", [][]float64{{nan, inf}, {-inf, 5}}, nil, 1, 1, true},
		{"ties to the smaller tie value", [][]float64{{0.1, 0.1}, {0.1, 0.2}}, [][]float64{{3, 2}, {1, 0}}, 1, 0, true},
		{"equal ties to the first", [][]float64{{0.1, 0.1}}, [][]float64{{2, 2}}, 0, 0, true},
		{"a NaN tie loses", [][]float64{{0.1, 0.1}}, [][]float64{{nan, 7}}, 0, 1, true},
		{"ties do not beat a smaller score", [][]float64{{0.2, 0.1}}, [][]float64{{0, 9}}, 0, 1, true},
		{"no finite score", [][]float64{{inf, nan}}, nil, -1, -1, false},
	} {
		tb := &Table{Sigmas: []float64{1, 2}[:len(c.scores)], Lambdas: []float64{0.1, 0.2}, Scores: c.scores, Ties: c.ties}
		a, j, ok := tb.BestAt()
		if a != c.a || j != c.j || ok != c.ok {
			t.Errorf("%s: BestAt %d, %d, %v; want %d, %d, %v", c.name, a, j, ok, c.a, c.j, c.ok)
		}
		if ch, ok := tb.Best(); ok && (ch.Sigma != tb.Sigmas[a] || ch.Lambda != tb.Lambdas[j] || ch.Score != c.scores[a][j]) {
			t.Errorf("%s: Best %+v, want the pair (%d, %d)", c.name, ch, a, j)
		}
	}
}

// TestTableBestIncremental: the choice after each σ's row is added is the
// choice of the rows so far, and it moves only into the row just added —
// what a selection that keeps only the best σ's fit relies on.
func TestTableBestIncremental(t *testing.T) {
	rows := [][]float64{{5, 4, 6}, {4, 4, 7}, {3, 9, 3}, {3, 3, 3}}
	ties := [][]float64{{1, 1, 1}, {2, 0, 1}, {5, 1, 4}, {9, 9, 9}}
	tb := &Table{Lambdas: []float64{1, 2, 3}}
	prev := -1
	for s := range rows {
		tb.Sigmas = append(tb.Sigmas, float64(s+1))
		tb.Scores, tb.Ties = append(tb.Scores, rows[s]), append(tb.Ties, ties[s])
		a, _, _ := tb.BestAt()
		if a != s && a != prev {
			t.Errorf("after row %d the choice moved to row %d, not the new row", s, a)
		}
		prev = a
	}
	if a, j, _ := tb.BestAt(); a != 2 || j != 2 {
		t.Errorf("final choice (%d, %d), want (2, 2): score 3 with the smallest tie 4", a, j)
	}
}

// TestTableFacts: edges of grids in any order, none for a grid of one
// value or of one value repeated; a flat table when every finite score
// agrees to FlatTolerance, not with one finite score or a real spread.
func TestTableFacts(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		sigmas, lambdas []float64
		scores          [][]float64
		sigma, lambda   float64
		want            Facts
	}{
		{[]float64{1, 2, 4}, []float64{1e-6, 1e-3, 1}, [][]float64{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}, 1, 1e-3, Facts{SigmaEdge: -1}},
		{[]float64{1, 2, 4}, []float64{1e-6, 1e-3, 1}, [][]float64{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}, 4, 1, Facts{SigmaEdge: 1, LambdaEdge: 1}},
		{[]float64{4, 2, 1}, []float64{1, 1e-6}, [][]float64{{1, 2}, {3, 4}, {5, 6}}, 2, 1e-6, Facts{LambdaEdge: -1}},
		{[]float64{3}, []float64{1e-2}, [][]float64{{1}}, 3, 1e-2, Facts{}},
		{[]float64{3}, []float64{1e-4, 1e-2}, [][]float64{{1, 2}}, 3, 1e-2, Facts{LambdaEdge: 1}},
		{[]float64{1, 1, 1}, []float64{1e-3, 1e-3}, [][]float64{{1, 2}, {1, 2}, {1, 2}}, 1, 1e-3, Facts{}},
		{[]float64{1, 2}, []float64{1e-3, 1e-2}, [][]float64{{84.75421, 84.754215}, {84.754212, inf}}, 2, 1e-3, Facts{SigmaEdge: 1, LambdaEdge: -1, Flat: true}},
		{[]float64{1, 2}, []float64{1e-3, 1e-2}, [][]float64{{0, 0}, {0, 0}}, 1, 1e-3, Facts{SigmaEdge: -1, LambdaEdge: -1, Flat: true}},
		{[]float64{1, 2}, []float64{1e-3, 1e-2}, [][]float64{{84.75, 84.76}, {84.8, inf}}, 2, 1e-3, Facts{SigmaEdge: 1, LambdaEdge: -1}},
		{[]float64{1, 2}, []float64{1e-3, 1e-2}, [][]float64{{5, inf}, {inf, inf}}, 1, 1e-3, Facts{SigmaEdge: -1, LambdaEdge: -1}},
	} {
		tb := &Table{Sigmas: c.sigmas, Lambdas: c.lambdas, Scores: c.scores}
		if got := tb.Facts(Choice{Sigma: c.sigma, Lambda: c.lambda}); got != c.want {
			t.Errorf("σ %g in %v, λ %g in %v, scores %v: %+v, want %+v", c.sigma, c.sigmas, c.lambda, c.lambdas, c.scores, got, c.want)
		}
	}
}

// TestTableFormatOneStar: repeated grid values star one cell, the pair
// Best chooses.
func TestTableFormatOneStar(t *testing.T) {
	tb := &Table{Sigmas: []float64{1, 1, 1}, Lambdas: []float64{1e-3, 1e-3}, Scores: [][]float64{{2, 2}, {2, 2}, {2, 2}}}
	c, _ := tb.Best()
	var b strings.Builder
	tb.Format(&b, c)
	if n := strings.Count(b.String(), "*"); n != 1 {
		t.Errorf("%d stars, want 1:\n%s", n, b.String())
	}
}

// TestTableFactsTies: error rates that tie everywhere are not flat while
// their tie values differ.
func TestTableFactsTies(t *testing.T) {
	tb := &Table{Sigmas: []float64{1}, Lambdas: []float64{1, 2}, Scores: [][]float64{{0.45, 0.45}}, Ties: [][]float64{{0.9, 0.95}}}
	if tb.Facts(Choice{Sigma: 1, Lambda: 1}).Flat {
		t.Errorf("flat with ties 0.9 and 0.95")
	}
	tb.Ties = [][]float64{{0.9, 0.9}}
	if !tb.Facts(Choice{Sigma: 1, Lambda: 1}).Flat {
		t.Errorf("not flat with equal scores and ties")
	}
}
