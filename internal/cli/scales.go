package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/report"
)

// One Gaussian length scale per feature (-sigma ard, automatic relevance
// determination) as both commands read it: the value of -sigma
// (SigmaValue), the flags -ard-rows and -ard-iters (ARDFlags) and the
// progress line of an iteration (ScalesProgress); the report of a descent
// is report.Scales, its -json fields ScalesJSON.

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
	fs.Var(&a.Rows, "ard-rows", fmt.Sprintf("-sigma ard: descend on this many rows drawn at random (-seed) (in rkhs, the rows of its -loo-rows subset among them); the final fit on every row; 0: every row; auto: every row up to %d rows, %d above", loo.DefaultDescentAbove, loo.DefaultDescentSubset))
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

// ScalesProgress returns loo.SelectScales.Progress for a command: one
// line on w an iteration, prefixed by prefix ("rkhs fit -method
// nystrom"), with the iteration (0 the start), the objective (named by
// criterion), the projected gradient norm of the objective divided by
// its start and the seconds since the descent began.
func ScalesProgress(w io.Writer, prefix string, criterion loo.Criterion) func(iter int, objective, projGrad, seconds float64) {
	name := report.ObjectiveName(criterion)
	return func(iter int, objective, projGrad, seconds float64) {
		fmt.Fprintf(w, "%s: ard iteration %d: %s %.6g, projected gradient %.2g, %.1f s\n", prefix, iter, name, objective, projGrad, seconds)
	}
}
