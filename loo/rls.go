package loo

import (
	"rkhs/internal/check"
	"rkhs/internal/decomp"
	"rkhs/internal/memlimit"
	"rkhs/linalg"
	"rkhs/regress"
)

// RLS returns the exact leave-one-out residuals of kernel RLS for every λ
// in lambdas (K + nλI convention), from the eigendecomposition held by s,
// for every output and with intercept mode ic.
//
// With G = K + nλI, c = G⁻¹y, u = G⁻¹1 and s = 1ᵀu, the residual of point
// i is (Rifkin's formula and its extensions):
//
//	NoIntercept:        cᵢ / (G⁻¹)ᵢᵢ
//	FreeIntercept:      c̃ᵢ / ((G⁻¹)ᵢᵢ − uᵢ²/s),      c̃ = c − b·u, b = 1ᵀc/s
//	PenalizedIntercept: c̄ᵢ / ((G⁻¹)ᵢᵢ − uᵢ²/(1+s)),  c̄ = c − u·1ᵀc/(1+s)
//
// For the free intercept, the fit satisfies y − ŷ = nλ·c̃ and its hat
// matrix is I − nλ(G⁻¹ − uuᵀ/s); the penalized intercept is RLS with the
// kernel k + 1, whose inverse (G + 11ᵀ)⁻¹ = G⁻¹ − uuᵀ/(1+s) follows by
// Sherman–Morrison. All three are exact: they equal refitting n times
// without point i, provided the refit keeps the full fit's penalty nλ (the
// identity (yᵢ − ŷᵢ)/(1 − Hᵢᵢ) is exact for penalized least squares with a
// penalty that does not depend on the data; a refit on n − 1 points that
// rescaled λ to (n−1)λ would differ slightly).
//
// Everything comes from the spectrum: (G⁻¹)ᵢᵢ = Σ_k Q_ik²/(σ_k + nλ) for all
// λ at once is one product (Q∘Q)·D with D_kj = 1/(σ_k + nλ_j), and c and u
// for all λ are products Q·(…). The cost is about 2n²L(q+2) flops for L
// values of λ — at Gemm speed, a fraction of the eigendecomposition.
//
// Errors: InputErrors wrapping ErrInput for a nil or zero s, an empty or
// invalid λ list (NaN or ±Inf also linalg.ErrNotFinite), an unknown
// intercept mode or fewer than 2 points; linalg.ErrNotPositiveDefinite,
// naming the λ,
// when a residual comes out NaN or ±Inf because G + nλI (or, with an
// intercept, the corrected system) is numerically singular at that λ.
func RLS(s *regress.Spectral, lambdas []float64, ic regress.Intercept) (*Path, error) {
	const op = "RLS"
	d, err := spectralPath(op, s, lambdas)
	if err != nil {
		return nil, err
	}
	if err := checkIntercept(op, ic); err != nil {
		return nil, err
	}
	if err := checkPathMemory(op, d, len(lambdas)); err != nil {
		return nil, err
	}
	p := rlsPath(d, lambdas, ic)
	if err := checkPath(p, op, "G + nλI"); err != nil {
		return nil, err
	}
	return p, nil
}

// rlsPath is RLS on checked arguments without the final guard: a
// numerically singular λ leaves NaN or ±Inf in its residuals and MSE
// (SelectRLS skips such λ).
func rlsPath(s *decomp.Spectral, lambdas []float64, ic regress.Intercept) *Path {
	d := resolvents(s.Eigenvalues, len(s.Eigenvalues), lambdas, func(sk float64) float64 { return sk }) // 1/(σ_k + nλ_j)
	return resolventPath(s, lambdas, d, ic)
}

// spectralPath validates the arguments of a path from a decomposition: s
// built by regress.NewSpectral on at least 2 points, a non-empty list of
// positive finite λ.
func spectralPath(op string, s *regress.Spectral, lambdas []float64) (*decomp.Spectral, error) {
	d, err := spectralOf(op, s)
	if err != nil {
		return nil, err
	}
	if err := checkParams(op, "lambdas", lambdas); err != nil {
		return nil, err
	}
	if err := checkPoints(op, "s", len(d.Eigenvalues)); err != nil {
		return nil, err
	}
	if err := check.Squarable(ErrInput, op, "s (its Y)", d.Y); err != nil {
		return nil, err
	}
	return d, nil
}

// resolvents returns D (len(sigma)×L) with D_kj = 1/(f(σ_k) + nλ_j): the
// spectrum of (f(M) + nλ_jI)⁻¹ for a matrix M of eigenvalues σ.
func resolvents(sigma []float64, n int, lambdas []float64, f func(float64) float64) *linalg.Dense {
	d := linalg.NewDense(len(sigma), len(lambdas), nil)
	for k, sk := range sigma {
		row, fk := d.Row(k), f(sk)
		for j, l := range lambdas {
			row[j] = 1 / (fk + float64(n)*l)
		}
	}
	return d
}

