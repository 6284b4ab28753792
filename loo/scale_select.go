package loo

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"rkhs/internal/check"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/optimize"
	"rkhs/regress"
)

// SelectScales learns one Gaussian length scale per feature and λ
// (automatic relevance determination) by minimizing the objective of a
// ScaleObjective — the exact leave-one-out error or GCV of a Nyström fit
// with fixed centres — over θ = (log σ₁ … log σ_d, log λ), from the
// isotropic pair (σ₀, λ₀) a grid search chose (SelectNystrom), with
// optimize.LBFGS, and fits the result on every row.
//
// # The descent
//
// Each evaluation of the objective and its gradient is the three passes
// of ScaleObjective (ScaleObjective.Evaluate), on every row or, with Rows,
// on a seeded subset of the rows; the leave-one-out mean is over S, every
// row or the objective's Subset of them, drawn once and kept for the
// whole descent so that the objective is one smooth function. L-BFGS
// minimizes J/J(θ₀) (so that its gradient test, optimize.LBFGS's GradTol
// of 10⁻⁵, is relative to the starting value) inside the box
//
//	σ₀/10³ ≤ σ_j ≤ σ₀·10³,   λ₀/10⁴ ≤ λ ≤ λ₀·10⁴,
//
// wide enough that an irrelevant feature's scale grows until its effect on
// the kernel vanishes: on standardized features, at σ_j = 10³σ₀ a
// difference of 4 standard deviations changes the exponent by
// 8·10⁻⁶/σ₀², and ∂J/∂log σ_j, which falls as 1/σ_j², is far below the
// gradient test. A θ where the fit is numerically singular (λ too small)
// counts as +Inf, and the line search backs off. The stopping rule is
// optimize's relative tolerance over a window (LBFGS.RelTol = Tol,
// RelTolIters = 3): the descent stops after the third or a later
// iteration when the last three together decreased J by at most Tol·J,
// or on a line search whose steps could not decrease it by more
// (optimize.StopRelTol); the window keeps one short step (the first ones
// often are) from ending it. The default Tol, 3·10⁻³, three iterations
// averaging a thousandth of J, is far below the leave-one-out estimate's
// own standard error (a few percent of J on 20,000 rows): on Beijing's
// air quality (256,525 rows, 1000 centres) the iterations the earlier
// 10⁻⁴ of one iteration added past it took half the descent's time for
// 0.7 % of its J;
// when the projected gradient test holds (optimize.StopGradTol); after
// MaxIter iterations (optimize.StopMaxIter); or when no step decreases J
// (optimize.StopLineSearch). Tol is far above J's rounding errors, so
// that builds whose values differ in the last bits (the SIMD kernels)
// take the same stopping decisions unless a decrease falls within those
// bits of Tol·J; the iterates still carry such differences on, and a
// descent can amplify them: its scales agree between builds to a digit
// or two, not to the last bits (up to 13 % apart on cpusmall under the
// earlier stopping rule, default against SIMD build). Nothing depends on the number of goroutines:
// the same rows and options give the same scales, bit for bit, at any
// GOMAXPROCS. Descend is this descent on an objective the caller
// evaluates, for passes streamed elsewhere (a pipeline's workers); Fit
// runs it on the rows in memory.
//
// The regularization δ of K_mm (regress.NystromStats's jitter, 0 unless
// K_mm is not numerically positive definite) is part of the objective: a θ
// whose K_mm needs another δ than its neighbours makes J jump there by
// that change. It matters only for scales so large that the centres are
// indistinguishable.
//
// A constant feature — every row of X and every centre holding one value —
// adds nothing to any distance: its derivative is 0 and its scale
// meaningless. It is not refused (files without column names often carry
// one): its scale is held at σ₀, the bounds of its θ_j equal, and
// ScaleSelection.Constant names it.
//
// # Cost
//
// An evaluation costs about (6md + 8m²)n flops and 2nm exponentials for
// the passes over the n rows (or Rows), (2md + 3m²) flops and m
// exponentials more on each row of S, and 14m³ once; an iteration
// usually makes one evaluation, two or three while L-BFGS learns the
// curvature (37 evaluations in 30 iterations for 10 features in the
// tests). The final fit on every row is pass 0 over all rows, the path,
// and pass A over S among them: about (2md + 2m²)n + (2md + 3m²)s flops
// more. Memory besides X and Y: six m×m matrices and
// four blocks of about 2²⁰ values at most, the rows of S and the Rows
// copied, as ScaleObjective.Evaluate.
//
// # Centres
//
// The descent runs on the first DescentCenters(m) of the m centres
// (Centers; by default DefaultDescentCenters: 400 of 1000), the final fit
// on all m at the scales and λ found. The first rows of
// regress.NystromCenters's centres are a uniform sample of the rows, as
// they are: the descent then learns the scales of a fit of fewer
// centres, an evaluation costs about (m′/m)² as much (0.16 at 400 of
// 1000: the 8m² and 3m² terms of Cost), and the scales serve the fit of
// all m. The λ the descent ends at is kept: on California housing (16,512
// rows, 1000 centres, the scales learnt on 400) the leave-one-out MSE of
// the fit of all 1000 at λ·10^(k/2), k = −3 … 1, varies by 1.5 %, and the
// descent's λ is within 0.2 % of the best of them; the test MSE of the
// fit at the descent's λ was 2.267·10⁹, where the descent on all 1000
// centres got 2.283·10⁹, for a third of the time
// (docs/notes/ard-gradient.md).
//
// Rows trades accuracy for speed at very large n: the descent then fits
// the scales on R rows (and S among them), at R/n of the cost an
// evaluation, and the scales and λ are those that minimize the
// leave-one-out error of a fit of R rows; the final fit uses every row
// with that λ (in the K + nλI convention: the same penalty per row). A
// fit on more rows would usually prefer a somewhat smaller λ and can
// resolve shorter scales. At n = 10⁶ and m = 1000, an evaluation on
// every row costs about 0.8 of a five-σ SelectNystrom with its 20,000-row
// leave-one-out subset, and on R = 50,000 rows (DefaultDescentRows
// above 100,000 rows) about 0.05 (docs/notes/ard-gradient.md has the measurements and the
// recommendation).
type SelectScales struct {
	// Objective is the objective: the centres (required), the intercept
	// mode, the criterion, and the leave-one-out subset S.
	Objective ScaleObjective
	// Sigma and Lambda are the isotropic start (σ₀, λ₀), every σ_j = σ₀,
	// usually the choice of SelectNystrom on the same centres; both
	// required, positive (λ in the K + nλI convention).
	Sigma, Lambda float64
	// MaxIter is the budget of L-BFGS iterations; 0 selects 50 (an
	// iteration costs about one evaluation, see Cost).
	MaxIter int
	// Tol stops the descent when its last three iterations together
	// decreased J by at most Tol·J, and ends a line search whose steps
	// could not decrease it by more (optimize.LBFGS.RelTol, RelTolIters
	// 3); 0 selects 3e-3.
	Tol float64
	// Centers, if positive, makes Fit's descent run on the first Centers
	// rows of Objective.Centers (every centre when it is at least their
	// number m); 0 selects DefaultDescentCenters(m). The final fit uses
	// every centre (see Centres above). Descend does not use it: its
	// caller evaluates on the centres it chooses (DescentCenters).
	Centers int
	// Rows, if positive and below n, makes the descent fit on that many
	// rows drawn uniformly without replacement (Objective.Seed), S among
	// them; 0 means every row. The final fit uses every row (see Rows
	// above). Below n, at least MinDescentRows of the centres.
	Rows int
	// Standardization is the one the caller applied to the rows before
	// Fit (nil: none). The model of the result carries its composition
	// with the scales (ComposeScales), so that it predicts raw rows.
	Standardization *kernels.Standardization
	// Progress, if not nil, is called at the start (iteration 0) and after
	// every iteration with the iteration, J there, the projected gradient
	// norm of J/J(θ₀) (see optimize.Result.ProjGrad) and the seconds since
	// Fit began.
	Progress func(iter int, objective, projGrad, seconds float64)
}

