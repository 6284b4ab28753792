package loo

import (
	"fmt"

	"rkhs/internal/memlimit"
	"rkhs/linalg"
	"rkhs/regress"
)

// Filters returns, for each spectral filter g, the leave-one-out residuals
// by the hat-matrix formula rᵢ = (yᵢ − ŷᵢ)/(1 − Hᵢᵢ) and the GCV score
// n‖(I − H)y‖² / tr(I − H)², from the eigendecomposition held by s.
// Path.Params is nil; Path.Filters lists the filters.
//
// H is the linear map y ↦ ŷ of the fit: with K = Q·diag(σ)·Qᵀ and h = σ∘g,
//
//	NoIntercept:    I − H = Q·diag(1 − h)·Qᵀ
//	FreeIntercept:  I − H = (I − K·g(K))·(I − 1wᵀ),  w = g(K)1 / 1ᵀg(K)1
//
// (the free intercept of regress.Spectral.Fit; w = 1/n when g(K)1 = 0, a
// filter that keeps nothing along 1, whose fit is the mean of y). The
// formula is exact for
// Tikhonov, where it is the closed form of RLS (equal to refitting without
// each point, with the penalty nλ kept); for truncated SVD, Landweber, the
// ν-method and iterated Tikhonov it is the usual approximation — their
// leave-one-out fits are not given by deleting a row of a fixed linear
// system, since the filter itself depends on the spectrum of all n points.
// The penalized intercept is available for Tikhonov through RLS.
//
// The cost is about 2n²F(q+3) flops for F filters, in Gemm calls.
//
// Errors: InputErrors wrapping ErrInput for a nil or zero s, an empty
// filter list, a nil or invalid filter (NaN or ±Inf parameters also
// linalg.ErrNotFinite), the penalized intercept or fewer than 2 points; linalg.ErrNotPositiveDefinite,
// naming the filter, when a residual or the GCV score comes out NaN or ±Inf
// because I − H is numerically singular for that filter (1 − Hᵢᵢ or
// tr(I − H) zero in floating point).
func Filters(s *regress.Spectral, fs []regress.Filter, ic regress.Intercept) (*Path, error) {
	const op = "Filters"
	sp, err := spectralOf(op, s)
	if err != nil {
		return nil, err
	}
	if len(fs) == 0 {
		return nil, inputError(op, "fs", "empty list")
	}
	if ic != regress.NoIntercept && ic != regress.FreeIntercept {
		return nil, inputError(op, "ic", "filters support intercept none and free; use RLS for %v", ic)
	}
	sigma, q, z, o, y := sp.Eigenvalues, sp.Q, sp.QtY, sp.Qt1, sp.Y
	n, nq, nf := len(sigma), z.Cols, len(fs)
	if err := checkPoints(op, "s", n); err != nil {
		return nil, err
	}
	free := ic == regress.FreeIntercept
	if err := memlimit.CheckSquares(op, n, 0, 4*nf*(nq+3)); err != nil {
		return nil, err
	}
	e := linalg.NewDense(n, nf, nil) // 1 − σg per filter
	gs := make([][]float64, nf)
	for j, f := range fs {
		if f == nil {
			return nil, inputError(op, fmt.Sprintf("fs[%d]", j), "nil filter")
		}
		g, err := s.FilterValues(f)
		if err != nil {
			return nil, regressError(op, fmt.Sprintf("fs[%d]", j), err)
		}
		gs[j] = g
		for k := 0; k < n; k++ {
			e.Set(k, j, 1-sigma[k]*g[k])
		}
	}
	diagE := squaredRowsTimes(q, e)
	// Eigen-coordinates, per filter: the residual (I − H)y for each output,
	// and for the free intercept E·1 and w.
	cols := nq
	if free {
		cols += 2
	}
	m := linalg.NewDense(n, nf*cols, nil)
	b := make([][]float64, nf)  // intercepts, free only
	wv := make([][]float64, nf) // Qᵀw = wv/wd, free only
	wd := make([]float64, nf)
	for j := range fs {
		g := gs[j]
		b[j] = make([]float64, nq)
		if free {
			// w = g(K)1 / 1ᵀg(K)1, or 1/n when g(K)1 = 0 (the mean of y, as
			// in regress.Spectral): numerator g∘o or o, denominator apart.
			wv[j] = make([]float64, n)
			for k := 0; k < n; k++ {
				wv[j][k] = g[k] * o[k]
				wd[j] += o[k] * o[k] * g[k]
			}
			if wd[j] == 0 {
				copy(wv[j], o)
				wd[j] = float64(n)
			}
			for out := 0; out < nq; out++ {
				var t float64
				for k := 0; k < n; k++ {
					t += wv[j][k] * z.At(k, out)
				}
				b[j][out] = t / wd[j]
			}
		}
		for k := 0; k < n; k++ {
			ek := e.At(k, j)
			row := m.Row(k)[j*cols : (j+1)*cols]
			for out := 0; out < nq; out++ {
				row[out] = ek * (z.At(k, out) - b[j][out]*o[k])
			}
			if free {
				row[nq] = ek * o[k]          // E·1
				row[nq+1] = wv[j][k] / wd[j] // w
			}
		}
	}
	prod := linalg.NewDense(n, m.Cols, nil)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, q, m, 0, prod)

	p := &Path{Filters: append([]regress.Filter(nil), fs...), y: y}
	for j := range fs {
		var tr float64 // tr(I − H)
		for k := 0; k < n; k++ {
			tr += e.At(k, j)
		}
		if free {
			var ew float64 // wᵀE1 = (wv)ᵀ(e∘o)/wd
			for k := 0; k < n; k++ {
				ew += wv[j][k] * o[k] * e.At(k, j)
			}
			tr -= ew / wd[j]
		}
		res := linalg.NewDense(n, nq, nil)
		var gcv float64
		for out := 0; out < nq; out++ {
			var rr float64
			for i := 0; i < n; i++ {
				row := prod.Row(i)[j*cols : (j+1)*cols]
				d := diagE.At(i, j)
				if free {
					d -= row[nq] * row[nq+1]
				}
				ri := row[out]
				rr += ri * ri
				res.Set(i, out, ri/d)
			}
			gcv += float64(n) * rr / (tr * tr)
		}
		p.Residuals = append(p.Residuals, res)
		p.MSE = append(p.MSE, meanSquare(res))
		p.GCV = append(p.GCV, gcv/float64(nq))
	}
	if err := checkPath(p, op, "I − H"); err != nil {
		return nil, err
	}
	return p, nil
}
