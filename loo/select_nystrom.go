package loo

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"rkhs/internal/check"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// Criterion is what a selection minimizes.
type Criterion int

const (
	// LOOMSE is the mean squared exact leave-one-out residual: a second
	// streamed pass (NystromPath.Add; one for all σ of a radial kernel).
	LOOMSE Criterion = iota
	// GCV is generalized cross-validation from the statistics alone: one
	// pass (per σ, or one for all σ of a radial kernel).
	GCV
	// LOOErrorRate is the share of rows whose leave-one-out prediction has
	// the wrong class (outputs coding classes: one ±1 output, or one
	// against all), ties broken by the leave-one-out MSE.
	LOOErrorRate
)

// String returns "loo_mse", "gcv" or "loo_error".
func (c Criterion) String() string {
	switch c {
	case LOOMSE:
		return "loo_mse"
	case GCV:
		return "gcv"
	case LOOErrorRate:
		return "loo_error"
	}
	return fmt.Sprintf("Criterion(%d)", int(c))
}

// SelectNystrom chooses the kernel width σ and λ of a Nyström fit by exact
// leave-one-out (or GCV) over a σ × λ grid, streaming the rows: memory
// O(S·m² + b·m + mL(q + 1)) for S values of σ besides X and Y whatever n
// is, no n×m matrix. The centres are chosen once by the caller and shared
// by every σ, so the scores of different σ compare fits of the same form.
//
// For each σ: a pass over the rows builds regress.NystromStats (the
// features' moments), NewNystromPath gives DF and GCV for every λ, and,
// unless Criterion is GCV, a second pass gives the exact leave-one-out
// residuals of every λ — over all rows, or over a seeded uniform subset of
// Subset rows, an unbiased estimate of the same mean at a fraction of the
// cost (every residual in it is still exact), whose standard error the
// result states (NystromSelection.StdErr). Then the fit at the chosen
// pair is read from that σ's path (NystromPath.Fit): the model whose
// residuals were scored, equal to regress.NystromStats.Solve's there to
// rounding. Each σ's statistics are let go once its path is built: the
// path's W takes the storage of their M.
//
// When Kernel gives Gaussian kernels for every σ, or Laplacian kernels for
// every σ, the two passes serve all σ at once (kernels.Widths): each block
// of rows is read once, its distances to the centres computed once, and
// turned into the kernel block of every σ, which does that σ's work — two
// passes over X in all instead of two per σ, with results identical bit
// for bit to the passes of one σ at a time. That needs the statistics and
// paths of every σ in memory together (see Fit); where they do not fit,
// and for other kernels, the passes run one σ at a time.
type SelectNystrom struct {
	// Kernel builds the kernel of a width σ; required.
	Kernel func(sigma float64) kernels.Kernel
	// Centers are the m centres (m×d), distinct rows; required.
	// regress.NystromCenters draws them as regress.Nystrom would.
	Centers *linalg.Dense
	// Sigmas and Lambdas are the grids (positive; λ in the K + nλI
	// convention). Nil gives the defaults (see defaults.go): Sigmas
	// DefaultSigmas of MedianDistanceOf(Kernel(1), X, Seed), the median
	// distance between rows in the kernel's norm; Lambdas DefaultLambdas.
	Sigmas, Lambdas []float64
	// Intercept is the intercept mode of every fit.
	Intercept regress.Intercept
	// Criterion is what is minimized; the zero value is LOOMSE.
	Criterion Criterion
	// Subset, if positive and below n, runs the leave-one-out pass on that
	// many rows drawn uniformly without replacement (Seed); 0 means every
	// row. The scores are then estimates of their every-row values, with
	// the standard errors of NystromSelection.StdErr: with r rows of n,
	// √(1 − r/n)·s/√r for s the standard deviation of the rows' errors:
	// with normal residuals s = √2·MSE, and 20,000 rows put the
	// leave-one-out MSE within 1% (one standard error) of its every-row
	// value.
	Subset int
	// Seed seeds the subset, and the sample of rows of the default σ
	// grid's median (MedianRows).
	Seed uint64
	// Progress, if not nil, is called before each pass with the pass
	// number (1, 2, …), the number of passes and σ, or NaN for a pass that
	// serves every σ (then 2 passes, 1 with the GCV criterion; otherwise 2
	// per σ, 1 with GCV).
	Progress func(pass, passes int, sigma float64)
}

