package loo

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"rkhs/internal/check"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// ScaleObjective is the objective of learning one kernel length scale
// per feature (automatic relevance determination) for a Nyström fit: the
// exact leave-one-out error, or GCV, as a function of
//
//	θ = (log σ₁ … log σ_d, log λ)
//
// for the kernel k_θ(x, z) = exp(−Σ_j (x_j − z_j)²/(2σ_j²)), the Gaussian
// kernel of width 1 on the features divided by σ_j (or, with Kernel, the
// Laplacian exp(−Σ_j |x_j − z_j|/σ_j): kernels.Scaled), λ in the K + nλI
// convention (n the rows of the fit). The centres are fixed; the fit,
// its residuals and the objective are those of NystromPath on the rows
// and centres divided by σ, and J_LOO is the mean over a set S of rows
// (all rows, or Subset rows drawn uniformly).
//
// The value and its gradient in θ come from three passes over the rows,
// each a sum over blocks of rows that can run on any number of workers
// and be merged (docs/notes/ard-gradient.md derives them; eq. 1 is the
// kernel, eq. 3 the objectives):
//
//  1. pass 0, every row: ScaleStats, the statistics of the features at θ
//     (regress.NystromStats on the scaled rows), then NewScalePath, the
//     fit's λ path at one λ (an eigendecomposition, about 9m³ flops);
//  2. pass A, the rows of S (LOO criteria only): ScaleLOO, the
//     leave-one-out residuals, J_LOO and its weighted sums;
//  3. pass B, every row: ScaleAdjoint, the adjoint of the objective in
//     K_nm contracted with the derivatives of the kernel in every σ_j.
//
// Evaluate runs the three on rows in memory. Each pass evaluates the
// kernel on the scaled features a block of rows at a time (the block of X
// and the centres divided by σ, never all of X), with the block products
// in linalg.Gemm and linalg.Syrk, so that for m centres, d features and q
// outputs it costs per row: pass 0 2md + 2m² flops and m exponentials;
// pass A 2md + 3m² + O(mq) and m exponentials; pass B 4md + 6m² + O(mq)
// and m exponentials. Results are
// bit-identical for any GOMAXPROCS: blocks are visited in order, sums
// run in row order and linalg's products are deterministic.
type ScaleObjective struct {
	// Centers are the m centres (m×d) in the space of X, distinct rows;
	// required. regress.NystromCenters draws them as regress.Nystrom
	// would.
	Centers *linalg.Dense
	// Intercept is the intercept mode of the fit.
	Intercept regress.Intercept
	// Kernel is the kernel whose width the length scales replace (its own
	// σ is not used): nil, the zero value, means kernels.Gaussian; or
	// kernels.Laplacian. kernels.Scaled evaluates it and its derivatives.
	Kernel kernels.Kernel
	// Criterion is the objective: LOOMSE (the zero value), the mean
	// squared leave-one-out residual over S; GCV, generalized
	// cross-validation over every row (no pass A); or LOOErrorRate, for
	// outputs that code classes by ±1 (one column, or one per class): the
	// mean squared leave-one-out residual of the codes, a smooth
	// objective, with the share of rows whose leave-one-out prediction
	// has the wrong class reported beside it.
	Criterion Criterion
	// Subset, if positive and below n, makes S that many rows drawn
	// uniformly without replacement (Seed), as SelectNystrom's Subset
	// draws them (SubsetRows gives them); 0 means every row. The value is
	// then an unbiased estimate of its every-row value, with the standard
	// error ScaleEval.StdErr states, and pass A costs that many rows.
	// Not with GCV.
	Subset int
	// Seed seeds the subset.
	Seed uint64
}

// SubsetRows returns the rows of S among n rows, in ascending order: the
// Subset rows drawn uniformly without replacement with Seed (the rows
// SelectNystrom with the same Subset and Seed uses), or nil, meaning
// every row, when Subset is 0 or at least n. A pipeline that runs pass B
// on many workers marks these rows (ScaleAdjoint.Add). It panics if n is
// negative.
func (o ScaleObjective) SubsetRows(n int) []int {
	if n < 0 {
		panic(fmt.Sprintf("loo: ScaleObjective.SubsetRows: %d rows", n))
	}
	if o.Subset <= 0 || o.Subset >= n {
		return nil
	}
	return subsetIndex(n, o.Subset, o.Seed)
}

// check validates the objective's fields for the call op.
func (o ScaleObjective) check(op string) error {
	if err := check.Data(ErrInput, op, "Centers", o.Centers, 1); err != nil {
		return err
	}
	if err := check.Valid(ErrInput, op, "Intercept", o.Intercept); err != nil {
		return err
	}
	if o.Kernel != nil {
		if _, err := kernels.NewScaled(o.Kernel, o.Centers.Slice(0, 1, 0, o.Centers.Cols), ones(o.Centers.Cols)); err != nil {
			return check.Wrap(ErrInput, op, "Kernel", err)
		}
	}
	return checkCriterion(op, o.Criterion, o.Subset)
}

