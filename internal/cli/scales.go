package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/optimize"
)

// One Gaussian length scale per feature (-sigma ard, automatic relevance
// determination) as both commands read and report it: the value of
// -sigma (SigmaValue), the flags -ard-rows and -ard-iters (ARDFlags), the
// progress line of an iteration (ScalesProgress), and the report of a
// descent (Scales): its table of scales, the fields of -json and the
// curve of -plot.

// SigmaValue is the value of -sigma: a number, auto (σ chosen over a
// grid) or ard (the σ and λ of auto, then one length scale per feature
// learnt from them by loo.SelectScales). ard sets Auto too, since
// everything auto implies — the σ grid, -standardize auto on — holds for
// the grid's search that starts the descent.
type SigmaValue struct {
	AutoValue
	ARD bool
}

// String returns "ard", "auto" or the number.
func (s *SigmaValue) String() string {
	if s.ARD {
		return "ard"
	}
	return s.AutoValue.String()
}

// Set reads "ard", "auto" or a number, with flag.Float64's errors.
func (s *SigmaValue) Set(v string) error {
	if v == "ard" {
		s.V, s.Auto, s.ARD = 0, true, true
		return nil
	}
	s.ARD = false
	return s.AutoValue.Set(v)
}

// -ard-rows auto, the default: the library's rows of a descent
// (loo.DefaultDescentRows): every row of a training set of up to
// AutoARDAbove rows, and AutoARDRows rows drawn at random above that
// (loo.SelectScales.Rows; its leave-one-out subset, -loo-rows, among them).
const (
	AutoARDAbove = loo.DefaultDescentAbove
	AutoARDRows  = loo.DefaultDescentSubset
)

// ARDFlags are the flags of a descent, -ard-rows (Rows: auto, 0 for
// every row, or a count) and -ard-iters (Iters: the budget of L-BFGS
// iterations, 0 the library's).
type ARDFlags struct {
	Rows  AutoValue
	Iters int
}

// Register adds -ard-rows and -ard-iters to fs, Rows auto.
func (a *ARDFlags) Register(fs *flag.FlagSet) {
	a.Rows = AutoValue{Auto: true}
	fs.Var(&a.Rows, "ard-rows", fmt.Sprintf("-sigma ard: descend on this many rows drawn at random (-seed) (in rkhs, the rows of its -loo-rows subset among them); the final fit on every row; 0: every row; auto: every row up to %d rows, %d above", AutoARDAbove, AutoARDRows))
	fs.IntVar(&a.Iters, "ard-iters", 0, "-sigma ard: the budget of L-BFGS iterations, each about one evaluation of the criterion and its gradient (three passes over the rows); 0: 50")
}

// Check checks the flags for a run with -sigma sigma and -kernel kernel,
// given the flags the command line gave: -ard-rows auto, 0 or a whole
// number ≥ 2 (a fit on one row has no leave-one-out error), -ard-iters
// ≥ 0, neither given without -sigma ard, and -sigma ard with the
// Gaussian kernel only (the scales are its widths).
func (a *ARDFlags) Check(sigma SigmaValue, kernel string, given map[string]bool) error {
	n, ok, err := a.Rows.WholeCount("ard-rows")
	switch {
	case err != nil:
		return err
	case ok && n == 1:
		return BadInputf("-ard-rows 1: want 0 (every row), auto, or at least 2 rows (a fit on one row has no leave-one-out error)")
	case a.Iters < 0:
		return BadInputf("-ard-iters %d: want ≥ 0 (0 selects the library's budget of 50 iterations)", a.Iters)
	case sigma.ARD && kernel != "gaussian" && kernel != "laplacian":
		return BadInputf("-sigma ard: one length scale per feature is learnt for the gaussian and laplacian kernels, not %s", kernel)
	}
	for _, f := range []string{"ard-rows", "ard-iters"} {
		if given[f] && !sigma.ARD {
			return BadInputf("-%s is for -sigma ard", f)
		}
	}
	return nil
}

