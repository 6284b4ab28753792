package regress

import (
	"fmt"
	"math"

	"rkhs/internal/check"
	"rkhs/internal/memlimit"
	"rkhs/internal/power"
	"rkhs/kernels"
	"rkhs/linalg"
)

// Iterative holds the options shared by the iterative solvers (Landweber,
// NuMethod, CGLS, CG). For Landweber, the ν-method and CGLS the number of
// iterations is the regularization parameter (early stopping); for CG on
// K + nλI it is a budget.
type Iterative struct {
	// MaxIter is the number of iterations to run. For Landweber, the
	// ν-method and CGLS it is the regularization parameter and has no
	// default: it must be at least 1. For CG it is a budget, and 0 selects
	// n, the number of steps in which CG solves the system in exact
	// arithmetic.
	MaxIter int
	// Tol, if positive, stops the run early once the relative residual of
	// every output is at most Tol (see each solver for which residual).
	// The zero value means no tolerance test.
	Tol float64
	// Callback, if not nil, is called after every iteration with the
	// residual norm over all outputs (see each solver for which residual)
	// and the current model; returning false stops the run.
	Callback Callback
	// KeepPath records the model after every iteration in IterFit.Path.
	KeepPath bool
	// LastResidual keeps in IterFit.Residuals only the residual at the
	// start and after the last iteration, so that memory does not grow
	// with MaxIter (8 bytes or more an iteration otherwise).
	LastResidual bool
	// Stream never stores K: each product with K rebuilds its rows a block
	// at a time (kernels.Rows), so memory stays O(n·block) at the price of
	// recomputing the kernel at every product. Without it K is built once
	// (n×n) and every product is one linalg.Gemm, and Fit returns a
	// *linalg.MemoryError (linalg.ErrTooLarge) before allocating when K
	// exceeds the memory limit (see package rkhs). With kernels.Linear
	// neither happens: K·v is X·(Xᵀv), O(nd) memory and flops.
	Stream bool
}

// IterFit is the result of an iterative solver: the model after the last
// iteration, and how the run went.
type IterFit struct {
	*Model
	// Iterations is the number of iterations done.
	Iterations int
	// Residuals[i] is the residual norm after iteration i (Residuals[0]
	// at the start, c = 0), over all outputs; with LastResidual, only
	// Residuals[0] and the last.
	Residuals []float64
	// Path[i] is the model after iteration i+1, with KeepPath.
	Path []*Model
	// Stopped says why the run ended.
	Stopped StopReason
	// Eta is the step size used (Landweber and the ν-method).
	Eta float64
}

// Callback is called by an iterative solver (Landweber, NuMethod, CGLS,
// CG, Falkon) after every iteration with the iteration number (1, 2, …),
// the residual the solver records (see each solver for which) and the
// current model, so that, for example, current.Predict on a validation
// set gives the validation error for early stopping. current and its
// matrices are valid during the call only and must not be modified.
// Returning false stops the run with the current model (StopCallback).
type Callback func(iter int, residual float64, current *Model) bool

// StopReason says why an iterative solver stopped.
type StopReason int

const (
	// StopMaxIter: MaxIter iterations were done.
	StopMaxIter StopReason = iota
	// StopTol: the residual of every output reached Tol.
	StopTol
	// StopCallback: the callback returned false.
	StopCallback
)

// String returns "iterations", "tolerance" or "callback".
func (r StopReason) String() string {
	switch r {
	case StopMaxIter:
		return "iterations"
	case StopTol:
		return "tolerance"
	case StopCallback:
		return "callback"
	}
	return fmt.Sprintf("StopReason(%d)", int(r))
}

// check validates the options for op. For the early-stopping solvers
// MaxIter is the regularization parameter and has no default (0 is an
// error); for CG it is a budget, and 0 selects n (see CG).
func (it Iterative) check(op string, earlyStopping bool) error {
	if earlyStopping {
		if err := check.Count(ErrInput, op, "MaxIter", it.MaxIter, 1); err != nil {
			return err
		}
	} else if err := check.OptionCount(ErrInput, op, "MaxIter", it.MaxIter, "n, the number of training points"); err != nil {
		return err
	}
	return check.Option(ErrInput, op, "Tol", it.Tol, "no tolerance test")
}