// ones returns n ones.
func ones(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = 1
	}
	return v
}

// maxLogScale bounds |θ_j|: exp(θ_j) is then a normal float64, neither 0
// nor +Inf, and so is its square.
const maxLogScale = 350

// checkTheta validates θ = (log σ₁ … log σ_d, log λ) for d features:
// d + 1 finite values of magnitude at most maxLogScale, so that every
// σ_j, σ_j² and λ is a positive normal float64.
func checkTheta(op string, theta []float64, d int) error {
	if len(theta) != d+1 {
		return inputError(op, "theta", "%d values, want %d: log σ_j for each of the %d features, then log λ", len(theta), d+1, d)
	}
	if err := check.Vector(ErrInput, op, "theta", theta); err != nil {
		return err
	}
	for j, v := range theta {
		if math.Abs(v) > maxLogScale {
			return inputError(op, fmt.Sprintf("theta[%d]", j), "%g: a log scale or log λ beyond ±%d puts σ or λ outside the float64 range", v, maxLogScale)
		}
	}
	return nil
}

// newScaled returns the objective's kernel at the scales σ_j = exp(θ_j)
// of the first d entries of theta, on its centres, which it divides by σ
// into a copy (kernels.NewScaled).
func (o ScaleObjective) newScaled(op string, theta []float64) (*kernels.Scaled, error) {
	sigma := make([]float64, o.Centers.Cols)
	for j := range sigma {
		sigma[j] = math.Exp(theta[j])
	}
	sk, err := kernels.NewScaled(cmp.Or[kernels.Kernel](o.Kernel, kernels.Gaussian{Sigma: 1}), o.Centers, sigma)
	if err != nil {
		return nil, check.Wrap(ErrInput, op, "Centers", err)
	}
	return sk, nil
}

// scaledError is the error of a block of rows whose kernel values, on
// the rows divided by the scales, kernels refuses.
func scaledError(op string, err error) error {
	return check.Wrap(ErrInput, op, "X", fmt.Errorf("the rows divided by the scales: %w", err))
}

// ScaleStats is pass 0 of a ScaleObjective at one θ: the statistics of
// the Nyström fit of the rows divided by σ (regress.NystromStats of the
// kernel of width 1 and the centres divided by σ), summed over
// the rows added, a block at a time. Shards of the rows summarised on
// different workers merge (Merge, MarshalBinary and UnmarshalBinary), as
// NystromStats do. Make one with ScaleObjective.NewStats; the zero value
// is not usable. It is not safe for concurrent use.
type ScaleStats struct {
	obj   ScaleObjective // Centers nil: the scaled centres are sk.Centers()
	theta []float64
	sk    *kernels.Scaled
	stats *regress.NystromStats
	ws    *scaleWork // the blocks of Add, and the statistics' workspace
}

// NewStats returns empty pass-0 statistics of the objective at θ
// (len d + 1, see ScaleObjective): it divides the centres by σ and
// factors their K_mm (+ δI, regress.NewNystromStats's jitter), about
// m³/3 flops and three m×m matrices. Neither o's centres nor theta is
// kept.
//
// Errors wrap ErrInput: invalid fields of o (centres nil, malformed, not
// finite — also linalg.ErrNotFinite — or with two identical rows; an
// unknown intercept mode or criterion; a bad Subset), θ of the wrong
// length, not finite or beyond ±350; a *linalg.MemoryError
// (linalg.ErrTooLarge) before allocating; linalg.ErrNotPositiveDefinite
// when K_mm fails even with the largest jitter.
func (o ScaleObjective) NewStats(theta []float64) (*ScaleStats, error) {
	const op = "ScaleObjective.NewStats"
	if err := o.check(op); err != nil {
		return nil, err
	}
	if err := checkTheta(op, theta, o.Centers.Cols); err != nil {
		return nil, err
	}
	return o.newStats(op, theta)
}

// newStats is NewStats after the checks.
func (o ScaleObjective) newStats(op string, theta []float64) (*ScaleStats, error) {
	sk, err := o.newScaled(op, theta)
	if err != nil {
		return nil, err
	}
	st, err := regress.NewNystromStats(sk.Kernel(), sk.Centers())
	if err != nil {
		return nil, regressError(op, "Centers", renameOp(err, "NewNystromStats", op))
	}
	o.Centers = nil
	return &ScaleStats{obj: o, theta: slices.Clone(theta), sk: sk, stats: st, ws: new(scaleWork)}, nil
}

