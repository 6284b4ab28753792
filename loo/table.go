package loo

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Choice is one selected parameter pair and its score.
type Choice struct {
	Sigma, Lambda, Score float64
}

// Table is the score of every (σ, λ) pair of a selection, and the one rule
// by which a selection chooses among them (Best). Every selection of rkhs —
// SelectRLS, SelectNystrom, classify.SelectRLS and the pipelines of
// package rkhs/beam — fills a Table and lets it choose, so that the same
// scores always give the same pair.
type Table struct {
	// Criterion is what Scores hold (for Format's header).
	Criterion Criterion
	// Sigmas and Lambdas are the grids, in the order the caller gave them.
	Sigmas, Lambdas []float64
	// Scores[a][j] is the criterion at Sigmas[a] and Lambdas[j]: +Inf (or
	// NaN) where the system is numerically singular, which is never
	// chosen.
	Scores [][]float64
	// Ties, if not nil, has the shape of Scores and breaks ties of equal
	// scores: the smaller Ties value wins. A selection by the
	// leave-one-out error rate, whose values are multiples of 1/n and tie
	// often, breaks them by the leave-one-out MSE.
	Ties [][]float64
}

// BestAt returns the indices of the pair the table chooses,
// Scores[a][j]: the smallest finite score; among equal scores, the
// smaller Ties value (when Ties is set; NaN loses); then the first in grid
// order, σ before λ — every λ of Sigmas[0], then of Sigmas[1], and so on.
// ok is false when no score is finite. Adding a row for another σ can only
// move the choice into that row, so a selection that keeps only the best
// fit so far may call BestAt after each σ.
func (t *Table) BestAt() (a, j int, ok bool) {
	a, j = -1, -1
	for r, row := range t.Scores {
		for c, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			if a >= 0 && !t.beats(r, c, a, j) {
				continue
			}
			a, j = r, c
		}
	}
	return a, j, a >= 0
}

// beats reports whether the finite score at (r, c) beats the one at
// (a, j), which comes first in grid order.
func (t *Table) beats(r, c, a, j int) bool {
	v, w := t.Scores[r][c], t.Scores[a][j]
	if v != w || t.Ties == nil {
		return v < w
	}
	tv, tw := t.Ties[r][c], t.Ties[a][j]
	return tv < tw || math.IsNaN(tw) && !math.IsNaN(tv)
}

// Best returns the pair BestAt chooses, with its score; ok is false when
// no score is finite.
func (t *Table) Best() (c Choice, ok bool) {
	a, j, ok := t.BestAt()
	if !ok {
		return Choice{}, false
	}
	return Choice{Sigma: t.Sigmas[a], Lambda: t.Lambdas[j], Score: t.Scores[a][j]}, true
}

// FlatTolerance is the relative spread of the finite scores of a table
// below which Facts calls it flat: they agree to six significant digits,
// as Format prints them.
const FlatTolerance = 1e-6

// Facts are what the user of a selection should be told about its choice,
// as data that a command prints.
type Facts struct {
	// SigmaEdge and LambdaEdge say where the choice lies in each grid: −1
	// at its smallest value, +1 at its largest, 0 inside it or in a grid
	// of one distinct value. A choice on an edge says that the criterion
	// may keep falling beyond the grid, which should be widened on that
	// side.
	SigmaEdge, LambdaEdge int
	// Flat reports a table that does not tell the pairs apart: at least
	// two finite scores, all within FlatTolerance (relative) of each
	// other, and the same of the tie values if any. The choice is then only the first pair in grid order: the
	// data (too few rows, a kernel width at which K is numerically the
	// identity or all ones, labels too small to square) say nothing about
	// σ and λ.
	Flat bool
}

// Facts returns the facts about the choice c, a pair of the table.
func (t *Table) Facts(c Choice) Facts {
	return Facts{SigmaEdge: gridEdge(t.Sigmas, c.Sigma), LambdaEdge: gridEdge(t.Lambdas, c.Lambda),
		Flat: flat(t.Scores) && (t.Ties == nil || flat(t.Ties))}
}

// flat reports at least two finite values in v, all within FlatTolerance
// (relative) of each other.
func flat(v [][]float64) bool {
	lo, hi, finite := math.Inf(1), math.Inf(-1), 0
	for _, row := range v {
		for _, x := range row {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				continue
			}
			lo, hi, finite = min(lo, x), max(hi, x), finite+1
		}
	}
	return finite >= 2 && hi-lo <= FlatTolerance*max(math.Abs(lo), math.Abs(hi))
}

// gridEdge is the edge of v in grid (see Facts): a grid with fewer than
// two distinct values has no edges.
func gridEdge(grid []float64, v float64) int {
	if len(grid) == 0 {
		return 0
	}
	lo, hi := slices.Min(grid), slices.Max(grid)
	switch {
	case lo == hi:
		return 0
	case v == lo:
		return -1
	case v == hi:
		return 1
	}
	return 0
}

// Format writes the table as text to w: a header naming the criterion
// and every σ, then one row per λ with the score of every σ (6
// significant digits), the pair chosen starred (the first pair of its
// values, as Best chooses among repeated grid values), in columns padded
// with spaces (none at the end of a line), in one write, whose error it
// returns.
func (t *Table) Format(w io.Writer, chosen Choice) error {
	var b strings.Builder
	var lines []string
	cell := func(s string) string { return fmt.Sprintf(" %-13s", s) }
	head := fmt.Sprintf("%-11s", t.Criterion.String())
	for _, sg := range t.Sigmas {
		head += cell("σ=" + strconv.FormatFloat(sg, 'g', 4, 64))
	}
	lines = append(lines, head)
	sa, sj := slices.Index(t.Sigmas, chosen.Sigma), slices.Index(t.Lambdas, chosen.Lambda)
	for j, l := range t.Lambdas {
		row := fmt.Sprintf("λ=%-9.3g", l)
		for a := range t.Sigmas {
			mark := " "
			if a == sa && j == sj {
				mark = "*"
			}
			row += cell(strconv.FormatFloat(t.Scores[a][j], 'g', 6, 64) + mark)
		}
		lines = append(lines, row)
	}
	for _, l := range lines {
		b.WriteString(strings.TrimRight(l, " "))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}
