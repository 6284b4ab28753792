package regress

import (
	"cmp"
	"fmt"
	"math"

	"rkhs/internal/check"
	"rkhs/kernels"
	"rkhs/linalg"
)

// Falkon is the Nyström approximation of kernel RLS solved by conjugate
// gradient with Falkon's preconditioner (Rudi, Carratino and Rosasco,
// "FALKON: An optimal large scale kernel method", 2017; Meanti, Carratino,
// Rosasco and Rudi, "Kernel methods through the roof: handling billions of
// points efficiently", 2020), for n far beyond one n×n — or n×m — matrix.
// It minimises, over m centres c₁…c_m,
//
//	(1/n)‖K_nm·c + b·1 − y‖² + λ·cᵀK_mm·c
//
// the objective of Nystrom, with K_nm (n×m) holding k(xᵢ, cⱼ) and K_mm
// (m×m) k(cᵢ, cⱼ), λ in the K + nλI convention of rkhs (the papers use the
// same 1/n loss and λ). Without an intercept c solves the normal equations
//
//	(K_nmᵀK_nm + nλK_mm)·c = K_nmᵀy;
//
// with a free intercept they are centred: K_nmᵀ(I − 11ᵀ/n)K_nm replaces
// K_nmᵀK_nm, K_nmᵀ(y − ȳ1) the right-hand side, and b = ȳ − (1/n)1ᵀK_nm·c,
// with the column sums K_nmᵀ1 computed once, in the same pass as K_nmᵀy.
// PenalizedIntercept is not offered (use the kernel k + 1 with Nystrom).
//
// The normal equations are never formed. Each iteration multiplies by
// K_nmᵀK_nm through kernels.Rows.NormalMulTo, which builds K_nm a block of
// rows at a time (the distances from one inner-product pass, then the
// kernel function), forms W = K_b·V and adds K_bᵀ·W while the block is in
// cache: K_nm is never stored. The preconditioner approximates
// (n/m·K_mm² + nλK_mm)⁻¹, the inverse of the normal matrix when the
// centres stand for the data, from two Cholesky factorizations of m×m
// matrices: T = chol(K_mm + δI) and A = chol(T·Tᵀ/m + λI), and CG runs on
// the symmetric positive definite system
//
//	(A⁻ᵀT⁻ᵀ·(K_nmᵀK_nm + nλTᵀT)·T⁻¹A⁻¹ / n)·β = A⁻ᵀT⁻ᵀK_nmᵀy / n,  c = T⁻¹A⁻¹β,
//
// in which the penalty is TᵀT = K_mm + δI, as in Falkon's own code: this
// keeps the system positive definite when K_mm is numerically singular,
// and the fit minimises the objective above with K_mm + δI in the penalty,
// exactly. Its condition number is close to 1 when the centres are a fair
// sample of the data, and a few tens of iterations suffice; the iteration
// count also regularizes, so a run may be stopped early by Callback (for
// example when the error on a validation set stops falling). δ = ε·m·t, ε
// the machine epsilon and t the mean diagonal entry of K_mm (Falkon's
// choice, ε·m, for a kernel with k(x, x) = 1), a change of the penalty
// below the rounding errors of K_mm itself for m up to 10⁴; if K_mm + δI
// is still not numerically positive definite (repeated Given centres, a σ
// large for the spread of the data), the jitter of Nystrom is added on top
// (from 10⁻¹²·t, ×100 up to 10⁻²·t) and FalkonFit.Jitter reports the total
// δ.
//
// Centres: m distinct rows of X, drawn uniformly without replacement from
// the rows and skipping any row equal to one already drawn (repeated
// centres would make K_mm singular), by a PCG generator seeded with Seed:
// the centres follow the distribution of the data, as the preconditioner
// assumes, and the choice depends on the seed and the data alone. Rows are
// compared by a hash of their bits, then element by element. When the rows
// of X are distinct, they are the centres Nystrom draws with the same
// seed. Given, if not nil, holds the centres instead.
//
// Convergence: the preconditioner is good when m is large enough for λ
// (Rudi et al.: m of the order of the effective dimension at λ, about √n
// for the λ of optimal rates). With λ far smaller than that, K_mm + δI is
// numerically singular and CG needs many more iterations than the default
// budget. The run stops early at convergence (Tol, by default ε), and
// FalkonFit.StoppedShort says when a run used its budget and stopped far
// from what the preconditioner promises (FalkonPromise); the residuals,
// relative to the first, are in FalkonFit.Residuals, and the error on a
// validation set can be followed through Callback.
//
// Cost: per iteration 2nmd flops and nm kernel transforms (an exp each for
// the Gaussian kernel) to rebuild K_nm, 4nmq flops for the two products and
// 4m²q for the triangular solves; once, a pass for K_nmᵀy and K_nmᵀ1, the
// Gram matrix K_mm and m³/3 + m³/3 + m³/3 flops for the two factorizations
// and T·Tᵀ (linalg.Lauum). Memory: two m×m matrices (also while a jitter is
// tried), the rows of K_nm the goroutines evaluate at once (2¹⁸ values,
// 2 MiB, in all; for m above 2¹⁶/GOMAXPROCS, 4 rows a goroutine, still
// under 1% of the m×m matrices at 16 goroutines), the partial results of
// the streamed products (at most 64 MiB unless one m×q partial is
// larger), the packing buffers of the m×m products (about 2m·KC doubles,
// 8 MiB for m = 1000 with the AVX-512 kernel's KC = 512, see linalg.Gemm),
// X and a copy of [Y 1] (n×(q+1)), and
// for the choice of centres a permutation of the rows and a hash table of
// the rows it visits (together about 48 bytes a row, as FalkonMemory
// counts): O(m² + n·(d+q)).
//
// The results are bit-identical for any GOMAXPROCS.
type Falkon struct {
	Kernel  kernels.Kernel
	Lambda  float64 // λ > 0, in the K + nλI convention
	Centers int     // m ≥ 1, distinct rows of X drawn at random; no default
	Seed    uint64  // seed of the draw (math/rand/v2 PCG)
	// Given, if not nil, holds the centres (m×d) and Centers and Seed are
	// ignored.
	Given *linalg.Dense
	// Intercept is NoIntercept or FreeIntercept.
	Intercept Intercept
	// MaxIter is the number of CG iterations to run at most; 0 selects
	// DefaultFalkonIter. The run stops earlier by Tol or Callback.
	MaxIter int
	// Tol stops the run once the residual of the preconditioned system
	// of every output j is at most Tol times its initial value
	// (‖r_k,j‖ ≤ Tol·‖r_0,j‖); 0 selects DefaultFalkonTol.
	Tol float64
	// Callback, if not nil, is called after every iteration with the
	// relative residual of the preconditioned system (‖r_k‖_F/‖r₀‖_F over
	// all outputs, the value recorded in FalkonFit.Residuals) and the
	// current model, whose Predict on a validation set costs one pass over
	// that set (see Callback).
	Callback Callback
}

