package loo

import (
	"fmt"

	"rkhs/internal/decomp"
	"rkhs/internal/memlimit"
	"rkhs/linalg"
	"rkhs/regress"
)

// Nystrom returns the exact leave-one-out residuals of the Nyström
// (subset of regressors) fit cfg on x, y for every λ in lambdas (cfg.Lambda
// is not used), without forming an n×n matrix.
//
// The Nyström fit is ridge regression on the m features B = K_nm·L⁻ᵀ (see
// regress.Nystrom.Fit): ŷ = H·y with H = B·(BᵀB + nλI)⁻¹·Bᵀ, plus
// (1/n)·11ᵀ for the free intercept, which centres B and y first (the
// penalized intercept is already in B, through the kernel k + 1). With
// BᵀB = V·diag(μ)·Vᵀ and F = B·V, Hᵢᵢ = Σ_k F_ik²/(μ_k + nλ) (+ 1/n) and
// ŷ = F·diag(1/(μ+nλ))·Fᵀy (+ ȳ), so each λ costs O(nm) after O(nm²) for
// F; the residuals are rᵢ = (yᵢ − ŷᵢ)/(1 − Hᵢᵢ).
//
// They are exact: they equal refitting without point i with the same
// centres (even when point i is one of them) and the same penalty nλ: the
// leave-one-out shortcut of Rifkin (2007) carries over to the
// Nyström fit, in O(nm² + Lnm) for L values of λ.
//
// Errors: InputErrors wrapping ErrInput for an empty or invalid λ list,
// fewer than 2 points, an X or Y that is nil, malformed, of the wrong
// shape or not finite (NaN or ±Inf also linalg.ErrNotFinite), or an
// invalid cfg (the checks of regress.Nystrom.Fit, wrapped: they also wrap
// regress.ErrInput);
// linalg.ErrNotPositiveDefinite, naming the λ, when a residual comes out NaN
// or ±Inf because BᵀB + nλI is numerically singular there.
func Nystrom(cfg regress.Nystrom, x, y *linalg.Dense, lambdas []float64) (*Path, error) {
	const op = "Nystrom"
	if err := checkXY(op, x, y); err != nil {
		return nil, err
	}
	if err := checkParams(op, "lambdas", lambdas); err != nil {
		return nil, err
	}
	feat, err := decomp.Features(cfg, op, x)
	if err != nil {
		return nil, regressError(op, "cfg", err)
	}
	n, nq, m := x.Rows, y.Cols, feat.Bt.Rows
	// F, the fitted values and residuals of every λ, V and BᵀB.
	if err := memlimit.Check(op, memlimit.Sum(memlimit.Floats(n, m+3*len(lambdas)*nq+nq), memlimit.Floats(3, m, m))); err != nil {
		return nil, err
	}
	bt := feat.Bt // owned by us: centring in place is fine
	ys := y.Clone()
	free := cfg.Intercept == regress.FreeIntercept
	yMean := make([]float64, nq)
	if free {
		for j := 0; j < m; j++ {
			row := bt.Row(j)
			var s float64
			for _, v := range row {
				s += v
			}
			for i := range row {
				row[i] -= s / float64(n)
			}
		}
		for i := 0; i < n; i++ {
			for k, v := range ys.Row(i) {
				yMean[k] += v / float64(n)
			}
		}
		for i := 0; i < n; i++ {
			row := ys.Row(i)
			for k := range row {
				row[k] -= yMean[k]
			}
		}
	}
	// BᵀB = V·diag(μ)·Vᵀ (m×m), F = B·V (n×m), Fᵀy (m×q).
	g := linalg.NewDense(m, m, nil)
	linalg.Syrk(linalg.Lower, linalg.NoTrans, 1, bt, 0, g)
	var es linalg.EigenSym
	if err := es.Factorize(g, true); err != nil {
		return nil, fmt.Errorf("loo: Nyström BᵀB: %w", err)
	}
	mu := es.Values(nil)
	v := es.VectorsTo(nil)
	f := linalg.NewDense(n, m, nil)
	linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, bt, v, 0, f)
	fty := linalg.NewDense(m, nq, nil)
	linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, f, ys, 0, fty)

	nl := len(lambdas)
	// D_kj = 1/(μ_k + nλ_j); diag_ij = Σ_k F_ik²·D_kj.
	d := resolvents(mu, n, lambdas, func(mk float64) float64 { return mk })
	diag := squaredRowsTimes(f, d)
	// ŷ − ȳ for all λ: F·(Fᵀy ∘ D), one block of L columns per output.
	w := linalg.NewDense(m, nl*nq, nil)
	for k := 0; k < m; k++ {
		for out := 0; out < nq; out++ {
			for j := 0; j < nl; j++ {
				w.Set(k, out*nl+j, fty.At(k, out)*d.At(k, j))
			}
		}
	}
	yhat := linalg.NewDense(n, nl*nq, nil)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, f, w, 0, yhat)

	p := &Path{Params: append([]float64(nil), lambdas...), y: y}
	for j := range lambdas {
		res := linalg.NewDense(n, nq, nil)
		for i := 0; i < n; i++ {
			h := diag.At(i, j)
			if free {
				h += 1 / float64(n)
			}
			for out := 0; out < nq; out++ {
				// yᵢ − ŷᵢ = (yᵢ − ȳ) − (ŷᵢ − ȳ) in the centred coordinates.
				res.Set(i, out, (ys.At(i, out)-yhat.At(i, out*nl+j))/(1-h))
			}
		}
		p.Residuals = append(p.Residuals, res)
		p.MSE = append(p.MSE, meanSquare(res))
	}
	if err := checkPath(p, op, "BᵀB + nλI"); err != nil {
		return nil, err
	}
	return p, nil
}
