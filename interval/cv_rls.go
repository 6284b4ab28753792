package interval

import (
	"fmt"

	"rkhs/internal/check"
	"rkhs/internal/decomp"
	"rkhs/internal/memlimit"
	"rkhs/linalg"
	"rkhs/regress"
)

// RLSCV fits kernel RLS by Cholesky (regress.RLS.Fit) and builds its CV+
// from the folds (a partition of the n rows into K ≥ 2 non-empty folds,
// as Folds draws), each fold model exactly the refit without its fold
// with the penalty nλ of the full fit (λ·n/(n − |F|) in the refit's own
// convention), from the full fit's factorization, without a refit.
//
// With G factored by the fit (G̃ = G + 11ᵀ for a penalized intercept, the
// kernel k + 1), u = G⁻¹1, s = 1ᵀu (free intercept) and c the model's
// coefficients, the hat matrix is I − nλ(G⁻¹ − uuᵀ/s) and y − μ̂(X) = nλc,
// so the held-out residuals of fold F, e_F = (I − H_FF)⁻¹(y_F − μ̂(X_F))
// (package documentation), are
//
//	e_F = ((G⁻¹)_FF − u_F·u_Fᵀ/s)⁻¹·c_F
//
// (no u term without a free intercept), and the fold model is the full
// one less w_F(x)ᵀe_F: coefficients c − (G⁻¹)_{·F}·e_F + u·(u_Fᵀe_F)/s
// and intercept b − u_Fᵀe_F/s (Woodbury on the rows of F).
//
// Cost: the fit, then per fold one solve with |F| right-hand sides
// (2n²|F| flops: 2n³ over all folds) and a |F|×|F| Cholesky
// factorization; memory the fit's n×n matrix, n×|F| for the largest fold
// and the K models' n coefficients each, checked first.
//
// Errors: those of RLS, and ErrInput for folds that are not a partition
// of the rows into 2 ≤ K ≤ n non-empty folds;
// linalg.ErrNotPositiveDefinite when a fold's system is numerically
// singular.
func RLSCV(cfg regress.RLS, x, y *linalg.Dense, folds [][]int) (*CV, error) {
	const op = "RLSCV"
	if err := check.View(ErrInput, op, "X", x); err != nil {
		return nil, err
	}
	if err := checkFolds(op, folds, x.Rows); err != nil {
		return nil, err
	}
	n := x.Rows
	big := 0
	for _, f := range folds {
		big = max(big, len(f))
	}
	q := 1
	if y != nil {
		q = max(y.Cols, 1)
	}
	if err := memlimit.Check(op, memlimit.Sum(memlimit.Floats(n, n+big), memlimit.Floats(len(folds)+2, n, q), memlimit.Floats(2, big, big+q))); err != nil {
		return nil, err
	}
	fit, err := decomp.FitRLS(cfg, op, x, y)
	if err != nil {
		return nil, fitError(op, "cfg", err)
	}
	m := fit.Model.(*regress.Model)
	free := cfg.Intercept == regress.FreeIntercept
	var u []float64
	var s float64
	if free {
		u = make([]float64, n)
		for i := range u {
			u[i] = 1
		}
		fit.Chol.SolveVecTo(u, u)
		for _, v := range u {
			s += v
		}
	}
	models := make([]*regress.Model, len(folds))
	residuals := make([]*linalg.Dense, len(folds))
	for k, f := range folds {
		nf := len(f)
		cols := linalg.NewDense(n, nf, nil) // (G⁻¹)_{·F}
		for a, i := range f {
			cols.Set(i, a, 1)
		}
		fit.Chol.SolveTo(cols, cols)
		a := linalg.NewDense(nf, nf, nil) // (G⁻¹)_FF − u_F u_Fᵀ/s, symmetrized
		for r, i := range f {
			for c2 := 0; c2 <= r; c2++ {
				v := (cols.At(i, c2) + cols.At(f[c2], r)) / 2
				if free {
					v -= u[i] * u[f[c2]] / s
				}
				a.Set(r, c2, v)
			}
		}
		var ch linalg.Cholesky
		if err := ch.FactorizeInPlace(a); err != nil {
			return nil, fmt.Errorf("interval: RLSCV: fold %d's system (G⁻¹)_FF at λ = %g: %w", k, cfg.Lambda, err)
		}
		e := rowsOfDense(m.Coef, f)
		ch.SolveTo(e, e)
		residuals[k] = e
		coef := m.Coef.Clone()
		linalg.Gemm(linalg.NoTrans, linalg.NoTrans, -1, cols, e, 1, coef)
		b := append([]float64(nil), m.Intercept...)
		for out := range b {
			switch cfg.Intercept {
			case regress.FreeIntercept:
				var ue float64
				for r, i := range f {
					ue += u[i] * e.At(r, out)
				}
				for i := 0; i < n; i++ {
					coef.Set(i, out, coef.At(i, out)+u[i]*ue/s)
				}
				b[out] -= ue / s
			case regress.PenalizedIntercept:
				b[out] = 0 // the kernel k + 1: b = 1ᵀc
				for i := 0; i < n; i++ {
					b[out] += coef.At(i, out)
				}
			}
		}
		models[k] = &regress.Model{Kernel: m.Kernel, Centers: m.Centers, Coef: coef, Intercept: b}
	}
	c, err := NewCV(models, residuals)
	if err != nil {
		return nil, err
	}
	c.full = m
	return c, nil
}

// rowsOfDense returns a copy of the rows idx of m.
func rowsOfDense(m *linalg.Dense, idx []int) *linalg.Dense {
	out := linalg.NewDense(len(idx), m.Cols, nil)
	for r, i := range idx {
		copy(out.Row(r), m.Row(i))
	}
	return out
}