// DefaultFalkonIter is the number of iterations Falkon runs when MaxIter
// is 0, the budget of the experiments of Rudi et al. (2017).
const DefaultFalkonIter = 20

// DefaultFalkonTol is the tolerance Falkon uses when Tol is 0: ε = 2⁻⁵²,
// the machine epsilon. With W the preconditioned matrix and β* the
// solution, a residual ‖r‖ ≤ ε‖r₀‖ bounds the error of the iterate by
// ‖β − β*‖ ≤ κ(W)·ε·‖β*‖, the rounding error of any backward-stable
// solve of W: further iterations only follow rounding noise (the
// recurrence's residual goes on falling far below ε, the true one does
// not). A run that stops by it is converged.
const DefaultFalkonTol = 0x1p-52

// FalkonPromise returns the relative residual ‖r_t‖/‖r₀‖ that t
// iterations reach at the latest when the preconditioner does what it
// promises, which FalkonFit.StoppedShort compares with: max(8·0.6ᵗ, √ε),
// 2.9·10⁻⁴ after 20 iterations. When the centres represent the data at
// this λ (Rudi, Carratino and Rosasco 2017: m of the order of the
// effective dimension), the preconditioned matrix W has a condition
// number κ close to 1, and conjugate gradient's classical bound
// ‖r_t‖/‖r₀‖ ≤ 2√κ·ρᵗ, ρ = (√κ − 1)/(√κ + 1), falls fast; the promise
// takes κ = 16 (ρ = 0.6), generous enough that a run above it is far
// from converged and not merely unlucky. It never falls below √ε
// (1.5·10⁻⁸): a run that far down has a solution accurate beyond what a
// prediction can show.
func FalkonPromise(t int) float64 {
	return max(8*math.Pow(0.6, float64(t)), 0x1p-26)
}

