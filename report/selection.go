package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"rkhs/loo"
)

// Selection is what a selection of σ and λ over a grid chose and the
// table behind it (loo.Table, loo.Choice), as rkhs and rkhs-beam report
// it: the table and the chosen line (PrintTable), the warnings
// (WarnFacts) and the curves of the table (Plot).
type Selection struct {
	// Table is the table of the criterion, which chose Choice.
	Table  *loo.Table
	Choice loo.Choice
	// Median is the median distance between rows that the σ grid is a
	// multiple of; 0 when the grid was given.
	Median float64
	// LOOMSE is the leave-one-out MSE at the chosen pair (NaN when not
	// computed: the GCV criterion), over LOORows of the Rows training
	// rows (fewer with a subset), with the standard error StdErr of the
	// criterion's leave-one-out score as an estimate of its value over
	// every row (0 when exact or not computed).
	LOOMSE        float64
	LOORows, Rows int
	StdErr        float64
	// Start says that the choice is only where a descent of one length
	// scale per feature starts (-sigma ard), which goes far beyond the
	// grid: an edge of the grid is then no limit, and not warned about.
	Start bool
}

// NewSelection returns the Selection of a table and its choice, with no
// leave-one-out facts yet (LOOMSE NaN).
func NewSelection(t *loo.Table, c loo.Choice, median float64, rows int) *Selection {
	return &Selection{Table: t, Choice: c, Median: median, LOOMSE: math.NaN(), Rows: rows}
}

// FromNystrom returns the Selection of loo.SelectNystrom's result r on
// rows training rows, the σ grid a multiple of median (0: given); a nil r,
// or one without its table Scores, gives nil.
func FromNystrom(r *loo.NystromSelection, median float64, rows int) *Selection {
	if r == nil || r.Scores == nil {
		return nil
	}
	s := NewSelection(r.Scores, r.Choice, median, rows)
	a, j := slices.Index(r.Scores.Sigmas, r.Sigma), slices.Index(r.Scores.Lambdas, r.Lambda)
	if a >= 0 && j >= 0 && a < len(r.LOO) && j < len(r.LOO[a]) {
		s.LOOMSE, s.LOORows = r.LOO[a][j], r.LOORows
		if a < len(r.StdErr) && j < len(r.StdErr[a]) && r.StdErr[a][j] > 0 {
			s.StdErr = r.StdErr[a][j]
		}
	}
	return s
}

// PrintTable writes the table, one row per λ and one column per σ, the
// chosen pair starred, then the choice in one line; a nil s, or one
// without a table, writes nothing.
func (s *Selection) PrintTable(w io.Writer) {
	if s == nil || s.Table == nil {
		return
	}
	c := s.Choice
	s.Table.Format(w, c)
	fmt.Fprintf(w, "chosen σ = %.4g", c.Sigma)
	if s.Median > 0 {
		fmt.Fprintf(w, " (median distance %.4g × %.3g)", s.Median, c.Sigma/s.Median)
	}
	fmt.Fprintf(w, ", λ = %.4g: %s %.6g", c.Lambda, s.Table.Criterion, c.Score)
	if s.StdErr > 0 {
		fmt.Fprintf(w, " ± %.2g (one standard error of the estimate)", s.StdErr)
	}
	switch {
	case s.LOORows > 0 && s.LOORows < s.Rows:
		fmt.Fprintf(w, " over %d of the %s, drawn at random", s.LOORows, Count(s.Rows, "row"))
	case s.LOORows > 0:
		fmt.Fprintf(w, " over %s", Count(s.LOORows, "row"))
	}
	fmt.Fprintln(w)
}

// TinyRows is the number of training rows at or below which a selection
// is warned about whatever its table says: leave-one-out on at most five
// rows fits each held-out row from four or fewer, and its score says
// little about σ and λ, nor about the error on new rows (a descent of one
// length scale per feature, which has as many parameters as such data
// has rows, fits them by heart).
const TinyRows = 5

// WarnFacts prints the warnings about the choice (see the function
// WarnFacts), but for the edges of a Start, after one about data of at
// most TinyRows rows; a nil s prints none.
func (s *Selection) WarnFacts(w io.Writer, prefix string) {
	if s == nil {
		return
	}
	WarnTiny(w, prefix, s.Rows)
	warnFacts(w, prefix, s.Table, s.Choice, !s.Start)
}

// WarnTiny prints the warning of a selection by leave-one-out on n rows
// when 0 < n ≤ TinyRows (see TinyRows), and nothing otherwise: every
// verb that chooses by leave-one-out says it the same way.
func WarnTiny(w io.Writer, prefix string, n int) {
	if n > 0 && n <= TinyRows {
		fmt.Fprintf(w, "%s: warning: only %s: leave-one-out fits each row from the %d others, which says little about σ and λ, and the scores are no estimate of the error on new rows; give more rows\n",
			prefix, Count(n, "training row"), n-1)
	}
}

// Plot returns the SVG of the table: the criterion against λ, one curve
// per σ, the chosen point circled; a nil s, or one without a table, an
// empty page.
func (s *Selection) Plot(title string) []byte {
	if s == nil || s.Table == nil {
		return []byte(SVG())
	}
	colors := []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"}
	t := s.Table
	p := Panel{Title: title, XLabel: "λ (K + nλI)", YLabel: t.Criterion.String(), LogX: true}
	a, j, _ := t.BestAt()
	for b, sg := range t.Sigmas[:min(len(t.Sigmas), len(t.Scores))] {
		sr := Series{Name: "σ = " + strconv.FormatFloat(sg, 'g', 4, 64), Color: colors[b%len(colors)], Marker: -1,
			X: t.Lambdas, Y: t.Scores[b]}
		if b == a {
			sr.Marker = j
		}
		p.Series = append(p.Series, sr)
	}
	return []byte(SVG(p))
}