// Defaults of SelectScales.
const (
	defaultScaleIter = 50
	defaultScaleTol  = 3e-3
	// scaleTolIters is the window of the relative test (RelTolIters).
	scaleTolIters = 3
	// scaleRange and lambdaRange are the half-widths of the box, as
	// factors of σ₀ and λ₀.
	scaleRange  = 1e3
	lambdaRange = 1e4
)

// ScaleSelection is the result of SelectScales.Fit.
type ScaleSelection struct {
	// Sigmas are the length scales σ_j, one per feature, in the space of
	// the rows given to Fit; Lambda is λ (K + nλI).
	Sigmas []float64
	Lambda float64
	// Objective is J at the scales on every row: the leave-one-out MSE
	// over S (its standard error StdErr, 0 over every row) or GCV; with
	// the LOOErrorRate criterion ErrorRate and ErrorRateStdErr are the
	// share of wrong rows of S and its standard error (NaN otherwise).
	// LOORows is |S| (0 for GCV).
	Objective, StdErr          float64
	ErrorRate, ErrorRateStdErr float64
	LOORows                    int
	// Start is J at (σ₀, λ₀) on the rows of the descent, History J after
	// each iteration (History[k−1] after iteration k; for a plot), both
	// on the descent's rows (Rows, or every row).
	Start   float64
	History []float64
	// Iterations and Evaluations count the descent's iterations and
	// evaluations of the objective with its gradient; Stop says why it
	// ended.
	Iterations, Evaluations int
	Stop                    optimize.StopReason
	// Constant lists the constant features, whose scale is σ₀ (see
	// SelectScales).
	Constant []int
	// FitRows is the number of rows the descent fitted on (Rows or n).
	FitRows int
	// Fit is the Nyström fit at the scales and λ on every row: the Gaussian
	// kernel of width 1 on the scaled centres, with the standardization
	// of Mean μ and Scale s∘σ (ComposeScales of the caller's
	// Standardization and the scales), so that Fit.Model predicts raw
	// rows and its model file is an ordinary standardized model's.
	Fit *regress.NystromFit
}

