package cli

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"rkhs/loo"
)

// Selection is what a run of a command chose and the table behind it, as
// both commands report it: the table and the chosen line (PrintTable), the
// fields of -json (Fields), the warnings (WarnFacts) and the curves of
// -plot (Plot).
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
// rows training rows, the σ grid a multiple of median (0: given).
func FromNystrom(r *loo.NystromSelection, median float64, rows int) *Selection {
	s := NewSelection(r.Scores, r.Choice, median, rows)
	a, j := slices.Index(r.Scores.Sigmas, r.Sigma), slices.Index(r.Scores.Lambdas, r.Lambda)
	if a >= 0 && j >= 0 && r.LOO[a] != nil {
		s.LOOMSE, s.LOORows = r.LOO[a][j], r.LOORows
		if se := r.StdErr[a][j]; se > 0 {
			s.StdErr = se
		}
	}
	return s
}

// SelectionFields are the fields of a selection in the JSON of rkhs fit
// and classify and of rkhs-beam select. The top level describes the model
// saved (PairFields): the grid's pair, or, when a descent of one length
// scale per feature (-sigma ard) went on from it and its model is the one
// saved, the scales' figures, with no single sigma (the scales are the
// sigmas of ScalesFields) and the grid's pair under grid_ (GridFields).
// Beside them: the median distance (a σ grid around it), the criterion of
// the table, and the whole table.
type SelectionFields struct {
	PairFields
	MedianDistance *JSONFloat `json:"median_distance,omitempty"`
	Criterion      string     `json:"criterion,omitempty"`
	*GridFields
	Table *TableJSON `json:"table,omitempty"`
}

// PairFields are the figures of the model saved: its σ (none for one σ
// per feature), the leave-one-out MSE, the leave-one-out error rate when
// it is the criterion (classes), GCV with the GCV criterion, the rows the
// leave-one-out mean is over, and the standard error of the leave-one-out
// score (of loo_mse, or of the error rate for classes) as an estimate of
// its value over every row when a subset was drawn.
type PairFields struct {
	Sigma     *JSONFloat `json:"sigma,omitempty"`
	LooMSE    *JSONFloat `json:"loo_mse,omitempty"`
	LOOError  *JSONFloat `json:"loo_error,omitempty"`
	GCV       *JSONFloat `json:"gcv,omitempty"`
	LOORows   int        `json:"loo_rows,omitempty"`
	LOOStdErr *JSONFloat `json:"loo_stderr,omitempty"`
}

// GridFields are, when a descent's model is saved, the grid's pair where
// it started and that pair's figures, as PairFields has them.
type GridFields struct {
	GridSigma     JSONFloat  `json:"grid_sigma"`
	GridLambda    JSONFloat  `json:"grid_lambda"`
	GridLooMSE    *JSONFloat `json:"grid_loo_mse,omitempty"`
	GridLOOError  *JSONFloat `json:"grid_loo_error,omitempty"`
	GridGCV       *JSONFloat `json:"grid_gcv,omitempty"`
	GridLOORows   int        `json:"grid_loo_rows,omitempty"`
	GridLOOStdErr *JSONFloat `json:"grid_loo_stderr,omitempty"`
}

// TableJSON is the table in -json.
type TableJSON struct {
	Criterion string        `json:"criterion"`
	Sigmas    []JSONFloat   `json:"sigmas"`
	Lambdas   []JSONFloat   `json:"lambdas"`
	Scores    [][]JSONFloat `json:"scores"` // [σ][λ]; null where the system is singular
}

// Fields returns the JSON fields of s, and of the descent sc that went on
// from its choice and whose model is saved (nil: none, or the grid's model
// kept); a nil s gives none.
func (s *Selection) Fields(sc *Scales) SelectionFields {
	if s == nil {
		return SelectionFields{}
	}
	r := SelectionFields{PairFields: s.pair(), Criterion: s.Table.Criterion.String()}
	if s.Median > 0 {
		r.MedianDistance = JSONPtr(s.Median)
	}
	if sc != nil {
		g := r.PairFields
		r.GridFields = &GridFields{GridSigma: *g.Sigma, GridLambda: JSONFloat(s.Choice.Lambda), GridLooMSE: g.LooMSE, GridLOOError: g.LOOError,
			GridGCV: g.GCV, GridLOORows: g.LOORows, GridLOOStdErr: g.LOOStdErr}
		r.PairFields = sc.pair()
	}
	t := &TableJSON{Criterion: s.Table.Criterion.String(), Sigmas: JSONFloats(s.Table.Sigmas), Lambdas: JSONFloats(s.Table.Lambdas)}
	for _, row := range s.Table.Scores {
		t.Scores = append(t.Scores, JSONFloats(row))
	}
	r.Table = t
	return r
}

// pair returns the figures of the grid's choice.
func (s *Selection) pair() PairFields {
	p := PairFields{Sigma: JSONPtr(s.Choice.Sigma), LOORows: s.LOORows}
	if !math.IsNaN(s.LOOMSE) {
		p.LooMSE = JSONPtr(s.LOOMSE)
	}
	switch s.Table.Criterion {
	case loo.LOOErrorRate:
		p.LOOError = JSONPtr(s.Choice.Score)
	case loo.GCV:
		p.GCV = JSONPtr(s.Choice.Score)
	}
	if s.StdErr > 0 {
		p.LOOStdErr = JSONPtr(s.StdErr)
	}
	return p
}

// JSONPtr returns a pointer to v as a JSONFloat.
func JSONPtr(v float64) *JSONFloat {
	j := JSONFloat(v)
	return &j
}

// PrintTable writes the table, one row per λ and one column per σ, the
// chosen pair starred, then the choice in one line.
func (s *Selection) PrintTable(w io.Writer) {
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
// per σ, the chosen point circled.
func (s *Selection) Plot(title string) []byte {
	colors := []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"}
	t := s.Table
	p := Panel{Title: title, XLabel: "λ (K + nλI)", YLabel: t.Criterion.String(), LogX: true}
	a, j, _ := t.BestAt()
	for b, sg := range t.Sigmas {
		sr := Series{Name: "σ = " + strconv.FormatFloat(sg, 'g', 4, 64), Color: colors[b%len(colors)], Marker: -1,
			X: t.Lambdas, Y: t.Scores[b]}
		if b == a {
			sr.Marker = j
		}
		p.Series = append(p.Series, sr)
	}
	return []byte(SVG(p))
}
