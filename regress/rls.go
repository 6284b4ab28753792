package regress

import (
	"fmt"

	"rkhs/internal/memlimit"
	"rkhs/kernels"
	"rkhs/linalg"
)

// RLS is kernel regularized least squares solved by a Cholesky
// factorization: for n training points (rows of X) and targets Y (n×q, one
// column per output), the coefficients solve
//
//	(K + nλI)·C = Y                  (NoIntercept)
//	[K + nλI, 1; 1ᵀ, 0]·[C; bᵀ] = [Y; 0]  (FreeIntercept)
//	(K + 11ᵀ + nλI)·C = Y, b = 1ᵀC   (PenalizedIntercept)
//
// with K[i][j] = k(xᵢ, xⱼ): f minimises (1/n)Σᵢ(yᵢ − f(xᵢ))² + λ‖f‖².
type RLS struct {
	Kernel    kernels.Kernel
	Lambda    float64 // λ > 0, in the K + nλI convention
	Intercept Intercept
}

// Fit fits the model. X (n×d) and Y (n×q) are not modified; the model holds
// a copy of X.
//
// One n×n matrix is allocated, G = K + nλI (plus 11ᵀ for the penalized
// intercept), built in its lower triangle by kernels.GramTo and factored in
// place by linalg.Cholesky; all q outputs share the factorization. The free
// intercept stays with positive definite solves: with U = G⁻¹Y and
// w = G⁻¹1 (one more right-hand side), b = 1ᵀU / 1ᵀw and C = U − w·bᵀ. The
// cost is the Gram matrix (n²d flops for Linear, Polynomial and Gaussian),
// n³/3 for the factorization and 2n²(q+1) for the solves; memory is one n×n
// matrix (8n² bytes: 3.2 GB at n = 20000), and Fit returns a
// *linalg.MemoryError (linalg.ErrTooLarge) before allocating it when that,
// with the copies of X and Y, exceeds the memory limit (see package rkhs).
//
// Errors: *linalg.InputError values wrapping ErrInput for invalid
// arguments (a nil or invalid kernel, also kernels.ErrParameter; nil,
// empty or malformed X or Y; mismatched rows; NaN or ±Inf, also
// linalg.ErrNotFinite; λ ≤ 0, λ = 0 included: it has no default), and
// linalg.ErrNotPositiveDefinite if G is not numerically positive definite
// (λ too small for the kernel's rounding errors, or a kernel that is not
// positive semidefinite).
func (r RLS) Fit(x, y *linalg.Dense) (*Model, error) {
	m, _, err := r.fit("RLS.Fit", x, y)
	return m, err
}

// fit is Fit for the call op that also returns the Cholesky factorization
// of G (package interval reads it through rkhs/internal/decomp).
func (r RLS) fit(op string, x, y *linalg.Dense) (*Model, *linalg.Cholesky, error) {
	if err := checkRegularized(op, r.Kernel, x, y, r.Lambda, r.Intercept); err != nil {
		return nil, nil, err
	}
	n := x.Rows
	if err := memlimit.CheckSquares(op, n, 1, 2*x.Cols+3*(y.Cols+1)); err != nil {
		return nil, nil, err
	}
	g, err := kernels.GramTo(nil, r.Kernel, x, linalg.Lower)
	if err != nil {
		return nil, nil, kernelError(op, "X", err)
	}
	shift(g, float64(n)*r.Lambda, r.Intercept == PenalizedIntercept)
	var ch linalg.Cholesky
	if err := ch.FactorizeInPlace(g); err != nil {
		return nil, nil, fmt.Errorf("regress: K + nλI with λ = %g (raise λ, or scale the features: on unscaled data the kernel matrix is nearly singular): %w", r.Lambda, err)
	}
	coef, b := solveWithIntercept(&ch, y, r.Intercept)
	if err := checkModel(op, coef, b); err != nil {
		return nil, nil, err
	}
	return &Model{Kernel: r.Kernel, Centers: x.Clone(), Coef: coef, Intercept: b}, &ch, nil
}

// shift adds s to the diagonal of the lower triangle of g and, if ones is
// set, 1 to every element of the lower triangle (the kernel k + 1).
func shift(g *linalg.Dense, s float64, ones bool) {
	for i := 0; i < g.Rows; i++ {
		row := g.Row(i)[:i+1]
		if ones {
			for j := range row {
				row[j]++
			}
		}
		row[i] += s
	}
}

// solveWithIntercept solves with the factorization of G for the
// coefficients and intercepts of the three modes (see RLS): the free
// intercept solves for [Y | 1] at once and combines the two (combineFree).
func solveWithIntercept(ch *linalg.Cholesky, y *linalg.Dense, ic Intercept) (*linalg.Dense, []float64) {
	if ic == FreeIntercept {
		rhs := appendOnes(y)
		ch.SolveTo(rhs, rhs)
		return combineFree(rhs, y.Cols, true)
	}
	coef := ch.SolveTo(nil, y)
	b := make([]float64, y.Cols)
	if ic == PenalizedIntercept {
		b = colSums(coef)
	}
	return coef, b
}