// Augmented returns the hat-matrix leave-one-out residuals of Tikhonov
// regularization on the augmented matrix [K 1]
// (regress.Spectral.FitAugmented) for every λ. Its fit is
// ŷ = A·(A + nλI)⁻¹·y with A = [K 1][K 1]ᵀ = K² + 11ᵀ, so y − ŷ = nλ·w and
// 1 − Hᵢᵢ = nλ·((A + nλI)⁻¹)ᵢᵢ with w = (A + nλI)⁻¹y: the formula of the
// penalized intercept of RLS with σ² in place of σ. The residuals are the
// usual approximation, not exact, since A itself depends on every point.
//
// Errors are those of RLS, with A + nλI in place of G + nλI.
func Augmented(s *regress.Spectral, lambdas []float64) (*Path, error) {
	const op = "Augmented"
	sp, err := spectralPath(op, s, lambdas)
	if err != nil {
		return nil, err
	}
	if err := checkPathMemory(op, sp, len(lambdas)); err != nil {
		return nil, err
	}
	d := resolvents(sp.Eigenvalues, len(sp.Eigenvalues), lambdas, func(sk float64) float64 { return sk * sk }) // 1/(σ_k² + nλ_j)
	p := resolventPath(sp, lambdas, d, regress.PenalizedIntercept)
	if err := checkPath(p, op, "A + nλI = K² + 11ᵀ + nλI"); err != nil {
		return nil, err
	}
	return p, nil
}

// checkPathMemory refuses a path along nl parameters whose n×nl(q+1)
// work matrices (the coefficients and residuals of every λ, twice, and
// the resolvents) exceed the memory limit.
func checkPathMemory(op string, s *decomp.Spectral, nl int) error {
	return memlimit.CheckSquares(op, s.Q.Rows, 0, 4*nl*(s.QtY.Cols+1))
}

// resolventPath computes the residuals cᵢ/(M⁻¹)ᵢᵢ (with the intercept
// corrections of RLS) for M⁻¹ = Q·diag(d_j)·Qᵀ, one column d_j per
// parameter.
func resolventPath(s *decomp.Spectral, lambdas []float64, d *linalg.Dense, ic regress.Intercept) *Path {
	q, z, qt1 := s.Q, s.QtY, s.Qt1
	n, nq, nl := q.Rows, z.Cols, len(lambdas)
	diag := squaredRowsTimes(q, d) // (G⁻¹)ᵢᵢ per λ
	// Eigen-coordinates of c (one block of L columns per output) and of u.
	coef := linalg.NewDense(n, nl*(nq+1), nil)
	for k := 0; k < n; k++ {
		row, dk := coef.Row(k), d.Row(k)
		for out := 0; out < nq; out++ {
			zk := z.At(k, out)
			for j := range dk {
				row[out*nl+j] = zk * dk[j]
			}
		}
		for j := range dk {
			row[nq*nl+j] = qt1[k] * dk[j]
		}
	}
	ginv := linalg.NewDense(n, coef.Cols, nil) // [G⁻¹y per output | G⁻¹1], all λ
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, q, coef, 0, ginv)

	p := &Path{Params: append([]float64(nil), lambdas...), y: s.Y}
	for j := range lambdas {
		var s1 float64 // s = 1ᵀG⁻¹1 = Σ (Qᵀ1)_k² D_kj
		for k := 0; k < n; k++ {
			s1 += qt1[k] * qt1[k] * d.At(k, j)
		}
		res := linalg.NewDense(n, nq, nil)
		for out := 0; out < nq; out++ {
			var t float64 // 1ᵀG⁻¹y = Σ (Qᵀ1)_k z_k D_kj
			for k := 0; k < n; k++ {
				t += qt1[k] * z.At(k, out) * d.At(k, j)
			}
			for i := 0; i < n; i++ {
				c, u, g := ginv.At(i, out*nl+j), ginv.At(i, nq*nl+j), diag.At(i, j)
				switch ic {
				case regress.NoIntercept:
					res.Set(i, out, c/g)
				case regress.FreeIntercept:
					res.Set(i, out, (c-t/s1*u)/(g-u*u/s1))
				case regress.PenalizedIntercept:
					res.Set(i, out, (c-u*t/(1+s1))/(g-u*u/(1+s1)))
				}
			}
		}
		p.Residuals = append(p.Residuals, res)
		p.MSE = append(p.MSE, meanSquare(res))
	}
	return p
}