// NystromSelection is the result of SelectNystrom.Fit.
type NystromSelection struct {
	// Choice is the pair chosen and its score (of Criterion).
	Choice
	// Criterion is what was minimized.
	Criterion Criterion
	// Scores is the table of the criterion for every pair; LOO, GCV and
	// DF hold the leave-one-out MSE (nil rows with the GCV criterion), the
	// GCV score and tr H of every pair, [σ][λ].
	Scores       *Table
	LOO, GCV, DF [][]float64
	// StdErr holds, for a leave-one-out criterion, the standard error of
	// every score of Scores ([σ][λ]) as an estimate of its value over
	// every row (NystromPath.MSEStdErr or ErrorRateStdErr): 0 when the
	// leave-one-out pass ran on every row, NaN where the score is +Inf or
	// the subset has fewer than 2 rows; nil rows with the GCV criterion.
	StdErr [][]float64
	// LOORows is the number of rows the leave-one-out means are over.
	LOORows int
	// Fit is the Nyström fit at the chosen pair on all rows, read from its
	// λ path (NystromPath.Fit).
	Fit *regress.NystromFit
}

// checkGrids gives nil Lambdas the default grid and checks what Fit and
// FitStats share: the grids (Sigmas already given or defaulted), the
// intercept mode, the criterion and Subset.
func (sn *SelectNystrom) checkGrids(op string) error {
	if sn.Lambdas == nil {
		sn.Lambdas = DefaultLambdas()
	}
	if err := checkParams(op, "Sigmas", sn.Sigmas); err != nil {
		return err
	}
	if err := checkParams(op, "Lambdas", sn.Lambdas); err != nil {
		return err
	}
	if err := checkIntercept(op, sn.Intercept); err != nil {
		return err
	}
	return checkCriterion(op, sn.Criterion, sn.Subset)
}

// checkCriterion requires a known criterion and a leave-one-out subset of
// 0 (every row) or at least 2 rows, none with GCV.
func checkCriterion(op string, c Criterion, subset int) error {
	if c < LOOMSE || c > LOOErrorRate {
		return inputError(op, "Criterion", "unknown criterion %d", int(c))
	}
	switch {
	case subset < 0 || subset == 1:
		return inputError(op, "Subset", "%d rows: want 0 (every row) or at least 2 (a mean of one residual has no standard error)", subset)
	case subset > 0 && c == GCV:
		return inputError(op, "Subset", "%d rows: the GCV criterion makes no leave-one-out pass to run on a subset", subset)
	}
	return nil
}