// RowsOf returns loo.SelectScales.Rows for n training rows (Rows
// checked): 0 (every row) or the rows the descent fits on.
func (a *ARDFlags) RowsOf(n int) int {
	if a.Rows.Auto {
		return loo.DefaultDescentRows(n)
	}
	return int(a.Rows.V)
}

// CheckARDRows refuses a descent subset of rows (loo.SelectScales.Rows,
// drawn when below the n training rows) smaller than
// loo.MinDescentRows of its m centres: on fewer than two rows a centre
// the fit nearly interpolates the rows it descends on, and its scales
// can do worse on every row than the grid's σ.
func CheckARDRows(rows, n, m int) error {
	if min := loo.MinDescentRows(m); rows > 0 && rows < n && rows < min {
		return BadInputf("-ard-rows %d: below %d, twice the %d centres (and at least 30): on so few rows a centre the descent fits the rows it descends on nearly exactly, and its scales say little about the others; raise -ard-rows, or lower -centers", rows, min, m)
	}
	return nil
}

// ARDRowsError returns err of a descent on rows of the n training rows
// (loo.SelectScales.Fit) in the words of -ard-rows when it blames the
// rows drawn — they hold one class, or one value of the label — and err
// otherwise.
func ARDRowsError(err error, rows, n int) error {
	var ie *linalg.InputError
	if errors.As(err, &ie) && ie.Arg == "Rows" && rows > 0 && rows < n {
		return BadInputf("-ard-rows %d: the %d rows drawn at random (-seed) for the descent hold one class (or one value of the label), where the %d training rows hold several: the descent has nothing to reduce on them; raise -ard-rows", rows, rows, n)
	}
	return err
}

// WorseWarning says why the grid's model is kept, the grid's objective
// being grid (see loo.ScaleSelection.Worse).
func (s *Scales) WorseWarning(grid float64) string {
	of := ""
	if s.Sel.FitRows < s.Rows {
		of = fmt.Sprintf(", learnt on %d of the %s (-ard-rows),", s.Sel.FitRows, Count(s.Rows, "row"))
	}
	return fmt.Sprintf("the length scales%s do worse on every row than the grid's σ = %.4g, λ = %.4g (%s %.6g against %.6g): the model saved is the grid's; raise -ard-rows, or give -sigma auto",
		of, s.Sigma, s.Lambda, objectiveName(s.Criterion), s.Sel.Objective, grid)
}

// ScalesProgress returns loo.SelectScales.Progress for a command: one
// line on w an iteration, prefixed by prefix ("rkhs fit -method
// nystrom"), with the iteration (0 the start), the objective (named by
// criterion), the projected gradient norm of the objective divided by
// its start and the seconds since the descent began.
func ScalesProgress(w io.Writer, prefix string, criterion loo.Criterion) func(iter int, objective, projGrad, seconds float64) {
	name := objectiveName(criterion)
	return func(iter int, objective, projGrad, seconds float64) {
		fmt.Fprintf(w, "%s: ard iteration %d: %s %.6g, projected gradient %.2g, %.1f s\n", prefix, iter, name, objective, projGrad, seconds)
	}
}

// objectiveName names the objective of a descent by criterion c: GCV, or
// the mean squared leave-one-out residual (of the ±1 codes with
// loo.LOOErrorRate, whose error rate is reported beside it).
func objectiveName(c loo.Criterion) string {
	if c == loo.GCV {
		return "gcv"
	}
	return "loo_mse"
}

// Scales is the report of a descent of one length scale per feature
// (loo.SelectScales) as both commands print it: the scales ranked
// (PrintTable), the fields of -json (Fields) and the objective against
// the iteration (Plot).
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