// FalkonFit is a fitted Falkon model and how it was computed.
type FalkonFit struct {
	*Model
	// Indices are the rows of X used as centres, in increasing order (nil
	// when the centres were Given or the fit came from FitOperator).
	Indices []int
	// Jitter is δ, the shift of K_mm in the penalty and the
	// preconditioner's T.
	Jitter float64
	// Iterations is the number of iterations done.
	Iterations int
	// Residuals[k] is ‖r_k‖_F/‖r₀‖_F, the residual of the preconditioned
	// system over all outputs after iteration k relative to the first
	// (Residuals[0] = 1 at the start, c = 0; all 0 when r₀ = 0, as for
	// constant labels with a free intercept).
	Residuals []float64
	// Stopped says why the run ended.
	Stopped StopReason
}

// StoppedShort reports whether the run ended on its budget of iterations
// (Stopped is StopMaxIter) with a final relative residual above
// FalkonPromise(Iterations): far from the solution the preconditioner
// promises, so that the model may predict worse than the converged one.
// The remedy is more iterations (MaxIter) or a larger λ, or more centres
// (the preconditioner is good when m is large enough for λ). A run
// stopped by Tol or Callback is never short.
func (f *FalkonFit) StoppedShort() bool { return f.StoppedShortOf(f.Iterations) }

// StoppedShortOf is StoppedShort measured against FalkonPromise(t) rather
// than the promise of the iterations done: a fit that stands for a
// converged one — after a selection that scored the exact solution at
// its λ — is judged at the promise of the default budget
// (DefaultFalkonIter), so that a small MaxIter, whose own promise is
// loose (0.62 after 5 iterations), does not pass for converged.
func (f *FalkonFit) StoppedShortOf(t int) bool {
	return f.Stopped == StopMaxIter && len(f.Residuals) > 0 && f.Residuals[len(f.Residuals)-1] > FalkonPromise(t)
}

// Fit fits the model; X (n×d) and Y (n×q) are not modified, and the model
// holds a copy of the centres.
//
// Errors wrap ErrInput (bad data, NaN or ±Inf also wrapping
// linalg.ErrNotFinite, λ ≤ 0, Centers < 1 or more than the distinct rows
// of X, Given with the wrong number of columns, PenalizedIntercept,
// MaxIter or Tol < 0), kernels.ErrParameter; a *linalg.MemoryError
// wrapping linalg.ErrTooLarge, before anything of size m×m is allocated,
// if the fit needs more memory than the program may use (see Falkon for
// what it holds); linalg.ErrNotPositiveDefinite if even the largest
// jitter fails, or linalg.ErrNoConvergence if the iterates overflow.
func (f Falkon) Fit(x, y *linalg.Dense) (*FalkonFit, error) {
	const op = "Falkon.Fit"
	if err := checkRegularized(op, f.Kernel, x, y, f.Lambda, f.Intercept); err != nil {
		return nil, err
	}
	if err := f.checkOptions(op); err != nil {
		return nil, err
	}
	centers, indices, err := chooseCenters(op, x, f.Given, f.Centers, func(m int) error {
		return checkFalkonMemory(op, x.Rows, m, x.Cols, y.Cols)
	}, func(m int) ([]int, error) {
		return drawDistinctCenters(op, x, m, f.Seed)
	})
	if err != nil {
		return nil, err
	}
	rows, err := kernels.NewRows(f.Kernel, x, centers)
	if err != nil {
		return nil, kernelError(op, "X", err)
	}
	fit, err := f.solve(op, centers, &rowsOperator{rows: rows, y: y})
	if err != nil {
		return nil, err
	}
	fit.Indices = indices
	return fit, nil
}