// Worse reports whether the fit at the scales does worse on every row
// than the isotropic start, whose objective — the same criterion over the
// same rows (the grid's leave-one-out MSE, of the ±1 codes for classes,
// or its GCV at (σ₀, λ₀) on every row) — is start: Objective is above it.
// A descent on some of the rows (Rows) can end there, having fitted those
// rows better and the others worse; a front end then keeps the start's
// model (rkhs fit and classify, and rkhs-beam select, keep it with a
// warning). False for a nil s.
func (s *ScaleSelection) Worse(start float64) bool {
	return s != nil && s.Objective > start
}

// Ranking returns the features from the most relevant to the least: in
// ascending order of σ_j (a shorter scale, a faster change of the fit
// along that feature), ties in index order, the constant features last.
// The result is new.
func (s *ScaleSelection) Ranking() []int {
	if s == nil {
		return nil
	}
	constant := make([]bool, len(s.Sigmas))
	for _, j := range s.Constant {
		constant[j] = true
	}
	idx := make([]int, len(s.Sigmas))
	for j := range idx {
		idx[j] = j
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if constant[a] != constant[b] {
			if constant[a] {
				return 1
			}
			return -1
		}
		return cmpFloat(s.Sigmas[a], s.Sigmas[b])
	})
	return idx
}

// cmpFloat compares a and b, NaN last.
func cmpFloat(a, b float64) int {
	switch {
	case a < b || (!math.IsNaN(a) && math.IsNaN(b)):
		return -1
	case a > b || (math.IsNaN(a) && !math.IsNaN(b)):
		return 1
	}
	return 0
}