// Fit runs the selection on x (n×d) and y (n×q) and fits the chosen pair.
// Neither is modified. A pair at which the system is numerically singular
// is kept in the table (as +Inf) and never chosen.
//
// Cost per σ: nm kernel transforms per pass (one or two), 2nm² flops for
// the statistics (a triangular solve and a symmetric rank-k update) and
// 2nm² + 2nmL(q + 1) for the leave-one-out pass (on Subset rows when
// given), and about 9m³ for the λ path; plus 2nmd flops per pass for the
// distances, once for all σ when the passes are shared, per σ otherwise.
// The rows are taken about 2²⁰ kernel values at a time, so that the
// matrix products get blocks large enough for linalg.Gemm's speed on all
// cores (the triangular solve of the statistics runs below it: its
// diagonal blocks are a substitution, an eighth of its flops at
// m = 1000). Results are bit-identical for any GOMAXPROCS.
//
// Memory besides X and Y (and a copy of the Subset rows): the shared
// first pass holds the statistics of every σ (L and M, 2m² values each)
// and one workspace of 1056 rows of K_nm for all; each σ's λ path (W, m²
// values, in the storage of its M, and mL(q + 1) more) then takes the
// place of its statistics, with the four m×m matrices of one
// eigendecomposition at a time; a pass adds three blocks of about 2²⁰
// values (24 MiB). Bounded by 8·[S·m(2m + L(q + 1) + 2q + d + 3) +
// m(5m + 1056) + b(3m + L(q + 1))] bytes, b the rows of the larger
// block of the two passes (about 2²⁰/m, and at least 1024: 1048 for
// m = 1000): for m = 1000, S = 5, L = 50, d = 10 and one output,
// 152 MiB. When that exceeds the memory limit (see linalg.MemoryError)
// the passes run one σ at a time, which holds one σ's statistics, then
// its path. Beside this, the packing buffers of the largest matrix
// product, K_b·W, about 8·KC·(m + b) bytes (8.4 MiB for m = 1000 with the
// AVX-512 kernel's KC = 512; see linalg.Gemm), and nothing that grows with
// GOMAXPROCS: the goroutines of every product and pass share their
// workspaces.
//
// Errors: InputErrors wrapping ErrInput for a nil Kernel, an invalid
// kernel from it (also kernels.ErrParameter), invalid grids or centres
// (NaN or ±Inf also linalg.ErrNotFinite), an unknown intercept mode or
// criterion, X or Y nil, malformed, of the wrong shape or not finite,
// fewer than 2 rows, a negative Subset, or no finite score on the grid; a
// *linalg.MemoryError (linalg.ErrTooLarge) before allocating; and the
// errors of regress.NewNystromStats for the centres.
func (sn SelectNystrom) Fit(x, y *linalg.Dense) (*NystromSelection, error) {
	const op = "SelectNystrom.Fit"
	if sn.Kernel == nil {
		return nil, inputError(op, "Kernel", "nil kernel function")
	}
	if err := checkXY(op, x, y); err != nil {
		return nil, err
	}
	if err := check.Data(ErrInput, op, "Centers", sn.Centers, 1); err != nil {
		return nil, err
	}
	if sn.Centers.Cols != x.Cols {
		return nil, inputError(op, "Centers", "%d columns, X has %d", sn.Centers.Cols, x.Cols)
	}
	if sn.Sigmas == nil {
		norm, err := NormOf(sn.Kernel(1))
		if err != nil {
			return nil, inputError(op, "Sigmas", "nil, and the kernel has no width to take a median distance for: give the grid")
		}
		median, err := medianDistance(op, x, norm, 0, sn.Seed)
		if err != nil {
			return nil, err
		}
		sn.Sigmas = DefaultSigmas(median)
	}
	if err := sn.checkGrids(op); err != nil {
		return nil, err
	}
	if sn.Criterion == LOOErrorRate {
		if err := checkCodes(op, y); err != nil {
			return nil, err
		}
	}
	lx, ly := x, y
	if idx := sn.SubsetRows(x.Rows); idx != nil {
		lx, ly = pickRows(x, y, idx)
	}
	sel := &NystromSelection{
		Criterion: sn.Criterion,
		Scores:    &Table{Criterion: sn.Criterion, Sigmas: append([]float64(nil), sn.Sigmas...), Lambdas: append([]float64(nil), sn.Lambdas...)},
	}
	if sn.Criterion != GCV {
		sel.LOORows = lx.Rows
	}
	ks := make([]kernels.Kernel, len(sn.Sigmas))
	for s, sg := range sn.Sigmas {
		ks[s] = sn.Kernel(sg)
	}
	var best bestPath
	var err error
	if sn.shared(ks, x.Rows, x.Cols, y.Cols) {
		err = sn.fitShared(op, sel, &best, ks, x, y, lx, ly)
	} else {
		err = sn.fitEach(op, sel, &best, ks, x, y, lx, ly)
	}
	if err != nil {
		return nil, err
	}
	c, ok := sel.Scores.Best()
	if !ok {
		return nil, inputError(op, "Lambdas", "no finite score on the grid")
	}
	sel.Choice, sel.Fit = c, best.path.Fit(best.at)
	return sel, nil
}

