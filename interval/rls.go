package interval

import (
	"fmt"
	"math"

	"rkhs/internal/check"
	"rkhs/internal/decomp"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// RLS fits kernel RLS by Cholesky (regress.RLS.Fit, the same model) and
// prepares its jackknife+ intervals, for any of the three intercept modes
// of cfg; cfg.Lambda is the λ of every leave-one-out model (the penalty
// nλ is held fixed, as package loo holds it).
//
// With G = K + nλI factored by the fit, u = G⁻¹1 and s = 1ᵀu, the weights
// of the fit at a point x, μ̂(x) = Σᵢ wᵢ(x)·yᵢ, are
//
//	NoIntercept:        w(x) = G⁻¹k(x)
//	FreeIntercept:      w(x) = G⁻¹k(x) + u·(1 − uᵀk(x))/s
//	PenalizedIntercept: w(x) = G̃⁻¹k̃(x), G̃ = G + 11ᵀ, k̃ = k(x) + 1
//
// (the penalized intercept is RLS with the kernel k + 1, which the fit
// factors; the free one follows from b = 1ᵀG⁻¹y/s and c = G⁻¹(y − b·1)),
// and the leave-one-out residuals are eᵢ = cᵢ/((G⁻¹)ᵢᵢ − uᵢ²/s) (free) or
// cᵢ/(G̃⁻¹)ᵢᵢ (no or a penalized intercept, G̃ = G without one), c the
// model's coefficients. Every leave-one-out model is then
// μ̂₋ᵢ(x) = μ̂(x) − wᵢ(x)·eᵢ (see package documentation, The leave-one-out
// models).
//
// Cost: the fit (the Gram matrix, n³/3 for the factorization), n³/3 for
// the diagonal of G⁻¹ (linalg.Cholesky.InverseDiagTo) and 2n² for u;
// memory that of the fit, one n×n matrix, which the Jackknife keeps.
// x and y are not modified.
//
// Errors: those of regress.RLS.Fit, argument errors wrapped as
// InputErrors of this call that wrap ErrInput too (the argument "cfg");
// fewer than 2 rows (ErrInput).
func RLS(cfg regress.RLS, x, y *linalg.Dense) (*Jackknife, error) {
	const op = "RLS"
	if err := check.View(ErrInput, op, "X", x); err != nil {
		return nil, err
	}
	if x.Rows == 1 {
		return nil, inputError(op, "X", "one row: leaving it out leaves nothing to fit")
	}
	fit, err := decomp.FitRLS(cfg, op, x, y)
	if err != nil {
		return nil, fitError(op, "cfg", err)
	}
	m := fit.Model.(*regress.Model)
	s := &rlsSmoother{kernel: cfg.Kernel, x: m.Centers, model: m, ch: fit.Chol, plusOne: cfg.Intercept == regress.PenalizedIntercept}
	n := x.Rows
	diag := fit.Chol.InverseDiagTo(nil)
	if cfg.Intercept == regress.FreeIntercept {
		s.u = make([]float64, n)
		for i := range s.u {
			s.u[i] = 1
		}
		fit.Chol.SolveVecTo(s.u, s.u)
		for _, v := range s.u {
			s.s += v
		}
		for i, v := range s.u {
			diag[i] -= v * v / s.s
		}
	}
	s.e = linalg.NewDense(n, m.Coef.Cols, nil)
	for i := 0; i < n; i++ {
		for k, c := range m.Coef.Row(i) {
			s.e.Set(i, k, c/diag[i])
		}
	}
	if err := check.Result(ErrInput, op, "leave-one-out residuals", s.e, fmt.Sprintf("G = K + nλI is numerically singular at λ = %g: raise λ", cfg.Lambda)); err != nil {
		return nil, err
	}
	return &Jackknife{model: m, sm: s}, nil
}

// rlsSmoother is exact kernel RLS from the Cholesky factor of its G.
type rlsSmoother struct {
	kernel  kernels.Kernel
	x       *linalg.Dense // the training rows (the model's centres)
	model   *regress.Model
	ch      *linalg.Cholesky // of G, or of G̃ = G + 11ᵀ when plusOne
	plusOne bool             // penalized intercept: the kernel k + 1
	u       []float64        // free intercept: G⁻¹1 (nil otherwise)
	s       float64          // 1ᵀu
	e       *linalg.Dense    // leave-one-out residuals, n×q
}

func (s *rlsSmoother) rows() (int, int)         { return s.x.Rows, s.x.Cols }
func (s *rlsSmoother) residuals() *linalg.Dense { return s.e }
func (s *rlsSmoother) blockFloats(b int) int    { return 2*s.x.Rows*b + 2*b }

// weights computes V = G⁻¹K(X, xt) (n×b) by two triangular solves; then
// w(x_j) = V_j (+ u·γ_j, γ_j = (1 − uᵀk(x_j))/s, for the free intercept),
// μ̂(x_j) = k(x_j)ᵀc + b, and the variance k(x_j, x_j) − k(x_j)ᵀV_j
// (+ s·γ_j²), with k̃ = k + 1 throughout for the penalized intercept.
func (s *rlsSmoother) weights(xt, w, pred *linalg.Dense, sd []float64) error {
	const op = "Jackknife.Predict"
	n, b := s.x.Rows, xt.Rows
	kt, err := kernels.CrossTo(linalg.NewDense(n, b, nil), s.kernel, s.x, xt)
	if err != nil {
		return check.Wrap(ErrInput, op, "xt", err)
	}
	if s.plusOne {
		for i := 0; i < n; i++ {
			row := kt.Row(i)
			for j := range row {
				row[j]++
			}
		}
	}
	v := s.ch.SolveTo(nil, kt)
	linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, kt, s.model.Coef, 0, pred)
	if !s.plusOne { // k̃ᵀc already holds b = 1ᵀc
		for j := 0; j < b; j++ {
			row := pred.Row(j)
			for k := range row {
				row[k] += s.model.Intercept[k]
			}
		}
	}
	quad := make([]float64, b) // k(x_j)ᵀG⁻¹k(x_j)
	ut := make([]float64, b)   // uᵀk(x_j)
	for i := 0; i < n; i++ {
		kr, vr := kt.Row(i), v.Row(i)
		for j := range quad {
			quad[j] += kr[j] * vr[j]
		}
		if s.u != nil {
			for j := range ut {
				ut[j] += s.u[i] * kr[j]
			}
		}
	}
	for j := 0; j < b; j++ {
		xj := xt.Row(j)
		kxx := s.kernel.Eval(xj, xj)
		if s.plusOne {
			kxx++
		}
		vr := kxx - quad[j]
		var g float64
		if s.u != nil {
			g = (1 - ut[j]) / s.s
			vr += s.s * g * g
		}
		sd[j] = math.Sqrt(max(vr, 0))
		wj := w.Row(j)
		for i := 0; i < n; i++ {
			wj[i] = v.At(i, j)
		}
		if s.u != nil {
			for i, ui := range s.u {
				wj[i] += ui * g
			}
		}
	}
	return nil
}