// Fit runs the descent on x (n×d) and y (n×q) and fits the scales on
// every row (see SelectScales). Neither is modified.
//
// Errors wrap ErrInput: the Objective's fields (see
// ScaleObjective.NewStats); X or Y nil, malformed, of the wrong shape or
// not finite (also linalg.ErrNotFinite), fewer than 2 rows; Sigma or
// Lambda not positive and finite; MaxIter, Tol or Rows negative, Rows 1;
// Rows below n and below MinDescentRows of the centres; rows drawn by
// Rows that hold one value of every output where the rows hold several
// (one class of ±1 codes; the error names Rows); a Standardization that
// is invalid or of another width; outputs that are not ±1 codes with
// LOOErrorRate. linalg.ErrNotPositiveDefinite when
// the fit at (σ₀, λ₀) is numerically singular; a *linalg.MemoryError
// (linalg.ErrTooLarge) before allocating; and the errors of the passes.
func (ss SelectScales) Fit(x, y *linalg.Dense) (*ScaleSelection, error) {
	const op = "SelectScales.Fit"
	start := time.Now()
	o := ss.Objective
	if err := o.check(op); err != nil {
		return nil, err
	}
	if err := checkXY(op, x, y); err != nil {
		return nil, err
	}
	d := x.Cols
	if o.Centers.Cols != d {
		return nil, inputError(op, "Centers", "%d columns, X has %d", o.Centers.Cols, d)
	}
	if err := ss.check(op, d); err != nil {
		return nil, err
	}

	// The descent's rows, S among them.
	fx, fy := x, y
	idx, err := ss.descentRows(op, x.Rows)
	if err != nil {
		return nil, err
	}
	if idx != nil {
		fx, fy = linalg.NewDense(len(idx), d, nil), linalg.NewDense(len(idx), y.Cols, nil)
		for r, i := range idx {
			copy(fx.Row(r), x.Row(i))
			copy(fy.Row(r), y.Row(i))
		}
		if err := oneValue(op, fy, x.Rows, !constantRows(y)); err != nil {
			return nil, err
		}
	}
	od := o
	if mc := ss.DescentCenters(o.Centers.Rows); mc < o.Centers.Rows {
		od.Centers = o.Centers.Slice(0, mc, 0, d).Clone()
	}
	sd, err := newScaleData(op, od, fx, fy)
	if err != nil {
		return nil, err
	}
	constant := constantFeatures(x, o.Centers)
	sel, theta, err := ss.descend(op, "Y", start, d, constant, func(theta []float64) (*ScaleEval, error) {
		ev, _, err := sd.eval(op, theta, true)
		return ev, err
	})
	if err != nil {
		return nil, err
	}
	sel.FitRows = fx.Rows

	// The fit at the scales on every row.
	all := sd
	if fx != x || od.Centers != o.Centers {
		if all, err = newScaleData(op, o, x, y); err != nil {
			return nil, err
		}
	}
	ev, path, err := all.eval(op, theta, false)
	if err != nil {
		return nil, err
	}
	sel.setValue(ev)
	if o.Criterion == GCV {
		sel.ErrorRate, sel.ErrorRateStdErr = math.NaN(), math.NaN()
	}
	sel.Fit = path.fit()
	if sel.Fit.Model.Standardization, err = ComposeScales(ss.Standardization, path.sk.Sigma()); err != nil {
		return nil, err
	}
	return sel, nil
}

// Descend runs the descent of SelectScales (see its documentation: the
// box around (σ₀, λ₀), L-BFGS on J/J(θ₀), the stopping rules, the
// constant features held at σ₀) on an objective of d features that the
// caller evaluates: evaluate returns J and its gradient at
// θ = (log σ₁ … log σ_d, log λ), as ScaleObjective.Evaluate or the three
// passes of a ScaleObjective run elsewhere (a pipeline, ScaleStats,
// ScaleLOO, ScaleAdjoint) give them. It is the descent SelectScales.Fit
// runs on rows in memory, for callers that stream the passes themselves.
// Of ss it uses Sigma, Lambda, MaxIter, Tol and Progress (whose seconds
// count from the call); the other fields are not used (Rows and
// Standardization, if set, must be valid as for Fit). constant lists the features whose
// scale is held at σ₀, in ascending order (those in which every row and
// every centre hold one value, as Fit finds them); it is not modified.
//
// evaluate is called once per evaluation, in order, from the calling
// goroutine, first at θ₀; θ is L-BFGS's and valid only during the call
// (copy it to keep it), and must not be modified. Its result must hold
// the d + 1 entries of the gradient. An error that wraps
// linalg.ErrNotPositiveDefinite means that the fit is numerically
// singular at θ: J is +Inf there and the line search backs off (at θ₀ it
// is returned); any other error ends the descent and is returned.
//
// The result holds the scales and λ at the minimum found (Sigmas,
// Lambda), Start, History, Iterations, Evaluations, Stop and Constant,
// and the value there, from the evaluation at that θ (Objective, StdErr,
// ErrorRate, ErrorRateStdErr, LOORows, as evaluate gave them); FitRows is
// 0 and Fit nil: the caller fits the model (ScalePath.Fit of the
// statistics at θ, and ComposeScales). The second result is that θ
// (d + 1 values, new). Given the same values from evaluate, the result
// is the same bit for bit.
//
// Cost: the evaluations, usually one per iteration, two or three while
// L-BFGS learns the curvature; besides them O(d) memory per evaluation.
//
// Errors wrap ErrInput: d < 1; constant not ascending or out of [0, d);
// the fields of ss (see Fit); a result of evaluate without its d + 1
// gradient entries; J(θ₀) not positive (the fit has no error to reduce).
// The errors of evaluate (see above) are returned as they are.
func (ss SelectScales) Descend(d int, constant []int, evaluate func(theta []float64) (*ScaleEval, error)) (*ScaleSelection, []float64, error) {
	const op = "SelectScales.Descend"
	start := time.Now()
	if d < 1 {
		return nil, nil, inputError(op, "d", "%d features: want at least 1", d)
	}
	for i, j := range constant {
		if j < 0 || j >= d || (i > 0 && j <= constant[i-1]) {
			return nil, nil, inputError(op, "constant", "%v: want ascending features among 0 … %d", constant, d-1)
		}
	}
	if evaluate == nil {
		return nil, nil, inputError(op, "evaluate", "nil")
	}
	if err := ss.check(op, d); err != nil {
		return nil, nil, err
	}
	return ss.descend(op, "evaluate", start, d, slices.Clone(constant), evaluate)
}