// checkCodes reports outputs y that are not the ±1 codes of classes, which
// the error rate counts: one column of −1 and +1, or one column per class
// with +1 in exactly one column of each row and −1 in the others.
func checkCodes(op string, y *linalg.Dense) error {
	for i := 0; i < y.Rows; i++ {
		plus := 0
		for j, v := range y.Row(i) {
			switch {
			case v == 1:
				plus++
			case v != -1:
				return inputError(op, "Y", "Y[%d][%d] = %g: the %v criterion counts wrong classes of ±1 codes (one column of ±1, or one +1 a row in one column per class)", i, j, v, LOOErrorRate)
			}
		}
		if y.Cols > 1 && plus != 1 {
			return inputError(op, "Y", "row %d has %d entries +1: one column per class codes each row's class by one +1", i, plus)
		}
	}
	return nil
}

// bestPath is what Fit keeps of the pair Table.BestAt chooses so far: the
// λ path that holds it and its index there, so that the fit is read from
// the path and the statistics of no σ, nor the paths of the others, are
// kept.
type bestPath struct {
	path *NystromPath
	at   int
}

// fitEach runs the selection one σ at a time: for each, a pass for the
// statistics and, unless the criterion is GCV, a pass for the
// leave-one-out residuals.
func (sn SelectNystrom) fitEach(op string, sel *NystromSelection, best *bestPath, ks []kernels.Kernel, x, y, lx, ly *linalg.Dense) error {
	passes := 2 * len(sn.Sigmas)
	if sn.Criterion == GCV {
		passes = len(sn.Sigmas)
	}
	pass := 0
	var es linalg.EigenSym // one workspace for every σ's eigendecomposition
	for s, sg := range sn.Sigmas {
		if sn.Progress != nil {
			pass++
			sn.Progress(pass, passes, sg)
		}
		stats, err := regress.NewNystromStats(ks[s], sn.Centers)
		if err == nil {
			err = stats.Add(x, y)
		}
		if err != nil {
			return sn.statsError(op, sg, err)
		}
		path, idx, err := sn.path(stats, &es)
		if err != nil {
			return err
		}
		stats = nil // the path holds what the rest needs
		if sn.Criterion != GCV {
			if sn.Progress != nil {
				pass++
				sn.Progress(pass, passes, sg)
			}
			if path != nil {
				if a, err := path.pass(op, lx, ly); err == nil {
					a.keep(lx.Rows)
				} // else no rows: every λ of the path scores +Inf
			}
		}
		sn.record(sel, best, s, path, idx)
	}
	return nil
}

// statsError is the error of Fit for err, an error of the statistics of σ.
func (sn SelectNystrom) statsError(op string, sg float64, err error) error {
	if errors.Is(err, regress.ErrInput) {
		return regressError(op, fmt.Sprintf("Kernel(%g)", sg), err)
	}
	return fmt.Errorf("loo: %s at σ = %g: %w", op, sg, err)
}

// path returns the λ path of one σ from its statistics, which it spends
// (their M becomes the path's W; see newNystromPath), with the indices in
// Lambdas of the λ it holds (UsableNystromPath's rule); a nil path when no
// λ is usable. es is the eigensolver's workspace, which the caller reuses
// from one σ to the next.
func (sn SelectNystrom) path(stats *regress.NystromStats, es *linalg.EigenSym) (*NystromPath, []int, error) {
	p, usable, err := newNystromPath(stats, sn.Intercept, sn.Lambdas, es, true)
	if errors.Is(err, linalg.ErrNotPositiveDefinite) {
		return nil, nil, nil // every λ scores +Inf
	}
	return p, usable, err
}

// record adds the scores of σ_s (see scores), from its path after its
// leave-one-out pass (none with the GCV criterion), to the selection's
// table, and keeps the path when the table's choice moves to this σ.
func (sn SelectNystrom) record(sel *NystromSelection, best *bestPath, s int, path *NystromPath, usable []int) {
	gcv, df, loo, errRate, se := sn.scores(path, usable)
	sel.GCV, sel.DF = append(sel.GCV, gcv), append(sel.DF, df)
	sel.LOO, sel.StdErr = append(sel.LOO, loo), append(sel.StdErr, se)
	t := sel.Scores
	switch sn.Criterion {
	case GCV:
		t.Scores = append(t.Scores, gcv)
	case LOOMSE:
		t.Scores = append(t.Scores, loo)
	case LOOErrorRate:
		t.Scores, t.Ties = append(t.Scores, errRate), append(t.Ties, loo)
	}
	if a, j, ok := t.BestAt(); ok && a == s {
		best.path, best.at = path, slices.Index(usable, j)
	}
}