// FitOperator runs the solver of Fit (the preconditioner from
// K_mm = k(C, C), conjugate gradient, the intercept by centring with
// K_nmᵀ1 and 1ᵀY) with every pass over the data done by op, for data that
// Fit cannot hold or that lives elsewhere. f.Kernel must be the kernel op
// uses; Centers, Seed and Given are not used. When op computes the sums of
// Fit's own operator in the same order, the fit is bit for bit that of Fit.
// centres is not modified; the model holds a copy.
//
// Errors: those of Fit about the options, the centres (m×d, finite) and
// the memory; ErrInput if op is nil or its Summary is malformed (n < 1, shapes
// that do not match m and each other, NaN or ±Inf); and any error op
// returns, wrapped.
func (f Falkon) FitOperator(centers *linalg.Dense, op NystromOperator) (*FalkonFit, error) {
	const call = "Falkon.FitOperator"
	if err := checkKernel(call, f.Kernel); err != nil {
		return nil, err
	}
	if err := checkLambda(call, "Lambda", f.Lambda); err != nil {
		return nil, err
	}
	if err := f.Intercept.check(call); err != nil {
		return nil, err
	}
	if err := f.checkOptions(call); err != nil {
		return nil, err
	}
	if err := check.Data(ErrInput, call, "centers", centers, 1); err != nil {
		return nil, err
	}
	if op == nil {
		return nil, inputError(call, "op", "nil NystromOperator")
	}
	if err := checkFalkonMemory(call, 0, centers.Rows, centers.Cols, 1); err != nil {
		return nil, err
	}
	return f.solve(call, centers.Clone(), op)
}

// checkOptions validates the options Fit and FitOperator share beyond λ.
func (f Falkon) checkOptions(op string) error {
	if f.Intercept == PenalizedIntercept {
		return inputError(op, "Intercept", "penalized, not offered by Falkon (NoIntercept or FreeIntercept; Nystrom has the kernel k + 1)")
	}
	if err := check.OptionCount(ErrInput, op, "MaxIter", f.MaxIter, fmt.Sprint(DefaultFalkonIter)); err != nil {
		return err
	}
	return check.Option(ErrInput, op, "Tol", f.Tol, "DefaultFalkonTol")
}

// solve runs the preconditioned conjugate gradient of Falkon with the
// centers (owned by the fit) and the data behind op: the system W·β = b
// of falkonSystem, solved by cgSolve from β = 0, then c = T⁻¹A⁻¹β.
func (f Falkon) solve(call string, centers *linalg.Dense, op NystromOperator) (*FalkonFit, error) {
	n, kty, kt1, sumY, err := op.Summary()
	if err != nil {
		return nil, fmt.Errorf("regress: %s: the data pass: %w", call, err)
	}
	m, q := centers.Rows, kty.Cols
	if err := checkSummary(call, m, n, kty, kt1, sumY); err != nil {
		return nil, err
	}
	pc, err := newFalkonPrecond(call, f.Kernel, centers, f.Lambda)
	if err != nil {
		return nil, err
	}
	sys := newFalkonSystem(call, pc, op, n, kt1, sumY, f.Intercept == FreeIntercept)
	beta := linalg.NewDense(m, q, nil)
	current := &Model{Kernel: f.Kernel, Centers: centers, Coef: linalg.NewDense(m, q, nil), Intercept: make([]float64, q)}
	st := &runState{maxIter: cmp.Or(f.MaxIter, DefaultFalkonIter), callback: f.Callback,
		model: func() *Model { sys.model(current, beta); return current }}
	tol := cmp.Or(f.Tol, DefaultFalkonTol)
	err = cgSolve(beta, cgProblem{b: sys.rhs(kty), mul: sys.mul, what: call + ": pᵀWp", q: q, tol: tol, relative: true}, st)
	if err == st.err && err != nil { // the residual turned NaN or ±Inf
		err = fmt.Errorf("regress: %s: %w", call, err)
	}
	if err != nil {
		return nil, err
	}
	sys.model(current, beta)
	fit := &FalkonFit{Model: current, Jitter: pc.delta, Iterations: st.iterations, Residuals: st.residuals, Stopped: st.stopped}
	if err := current.checkFinite(); err != nil {
		return nil, err
	}
	return fit, nil
}

