package report

import (
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"rkhs/loo"
	"rkhs/optimize"
)

// Scales is the report of a descent of one length scale per feature
// (loo.SelectScales) as rkhs and rkhs-beam print it: the scales ranked
// (PrintTable), the objective against the iteration (Plot), and why the
// grid's model is kept when the scales do worse (WorseWarning).
type Scales struct {
	// Sel is the descent's result.
	Sel *loo.ScaleSelection
	// Criterion is the criterion of its objective.
	Criterion loo.Criterion
	// Sigma and Lambda are the isotropic start (σ₀, λ₀): the grid's
	// choice.
	Sigma, Lambda float64
	// Names are the features' column names (nil: positions).
	Names []string
	// Rows is the number of training rows; Standardized says whether the
	// scales are in standard deviations of the features (or in their
	// units).
	Rows         int
	Standardized bool
}

// WorseWarning says why the grid's model is kept, the grid's objective
// being grid (see loo.ScaleSelection.Worse); a nil s, or one without its
// result Sel, says nothing.
func (s *Scales) WorseWarning(grid float64) string {
	if s == nil || s.Sel == nil {
		return ""
	}
	of := ""
	if s.Sel.FitRows < s.Rows {
		of = fmt.Sprintf(", learnt on %d of the %s (-ard-rows),", s.Sel.FitRows, Count(s.Rows, "row"))
	}
	return fmt.Sprintf("the length scales%s do worse on every row than the grid's σ = %.4g, λ = %.4g (%s %.6g against %.6g): the model saved is the grid's; raise -ard-rows, or give -sigma auto",
		of, s.Sigma, s.Lambda, ObjectiveName(s.Criterion), s.Sel.Objective, grid)
}

// ObjectiveName names the objective of a descent by criterion c: GCV, or
// the mean squared leave-one-out residual (of the ±1 codes with
// loo.LOOErrorRate, whose error rate is reported beside it).
func ObjectiveName(c loo.Criterion) string {
	if c == loo.GCV {
		return "gcv"
	}
	return "loo_mse"
}

// PrintTable writes the descent in a line, the scales from the most
// relevant feature to the least (a constant feature last, marked), and
// the objective at the scales on every row in a line; a nil s, or one
// without its result Sel, writes nothing.
func (s *Scales) PrintTable(w io.Writer) {
	if s == nil || s.Sel == nil {
		return
	}
	r, name := s.Sel, ObjectiveName(s.Criterion)
	of := Count(r.FitRows, "row")
	if r.FitRows < s.Rows {
		of = fmt.Sprintf("%d of the %s, drawn at random", r.FitRows, Count(s.Rows, "row"))
	}
	stop := map[optimize.StopReason]string{optimize.StopMaxIter: "the budget of iterations (-ard-iters) spent",
		optimize.StopTol: "converged (an iteration's decrease below the tolerance)", optimize.StopRelTol: "converged (a decrease below the tolerance)",
		optimize.StopGradTol:    "converged (the projected gradient below the tolerance)",
		optimize.StopLineSearch: "no step decreases it further"}[r.Stop]
	fmt.Fprintf(w, "ard from σ = %.4g, λ = %.4g: %s %.6g → %.6g on %s in %s (%s); stopped: %s\n",
		s.Sigma, s.Lambda, name, r.Start, last(r.History, r.Start), of, Count(r.Iterations, "iteration"), Count(r.Evaluations, "evaluation"), stop)
	unit := "standard deviations"
	if !s.Standardized {
		unit = "units of the feature"
	}
	width := 16 // the feature column: as wide as the longest name
	for j := range r.Sigmas {
		width = max(width, utf8.RuneCountInString(columnName(s.Names, j)))
	}
	fmt.Fprintf(w, "rank  %-*s σ_j (%s)\n", width, "feature", unit)
	constant := make(map[int]bool, len(r.Constant))
	for _, j := range r.Constant {
		constant[j] = true
	}
	for i, j := range r.Ranking() {
		v := strconv.FormatFloat(r.Sigmas[j], 'g', 4, 64)
		if constant[j] {
			v = "constant (its σ_j, the start's, is meaningless)"
		}
		fmt.Fprintf(w, "%4d  %-*s %s\n", i+1, width, columnName(s.Names, j), v)
	}
	fmt.Fprintf(w, "chosen λ = %.4g with these scales: %s %.6g", r.Lambda, name, r.Objective)
	if r.StdErr > 0 {
		fmt.Fprintf(w, " ± %.2g (one standard error of the estimate)", r.StdErr)
	}
	if r.LOORows > 0 && r.LOORows < s.Rows {
		fmt.Fprintf(w, " over %d of the %s, drawn at random", r.LOORows, Count(s.Rows, "row"))
	} else if r.LOORows > 0 {
		fmt.Fprintf(w, " over %s", Count(r.LOORows, "row"))
	}
	if s.Criterion == loo.LOOErrorRate {
		fmt.Fprintf(w, ", loo_error %.4f", r.ErrorRate)
		if r.ErrorRateStdErr > 0 {
			fmt.Fprintf(w, " ± %.2g", r.ErrorRateStdErr)
		}
	}
	fmt.Fprintln(w)
}

// last returns the last of v, or def when v is empty.
func last(v []float64, def float64) float64 {
	if len(v) == 0 {
		return def
	}
	return v[len(v)-1]
}

// columnName names column j (0-based) in a table: its name, or its
// 1-based position.
func columnName(names []string, j int) string {
	if j < len(names) {
		return names[j]
	}
	return strconv.Itoa(j + 1)
}

// Plot returns the SVG of the descent: the objective on the descent's
// rows against the iteration (0 the start), one curve, the last point
// circled; a nil s, or one without its result Sel, an empty page.
func (s *Scales) Plot(title string) []byte {
	if s == nil || s.Sel == nil {
		return []byte(SVG())
	}
	r := s.Sel
	y := append([]float64{r.Start}, r.History...)
	x := make([]float64, len(y))
	for i := range x {
		x[i] = float64(i)
	}
	name := ObjectiveName(s.Criterion)
	p := Panel{Title: title, XLabel: "L-BFGS iteration", YLabel: name, CountX: true, Series: []Series{{
		Name: fmt.Sprintf("%s, %s", name, Count(len(r.Sigmas), "scale")), Color: "#1f77b4", X: x, Y: y, Marker: len(y) - 1}}}
	return []byte(SVG(p))
}