// scores returns the GCV, DF, leave-one-out MSE (nil with the GCV
// criterion) and error rate (nil unless that criterion) of every λ at one
// σ: +Inf where the system is numerically singular (λ not among usable,
// or no path), where the fit interpolates a row (a leave-one-out residual
// not finite), and for every λ of a path whose pass failed; and the
// standard error of the criterion's leave-one-out score (nil with GCV;
// NaN where that score is +Inf or has none).
func (sn SelectNystrom) scores(path *NystromPath, usable []int) (gcv, df, loo, errRate, se []float64) {
	nl := len(sn.Lambdas)
	gcv, df = infs(nl), infs(nl)
	if sn.Criterion != GCV {
		loo = infs(nl)
		if sn.Criterion == LOOErrorRate {
			errRate = infs(nl)
		}
		se = make([]float64, nl)
		for j := range se {
			se[j] = math.NaN()
		}
	}
	if path == nil {
		return gcv, df, loo, errRate, se
	}
	for b, j := range usable {
		gcv[j], df[j] = path.GCV[b], path.DF[b]
	}
	if sn.Criterion == GCV {
		return gcv, df, loo, errRate, se
	}
	mse, err := path.MSE()
	if err != nil {
		return gcv, df, loo, errRate, se // no rows: its pass failed
	}
	var e []float64
	sd, sdErr := path.MSEStdErr()
	if errRate != nil {
		e, _ = path.ErrorRate()
		sd, sdErr = path.ErrorRateStdErr()
	}
	for b, j := range usable {
		if bad(mse[b]) {
			continue
		}
		loo[j] = mse[b]
		if e != nil {
			errRate[j] = e[b]
		}
		if sdErr == nil {
			se[j] = sd[b]
		}
	}
	return gcv, df, loo, errRate, se
}

// infs returns n values +Inf, the score of a pair that has none.
func infs(n int) []float64 {
	v := make([]float64, n)
	for j := range v {
		v[j] = math.Inf(1)
	}
	return v
}

// SubsetRows returns the rows, ascending, of the leave-one-out pass of
// Fit on n rows: the Subset rows drawn uniformly without replacement with
// Seed (those ScaleObjective with the same Subset and Seed draws), or nil,
// meaning every row, when Subset is 0 or at least n (or n < 2). A caller
// whose rows are elsewhere (a pipeline over files) adds these rows, by
// their place among all the rows, to the leave-one-out sums
// (NystromPath.Add) and gets the scores of Fit.
func (sn SelectNystrom) SubsetRows(n int) []int {
	if sn.Subset <= 0 || sn.Subset >= n {
		return nil
	}
	return subsetIndex(n, sn.Subset, sn.Seed)
}

// subsetIndex returns k of the indices 0 … n−1 drawn uniformly without
// replacement (seeded), in ascending order: the subset of every
// selection's leave-one-out pass (SelectNystrom's Subset, and
// ScaleObjective's, which draws the same rows).
func subsetIndex(n, k int, seed uint64) []int {
	idx := rand.New(rand.NewPCG(seed, 0x6c6f6f737562)).Perm(n)[:k] // "loosub"
	slices.Sort(idx)
	return idx
}

// pickRows returns copies of the rows idx of x and of y, in that order.
func pickRows(x, y *linalg.Dense, idx []int) (*linalg.Dense, *linalg.Dense) {
	sx, sy := linalg.NewDense(len(idx), x.Cols, nil), linalg.NewDense(len(idx), y.Cols, nil)
	for r, i := range idx {
		copy(sx.Row(r), x.Row(i))
		copy(sy.Row(r), y.Row(i))
	}
	return sx, sy
}