// descend is Descend after the checks, for the call op begun at start;
// constant is kept. arg names what a start with no error to reduce blames:
// Y for Fit, evaluate for Descend.
func (ss SelectScales) descend(op, arg string, start time.Time, d int, constant []int, evaluate func([]float64) (*ScaleEval, error)) (*ScaleSelection, []float64, error) {
	maxIter, tol := cmp.Or(ss.MaxIter, defaultScaleIter), cmp.Or(ss.Tol, defaultScaleTol)
	eval := func(theta []float64) (*ScaleEval, error) {
		ev, err := evaluate(theta)
		if err == nil && (ev == nil || len(ev.Gradient) != d+1) {
			err = inputError(op, "evaluate", "a result without the %d entries of the gradient", d+1)
		}
		return ev, err
	}

	// The box.
	theta0, lo, hi := make([]float64, d+1), make([]float64, d+1), make([]float64, d+1)
	box := func(j int, v, r float64) {
		theta0[j] = math.Log(v)
		lo[j] = max(theta0[j]-math.Log(r), -maxLogScale)
		hi[j] = min(theta0[j]+math.Log(r), maxLogScale)
	}
	for j := 0; j < d; j++ {
		box(j, ss.Sigma, scaleRange)
	}
	for _, j := range constant {
		lo[j], hi[j] = theta0[j], theta0[j]
	}
	box(d, ss.Lambda, lambdaRange)

	// J(θ₀) scales the objective, and serves L-BFGS's first evaluation.
	ev0, err := eval(theta0)
	if err != nil {
		return nil, nil, err
	}
	j0 := ev0.Value
	switch {
	case math.IsNaN(j0) || math.IsInf(j0, 0):
		return nil, nil, inputError(op, "evaluate", "the objective is %g at (σ₀, λ₀): want a finite value", j0)
	case !(j0 > 0):
		return nil, nil, inputError(op, arg, "the objective is %g at (σ₀, λ₀): the fit has no error to reduce (outputs constant on the rows evaluated, as ±1 codes of one class are)", j0)
	}
	sel := &ScaleSelection{Start: j0, Constant: constant}
	// The evaluations made, for the value at the minimum found.
	type point struct {
		theta []float64
		ev    *ScaleEval
	}
	points := []point{{theta0, ev0}}
	var fatal error
	f := func(theta, grad []float64) float64 {
		if fatal != nil {
			return math.NaN()
		}
		ev := ev0 // L-BFGS's first evaluation is at θ₀
		if sel.Evaluations > 0 || !sameBits(theta, theta0) {
			var err error
			ev, err = eval(theta)
			if err != nil {
				sel.Evaluations++
				if !errors.Is(err, linalg.ErrNotPositiveDefinite) {
					fatal = err
				}
				return math.Inf(1)
			}
			points = append(points, point{slices.Clone(theta), ev})
		}
		sel.Evaluations++
		for j, g := range ev.Gradient {
			grad[j] = g / j0
		}
		return ev.Value / j0
	}
	if ss.Progress != nil {
		ss.Progress(0, j0, projGrad(theta0, ev0.Gradient, lo, hi, j0), time.Since(start).Seconds())
	}
	lb := optimize.LBFGS{MaxIter: maxIter, RelTol: tol, RelTolIters: scaleTolIters, Callback: func(iter int, _ []float64, fv, pg float64) bool {
		sel.History = append(sel.History, fv*j0)
		if ss.Progress != nil {
			ss.Progress(iter, fv*j0, pg, time.Since(start).Seconds())
		}
		return fatal == nil
	}}
	res, err := lb.Minimize(f, theta0, lo, hi)
	switch {
	case err != nil:
		return nil, nil, fmt.Errorf("loo: %s: %w", op, err)
	case fatal != nil:
		return nil, nil, fatal
	}
	sel.Stop, sel.Iterations = res.Stop, res.Iterations

	theta := res.X
	sel.Sigmas = make([]float64, d)
	for j := range sel.Sigmas {
		sel.Sigmas[j] = math.Exp(theta[j])
	}
	sel.Lambda = math.Exp(theta[d])
	// L-BFGS ends at a point it evaluated, the latest with those bits.
	for k := len(points) - 1; k >= 0; k-- {
		if sameBits(points[k].theta, theta) {
			sel.setValue(points[k].ev)
			break
		}
	}
	return sel, theta, nil
}

