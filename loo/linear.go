package loo

import (
	"rkhs/internal/decomp"
	"rkhs/linalg"
	"rkhs/regress"
)

// Linear returns the exact leave-one-out residuals of linear-kernel RLS for
// every λ in lambdas from the thin SVD held by lp (Rifkin's linear case), in
// O(nr) per λ and output, r ≤ d the rank: with U the left singular vectors
// of the factored matrix and hₖ(λ) = sₖ²/(sₖ² + nλ), the hat matrix is
//
//	H = U·diag(h)·Uᵀ            (no intercept; penalized: X with a column of ones)
//	H = (1/n)·11ᵀ + U·diag(h)·Uᵀ (free intercept; U from the centred X)
//
// so Hᵢᵢ = Σₖ U_ik²·hₖ (+ 1/n) and ŷ = U·diag(h)·UᵀY (+ ȳ), and the residual
// of point i is (yᵢ − ŷᵢ)/(1 − Hᵢᵢ), exact for ridge regression with an
// unpenalized or a penalized intercept (refit keeping the penalty nλ).
//
// Errors: InputErrors wrapping ErrInput for a nil or zero lp, an empty or
// invalid λ list (NaN or ±Inf also linalg.ErrNotFinite) or fewer than 2
// points;
// linalg.ErrNotPositiveDefinite, naming the λ, when a residual comes out NaN
// or ±Inf because XᵀX + nλI is numerically singular there (1 − Hᵢᵢ = 0 in
// floating point).
func Linear(lp *regress.LinearPath, lambdas []float64) (*Path, error) {
	const op = "Linear"
	d := decomp.LinearPathOf(lp)
	if d == nil {
		return nil, inputError(op, "lp", "nil or zero regress.LinearPath: build one with regress.NewLinearPath")
	}
	if err := checkParams(op, "lambdas", lambdas); err != nil {
		return nil, err
	}
	u, s, uty, yc := d.U, d.S, d.UtY, d.Y
	n, r, nq, nl := u.Rows, len(s), uty.Cols, len(lambdas)
	if err := checkPoints(op, "lp", yc.Rows); err != nil {
		return nil, err
	}
	free := d.Free
	h := linalg.NewDense(r, nl, nil)
	for k, sk := range s {
		for j, l := range lambdas {
			h.Set(k, j, sk*sk/(sk*sk+float64(n)*l))
		}
	}
	diag := squaredRowsTimes(u, h) // Σₖ U_ik² hₖ(λⱼ)
	// ŷ (centred) for all λ and outputs: U·(h ∘ UᵀY).
	m := linalg.NewDense(r, nl*nq, nil)
	for k := 0; k < r; k++ {
		for out := 0; out < nq; out++ {
			for j := 0; j < nl; j++ {
				m.Set(k, out*nl+j, h.At(k, j)*uty.At(k, out))
			}
		}
	}
	yhat := linalg.NewDense(n, m.Cols, nil)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, u, m, 0, yhat)
	p := &Path{Params: append([]float64(nil), lambdas...), y: originalY(d)}
	res := make([]*linalg.Dense, nl)
	for j := range res {
		res[j] = linalg.NewDense(n, nq, nil)
	}
	// Row by row: row i of diag and of ŷ holds every λ contiguously.
	for i := 0; i < n; i++ {
		drow, yrow, yci := diag.Row(i), yhat.Row(i), yc.Row(i)
		for j := 0; j < nl; j++ {
			hi := drow[j]
			if free {
				hi += 1 / float64(n)
			}
			rrow := res[j].Row(i)
			for out := 0; out < nq; out++ {
				rrow[out] = (yci[out] - yrow[out*nl+j]) / (1 - hi)
			}
		}
	}
	for j := range res {
		p.Residuals = append(p.Residuals, res[j])
		p.MSE = append(p.MSE, meanSquare(res[j]))
	}
	if err := checkPath(p, op, "XᵀX + nλI"); err != nil {
		return nil, err
	}
	return p, nil
}

// originalY returns the targets as given (undoing the centring of a free
// intercept), for Path.Predictions.
func originalY(d *decomp.LinearPath) *linalg.Dense {
	y := d.Y.Clone()
	if d.Free {
		mean := d.YMean
		for i := 0; i < y.Rows; i++ {
			row := y.Row(i)
			for k := range row {
				row[k] += mean[k]
			}
		}
	}
	return y
}