// falkonSystem is Falkon's preconditioned normal equations, the symmetric
// positive definite system W·β = b of m×q matrices with
//
//	W = A⁻ᵀT⁻ᵀ·H·T⁻¹A⁻¹ / n,  b = A⁻ᵀT⁻ᵀ·z / n,  c = T⁻¹A⁻¹β,
//
// H = K_nmᵀK_nm + nλ·TᵀT and z = K_nmᵀy without an intercept, and with a
// free one H = K_nmᵀ(I − 11ᵀ/n)K_nm + nλ·TᵀT and z = K_nmᵀ(y − ȳ1); T
// and A are the factors of falkonPrecond (with L = Tᵀ and M = Aᵀ lower
// triangular), and every product with K_nm is a pass of op.
type falkonSystem struct {
	call      string
	pc        *falkonPrecond
	op        NystromOperator
	n         float64
	kt1       []float64 // K_nmᵀ1
	yMean     []float64 // ȳ (free intercept), else zeros
	free      bool
	av, v, hv *linalg.Dense // workspace of mul, m×q each
}

func newFalkonSystem(call string, pc *falkonPrecond, op NystromOperator, n int, kt1, sumY []float64, free bool) *falkonSystem {
	m, q := len(kt1), len(sumY)
	s := &falkonSystem{call: call, pc: pc, op: op, n: float64(n), kt1: kt1, yMean: make([]float64, q), free: free,
		av: linalg.NewDense(m, q, nil), v: linalg.NewDense(m, q, nil), hv: linalg.NewDense(m, q, nil)}
	if free {
		for k := range s.yMean {
			s.yMean[k] = sumY[k] / s.n
		}
	}
	return s
}

// rhs returns b = A⁻ᵀT⁻ᵀ·z/n = M⁻¹L⁻¹·z/n from kty = K_nmᵀy, with
// z = K_nmᵀy, or K_nmᵀ(y − ȳ1) = K_nmᵀy − K_nmᵀ1·ȳᵀ for a free
// intercept.
func (s *falkonSystem) rhs(kty *linalg.Dense) *linalg.Dense {
	b := linalg.NewDense(kty.Rows, kty.Cols, nil)
	for j := range b.Rows {
		row, src := b.Row(j), kty.Row(j)
		for k := range row {
			z := src[k]
			if s.free {
				z -= s.kt1[j] * s.yMean[k]
			}
			row[k] = z / s.n
		}
	}
	linalg.Trtrs(linalg.Lower, linalg.NoTrans, s.pc.l, b)
	linalg.Trtrs(linalg.Lower, linalg.NoTrans, s.pc.a, b)
	return b
}