// DescentCenters returns the number of the m centres that Fit descends
// on, the first of Objective.Centers: Centers, at most m, or
// DefaultDescentCenters(m) when Centers is 0. A caller of Descend
// evaluates on the first DescentCenters(m) centres to descend as Fit
// does, and fits the model on all m at the θ found.
func (ss SelectScales) DescentCenters(m int) int {
	if ss.Centers > 0 {
		return min(ss.Centers, m)
	}
	return DefaultDescentCenters(m)
}

// setValue sets the value of s from the evaluation ev.
func (s *ScaleSelection) setValue(ev *ScaleEval) {
	s.Objective, s.StdErr, s.LOORows = ev.Value, ev.StdErr, ev.LOORows
	s.ErrorRate, s.ErrorRateStdErr = ev.ErrorRate, ev.ErrorRateStdErr
}

// DescentRows returns the rows among n that Fit descends on, in
// ascending order: Rows of them drawn uniformly without replacement with
// Objective.Seed, or nil, meaning every row, when Rows is 0 or at least
// n. A caller whose rows are elsewhere (a pipeline) gathers these rows
// and runs Descend on them in memory, as Fit does; the objective's S is
// then Objective.SubsetRows of them.
//
// Errors wrap ErrInput: n negative; Rows negative or 1; Rows below n and
// below MinDescentRows of the centres (Objective.Centers, if set).
func (ss SelectScales) DescentRows(n int) ([]int, error) {
	return ss.descentRows("SelectScales.DescentRows", n)
}

// descentRows is DescentRows for the call op.
func (ss SelectScales) descentRows(op string, n int) ([]int, error) {
	if n < 0 {
		return nil, inputError(op, "n", "%d rows: want at least 0", n)
	}
	if ss.Rows == 0 || ss.Rows >= n {
		return nil, nil
	}
	m := 0
	if ss.Objective.Centers != nil {
		m = ss.Objective.Centers.Rows
	}
	if min := MinDescentRows(m); ss.Rows < min {
		return nil, inputError(op, "Rows", "%d of the %d rows for %d centres: want at least %d, or 0 for every row (on fewer than two rows a centre, or 30, the fit nearly interpolates its rows, and their leave-one-out error says little about every row's)", ss.Rows, n, m, min)
	}
	idx := rand.New(rand.NewPCG(ss.Objective.Seed, 0x7363616c6573)).Perm(n)[:ss.Rows] // "scales"
	slices.Sort(idx)
	return idx, nil
}