// kernelOperator applies K (optionally K + 11ᵀ) to blocks of vectors: from
// a stored n×n matrix by linalg.Gemm, streaming by kernels.Rows, or, for
// the linear kernel, as X·(Xᵀ·v) without ever forming K (2nd·q flops a
// product instead of 2n²q).
type kernelOperator struct {
	stored  *linalg.Dense
	rows    *kernels.Rows
	x       *linalg.Dense // linear kernel: K = X·Xᵀ
	plusOne bool
}

func newKernelOperator(call string, k kernels.Kernel, x *linalg.Dense, stream, plusOne bool) (*kernelOperator, error) {
	op := &kernelOperator{plusOne: plusOne}
	var err error
	if _, ok := k.(kernels.Linear); ok {
		op.x = x
		return op, nil
	}
	switch {
	case stream:
		op.rows, err = kernels.NewRows(k, x, x)
	default:
		if err := memlimit.CheckSquares(call, x.Rows, 1, x.Cols+1); err != nil {
			return nil, err
		}
		op.stored, err = kernels.Gram(k, x)
	}
	if err != nil {
		return nil, kernelError(call, "X", err)
	}
	return op, nil
}

// mul sets dst = K·v (+ 1·(1ᵀv) per column with plusOne); v and dst are
// n×q.
func (op *kernelOperator) mul(dst, v *linalg.Dense) {
	switch {
	case op.x != nil:
		xtv := linalg.NewDense(op.x.Cols, v.Cols, nil)
		linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, op.x, v, 0, xtv)
		linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, op.x, xtv, 0, dst)
	case op.stored != nil:
		linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, op.stored, v, 0, dst)
	default:
		op.rows.MulTo(dst, v)
	}
	if op.plusOne {
		s := colSums(v)
		for i := 0; i < dst.Rows; i++ {
			row := dst.Row(i)
			for k := range row {
				row[k] += s[k]
			}
		}
	}
}

// largestEigenvalue estimates σ_max of the positive semidefinite K (or
// K + 11ᵀ) by the power iteration of rkhs (internal/power), stopping when
// the Rayleigh quotient changes by less than 10⁻⁶ relative, at most 100
// products with K. The estimate never exceeds σ_max.
func largestEigenvalue(op *kernelOperator, n int) float64 {
	v, kv := &linalg.Dense{Rows: n, Cols: 1, Stride: 1}, &linalg.Dense{Rows: n, Cols: 1, Stride: 1}
	return power.Largest(n, func(dst, x []float64) {
		v.Data, kv.Data = x, dst
		op.mul(kv, v)
	}, 1e-6, 100)
}

// stepMargin is the factor between the estimated σ_max and 1/η when the
// step of Landweber or the ν-method is chosen automatically.
const stepMargin = 1.05

// combineFree turns the coefficients C = [C_y | c₁] of an iteration run on
// [Y | 1] into the free-intercept model c = C_y − b·c₁ with
// b = 1ᵀC_y / 1ᵀc₁ (so 1ᵀc = 0), the construction Spectral uses for a
// filter g: c = g(K)(y − b·1). With free unset it returns C and zeros.
func combineFree(c *linalg.Dense, q int, free bool) (*linalg.Dense, []float64) {
	b := make([]float64, q)
	if !free {
		return c.Clone(), b
	}
	s := colSums(c)
	out := c.Slice(0, c.Rows, 0, q).Clone()
	for k := range b {
		b[k] = s[k] / s[q]
	}
	for i := 0; i < c.Rows; i++ {
		w := c.At(i, q)
		row := out.Row(i)
		for k := range row {
			row[k] -= b[k] * w
		}
	}
	return out, b
}

// checkFinite reports coefficients or intercepts that overflowed to ±Inf
// or NaN during an iteration on finite data.
func (m *Model) checkFinite() error {
	for _, v := range m.Coef.Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: a coefficient is %v after the iteration (the iterates overflowed; scale y or stop earlier)", linalg.ErrNoConvergence, v)
		}
	}
	for _, v := range m.Intercept {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: the intercept is %v after the iteration (the iterates overflowed; scale y or stop earlier)", linalg.ErrNoConvergence, v)
		}
	}
	return nil
}