// mul sets dst = W·p: with av = A⁻¹p = M⁻ᵀp and v = T⁻¹av = L⁻ᵀav, one
// pass of op for hv = K_nmᵀK_nm·v (centred for a free intercept,
// subtractRankOne), and, since the penalty TᵀT = L·Lᵀ has Lᵀv = av,
//
//	W·p = M⁻¹L⁻¹(hv/n + λ·L·Lᵀv) = M⁻¹(L⁻¹hv/n + λ·av).
//
// Cost: the pass and four triangular solves, 4m²q flops.
func (s *falkonSystem) mul(dst, p *linalg.Dense) error {
	pc, av, v, hv := s.pc, s.av, s.v, s.hv
	av.Copy(p)
	linalg.Trtrs(linalg.Lower, linalg.Trans, pc.a, av)
	v.Copy(av)
	linalg.Trtrs(linalg.Lower, linalg.Trans, pc.l, v)
	if err := s.op.NormalMul(hv, v); err != nil {
		return fmt.Errorf("regress: %s: the data pass: %w", s.call, err)
	}
	if s.free {
		subtractRankOne(hv, s.kt1, v, s.n)
	}
	linalg.Trtrs(linalg.Lower, linalg.NoTrans, pc.l, hv)
	for j := range hv.Rows {
		h, ar := hv.Row(j), av.Row(j)
		for k := range h {
			h[k] = h[k]/s.n + pc.lambda*ar[k]
		}
	}
	linalg.Trtrs(linalg.Lower, linalg.NoTrans, pc.a, hv)
	dst.Copy(hv)
	return nil
}

// model sets the coefficients of current to c = T⁻¹A⁻¹β = L⁻ᵀM⁻ᵀβ and,
// for a free intercept, its intercepts to b = ȳ − (1/n)·1ᵀK_nm·c.
func (s *falkonSystem) model(current *Model, beta *linalg.Dense) {
	c := current.Coef
	c.Copy(beta)
	linalg.Trtrs(linalg.Lower, linalg.Trans, s.pc.a, c)
	linalg.Trtrs(linalg.Lower, linalg.Trans, s.pc.l, c)
	if s.free {
		for k := range current.Intercept {
			var sum float64
			for j := range c.Rows {
				sum += s.kt1[j] * c.At(j, k)
			}
			current.Intercept[k] = s.yMean[k] - sum/s.n
		}
	}
}

// subtractRankOne sets hv −= s·(sᵀv)/n: the centring of K_nmᵀK_nm·v to
// K_nmᵀ(I − 11ᵀ/n)K_nm·v, with s = K_nmᵀ1.
func subtractRankOne(hv *linalg.Dense, s []float64, v *linalg.Dense, n float64) {
	sv := make([]float64, v.Cols)
	for j, sj := range s {
		for k, vk := range v.Row(j) {
			sv[k] += sj * vk
		}
	}
	for k := range sv {
		sv[k] /= n
	}
	for j, sj := range s {
		row := hv.Row(j)
		for k := range row {
			row[k] -= sj * sv[k]
		}
	}
}

// checkSummary validates what a NystromOperator's Summary returned for m
// centres.
func checkSummary(op string, m, n int, kty *linalg.Dense, kt1, sumY []float64) error {
	if n < 1 {
		return inputError(op, "op", "Summary: n = %d, need at least one training row", n)
	}
	if err := check.Data(ErrInput, op, "op: Summary: K_nmᵀY", kty, 1); err != nil {
		return err
	}
	if kty.Rows != m || kty.Cols < 1 {
		return inputError(op, "op", "Summary: K_nmᵀY is %d×%d, want %d×q with q ≥ 1 (m = %d centres)", kty.Rows, kty.Cols, m, m)
	}
	if len(kt1) != m {
		return inputError(op, "op", "Summary: K_nmᵀ1 has length %d, want %d", len(kt1), m)
	}
	if len(sumY) != kty.Cols {
		return inputError(op, "op", "Summary: 1ᵀY has length %d, want %d", len(sumY), kty.Cols)
	}
	if err := check.Vector(ErrInput, op, "op: Summary: K_nmᵀ1", kt1); err != nil {
		return err
	}
	return check.Vector(ErrInput, op, "op: Summary: 1ᵀY", sumY)
}