// ScalesFields are the fields of a descent in the JSON of rkhs fit and
// classify: the scales σ_j in the order of the columns (in standard
// deviations of the features when standardized) with the features'
// names, the features from the most relevant to the least as 0-based
// columns (loo.ScaleSelection.Ranking) and the constant ones; the
// criterion of the objective (loo_mse, of the ±1 codes for classes, or
// gcv), its value at the scales on every row, its standard error as an
// estimate of every row's value when the leave-one-out mean is over a
// subset of ard_loo_rows rows, the leave-one-out error rate for classes
// and its standard error with a subset; the rows the descent fitted on, the
// objective there at the start and after each iteration, the iterations,
// the evaluations of the objective and its gradient, and why the descent
// stopped (optimize.StopReason).
type ScalesFields struct {
	Sigmas          []JSONFloat `json:"sigmas"`
	FeatureNames    []string    `json:"feature_names,omitempty"`
	Ranking         []int       `json:"ard_ranking"`
	Constant        []int       `json:"ard_constant,omitempty"`
	Criterion       string      `json:"ard_criterion"`
	Objective       JSONFloat   `json:"ard_objective"`
	StdErr          *JSONFloat  `json:"ard_stderr,omitempty"`
	LOORows         int         `json:"ard_loo_rows,omitempty"`
	ErrorRate       *JSONFloat  `json:"ard_loo_error,omitempty"`
	ErrorRateStdErr *JSONFloat  `json:"ard_loo_error_stderr,omitempty"`
	FitRows         int         `json:"ard_rows"`
	Start           JSONFloat   `json:"ard_start"`
	History         []JSONFloat `json:"ard_history"`
	Iterations      int         `json:"ard_iterations"`
	Evaluations     int         `json:"ard_evaluations"`
	Stop            string      `json:"ard_stop"`
}

// Fields returns the JSON fields of s; a nil s gives nil.
func (s *Scales) Fields() *ScalesFields {
	if s == nil {
		return nil
	}
	r := s.Sel
	f := &ScalesFields{Sigmas: JSONFloats(r.Sigmas), FeatureNames: s.Names, Ranking: r.Ranking(), Constant: r.Constant,
		Criterion: objectiveName(s.Criterion), Objective: JSONFloat(r.Objective), LOORows: r.LOORows, FitRows: r.FitRows,
		Start: JSONFloat(r.Start), History: JSONFloats(r.History), Iterations: r.Iterations, Evaluations: r.Evaluations, Stop: r.Stop.String()}
	if r.StdErr > 0 {
		f.StdErr = JSONPtr(r.StdErr)
	}
	if s.Criterion == loo.LOOErrorRate {
		f.ErrorRate = JSONPtr(r.ErrorRate)
		if r.ErrorRateStdErr > 0 {
			f.ErrorRateStdErr = JSONPtr(r.ErrorRateStdErr)
		}
	}
	return f
}

// pair returns the figures of the descent's model as the top level of
// -json has them (SelectionFields): no single σ, and the objective on
// every row under the criterion's name, the error rate beside it for
// classes, its standard error that of the error rate then.
func (s *Scales) pair() PairFields {
	r := s.Sel
	p := PairFields{LOORows: r.LOORows}
	stderr := r.StdErr
	switch s.Criterion {
	case loo.GCV:
		p.GCV = JSONPtr(r.Objective)
	case loo.LOOErrorRate:
		p.LooMSE, p.LOOError, stderr = JSONPtr(r.Objective), JSONPtr(r.ErrorRate), r.ErrorRateStdErr
	default:
		p.LooMSE = JSONPtr(r.Objective)
	}
	if stderr > 0 {
		p.LOOStdErr = JSONPtr(stderr)
	}
	return p
}

// PrintTable writes the descent in a line, the scales from the most
// relevant feature to the least (a constant feature last, marked), and
// the objective at the scales on every row in a line.
func (s *Scales) PrintTable(w io.Writer) {
	r, name := s.Sel, objectiveName(s.Criterion)
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
// circled.
func (s *Scales) Plot(title string) []byte {
	r := s.Sel
	y := append([]float64{r.Start}, r.History...)
	x := make([]float64, len(y))
	for i := range x {
		x[i] = float64(i)
	}
	name := objectiveName(s.Criterion)
	p := Panel{Title: title, XLabel: "L-BFGS iteration", YLabel: name, CountX: true, Series: []Series{{
		Name: fmt.Sprintf("%s, %s", name, Count(len(r.Sigmas), "scale")), Color: "#1f77b4", X: x, Y: y, Marker: len(y) - 1}}}
	return []byte(SVG(p))
}