// CheckDescentRows returns the error of Fit for the rows DescentRows drew
// of n, whose outputs are y (the rows as the descent sees them: ±1 codes
// for classes), when they hold one value of every output where the n rows
// hold several (varies; for codes of two classes or more, always): the
// descent would have no error to reduce on them. A caller who gathers the
// descent's rows elsewhere checks them so before Descend, and gets Fit's
// error, which names Rows. nil otherwise.
func (ss SelectScales) CheckDescentRows(y *linalg.Dense, n int, varies bool) error {
	return oneValue("SelectScales.CheckDescentRows", y, n, varies)
}

// oneValue is CheckDescentRows for the call op.
func oneValue(op string, y *linalg.Dense, n int, varies bool) error {
	if y == nil || !varies || !constantRows(y) {
		return nil
	}
	return inputError(op, "Rows", "the %d rows drawn (Objective.Seed) hold one value of every output, where the %d rows hold several (for ±1 codes: one class): the descent has no error to reduce on them; raise Rows", y.Rows, n)
}

// MinDescentRows returns the fewest rows a descent of SelectScales on m
// centres may fit on when it draws a subset (Rows): 2m, and at least 30.
// On a subset near m rows the Nyström fit nearly interpolates it, its
// leave-one-out error falls as the scales shrink towards fitting those
// rows, and the scales it finds can do worse on every row than the
// isotropic start.
func MinDescentRows(m int) int { return max(30, 2*m) }

// constantRows reports whether every row of a holds the same values.
func constantRows(a *linalg.Dense) bool {
	for i := 1; i < a.Rows; i++ {
		if !slices.Equal(a.Row(i), a.Row(0)) {
			return false
		}
	}
	return true
}

// check validates the descent's own fields for d features.
func (ss SelectScales) check(op string, d int) error {
	if err := check.Positive(ErrInput, op, "Sigma", ss.Sigma); err != nil {
		return err
	}
	if err := check.Positive(ErrInput, op, "Lambda", ss.Lambda); err != nil {
		return err
	}
	for _, v := range []struct {
		name string
		v    float64
	}{{"Sigma", ss.Sigma}, {"Lambda", ss.Lambda}} {
		if l := math.Abs(math.Log(v.v)); l > maxLogScale-math.Log(lambdaRange) {
			return inputError(op, v.name, "%g: its box reaches beyond the float64 range", v.v)
		}
	}
	if err := check.OptionCount(ErrInput, op, "MaxIter", ss.MaxIter, fmt.Sprint(defaultScaleIter)); err != nil {
		return err
	}
	if err := check.Option(ErrInput, op, "Tol", ss.Tol, fmt.Sprint(defaultScaleTol)); err != nil {
		return err
	}
	if err := check.OptionCount(ErrInput, op, "Centers", ss.Centers, "DefaultDescentCenters"); err != nil {
		return err
	}
	if ss.Rows < 0 || ss.Rows == 1 {
		return inputError(op, "Rows", "%d rows: want 0 (every row) or at least 2", ss.Rows)
	}
	if s := ss.Standardization; s != nil {
		if err := s.Validate(); err != nil {
			return check.Wrap(ErrInput, op, "Standardization", err)
		}
		if len(s.Mean) != d {
			return inputError(op, "Standardization", "%d features, X has %d", len(s.Mean), d)
		}
	}
	return nil
}

// constantFeatures returns the columns in which every row of x and of c
// holds the same value, in ascending order.
func constantFeatures(x, c *linalg.Dense) []int {
	var out []int
	for j := 0; j < x.Cols; j++ {
		v, same := x.At(0, j), true
		for _, a := range []*linalg.Dense{x, c} {
			for i := 0; same && i < a.Rows; i++ {
				same = a.At(i, j) == v
			}
		}
		if same {
			out = append(out, j)
		}
	}
	return out
}

// projGrad returns ‖P(θ − g/j0) − θ‖∞ in the box [lo, hi]: the projected
// gradient norm optimize.LBFGS reports, of J/j0.
func projGrad(theta, g, lo, hi []float64, j0 float64) float64 {
	var m float64
	for i, t := range theta {
		m = max(m, math.Abs(min(max(t-g[i]/j0, lo[i]), hi[i])-t))
	}
	return m
}