// Add adds the rows of x (b×d) with the outputs y (b×q) to the
// statistics: a block of rows at a time (about 2²⁰ kernel values, in
// whole groups of regress.NystromGroupRows), divided by σ, its kernel
// block evaluated and folded in by regress.NystromStats.AddKernelRows.
// Neither x nor y is modified.
//
// Cost: 2md + 2m² flops and m exponentials a row. Memory: the scaled
// block and its kernel block (about 2²⁰ values), and the statistics'
// workspace (regress.NystromWorkLen(m, q) values) from the first call.
//
// Errors wrap ErrInput: a nil or zero ScaleStats; x or y nil, malformed,
// without rows or not finite (also linalg.ErrNotFinite); x not of d
// columns, y not of x's rows or not of the q columns of the rows added
// before; rows whose division by σ overflows. On error the statistics are
// unchanged.
func (s *ScaleStats) Add(x, y *linalg.Dense) error {
	const op = "ScaleStats.Add"
	if err := s.ready(op); err != nil {
		return err
	}
	if err := s.checkRows(op, x, y, s.stats.Outputs()); err != nil {
		return err
	}
	// Scale every row first, so that an overflow leaves the statistics
	// unchanged.
	for i := 0; i < x.Rows; i++ {
		for j, v := range x.Row(i) {
			if sj := s.sk.Sigma()[j]; math.IsInf(v/sj, 0) {
				return inputError(op, "X", "row %d, feature %d: %g divided by σ = %g overflows", i+1, j+1, v, sj)
			}
		}
	}
	m, q := s.sk.Centers().Rows, y.Cols
	if len(s.ws.work) < regress.NystromWorkLen(m, q) {
		s.ws.work = make([]float64, regress.NystromWorkLen(m, q))
	}
	for blk, err := range s.sk.Blocks(x, statsRows(m), &s.ws.blk) {
		if err != nil {
			return regressError(op, "X", scaledError(op, err))
		}
		if err := s.stats.AddKernelRows(&blk.K, y.Slice(blk.I0, blk.I0+blk.K.Rows, 0, q), s.ws.work); err != nil {
			return regressError(op, "X", err)
		}
	}
	return nil
}

// checkRows validates rows x (b×d) with outputs y for a pass of the
// objective: finite, at least one row, d columns, b rows of y and q
// columns when q > 0.
func (s *ScaleStats) checkRows(op string, x, y *linalg.Dense, q int) error {
	return checkScaleRows(op, x, y, s.sk.Centers().Cols, q)
}

// checkScaleRows validates rows x with outputs y: finite, at least one
// row, d columns, y of x's rows and of q columns when q > 0.
func checkScaleRows(op string, x, y *linalg.Dense, d, q int) error {
	if err := check.Data(ErrInput, op, "X", x, 1); err != nil {
		return err
	}
	if err := check.Data(ErrInput, op, "Y", y, 1); err != nil {
		return err
	}
	switch {
	case x.Cols != d:
		return inputError(op, "X", "%d columns, the centres have %d", x.Cols, d)
	case y.Rows != x.Rows:
		return inputError(op, "Y", "%d rows, X has %d", y.Rows, x.Rows)
	case q > 0 && y.Cols != q:
		return inputError(op, "Y", "%d columns, the rows before had %d outputs", y.Cols, q)
	}
	return nil
}

// Merge adds the statistics of o, for other rows, to those of s; o is not
// modified. Both must be of the same objective and θ (the same bits), and
// merge as regress.NystromStats.Merge does. Errors wrap ErrInput; on error
// s is unchanged.
func (s *ScaleStats) Merge(o *ScaleStats) error {
	const op = "ScaleStats.Merge"
	if err := s.ready(op); err != nil {
		return err
	}
	if o == nil || o.stats == nil {
		return inputError(op, "o", "nil or zero ScaleStats: make it with ScaleObjective.NewStats")
	}
	if !s.same(o) {
		return inputError(op, "o", "statistics of another objective or θ")
	}
	if err := s.stats.Merge(o.stats); err != nil {
		return regressError(op, "o", err)
	}
	return nil
}

// same reports whether o is of the same objective and θ as s, bit for bit.
func (s *ScaleStats) same(o *ScaleStats) bool {
	a, b := s.sk.Centers(), o.sk.Centers()
	if s.obj != o.obj || !sameBits(s.theta, o.theta) || len(a.Data) != len(b.Data) {
		return false
	}
	return sameBits(a.Data, b.Data)
}

// sameBits reports whether a and b hold the same float64 values bit for
// bit.
func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i, v := range a {
		if math.Float64bits(v) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// Rows returns the number of rows added so far (by Add and Merge).
func (s *ScaleStats) Rows() int {
	if s == nil || s.stats == nil {
		return 0
	}
	return s.stats.Rows()
}

// ready reports a nil or zero ScaleStats.
func (s *ScaleStats) ready(op string) error {
	if s == nil || s.stats == nil {
		return inputError(op, "ScaleStats", "nil or zero value: make it with ScaleObjective.NewStats")
	}
	return nil
}
