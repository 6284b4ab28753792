package interval

import (
	"math"

	"rkhs/internal/check"
	"rkhs/internal/decomp"
	"rkhs/internal/memlimit"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// Path is exact kernel RLS prepared for jackknife+ intervals at every λ of
// a list, from one eigendecomposition K = Q·diag(σ)·Qᵀ (regress.Spectral):
// the projection p(x) = Qᵀk(x) of a test row serves every λ. It is
// read-only after NewPath and safe for concurrent use.
type Path struct {
	s       *decomp.Spectral
	lambdas []float64
	ic      regress.Intercept
	e       []*linalg.Dense // leave-one-out residuals per λ, n×q (loo.RLS)
}

// NewPath prepares the jackknife+ intervals of kernel RLS with intercept
// mode ic at every λ of lambdas (K + nλI convention; the leave-one-out
// models keep the penalty nλ), from the decomposition s. The residuals are
// loo.RLS's.
//
// With D = diag(1/(σ_k + nλ)), o = Qᵀ1, u = G⁻¹1 = Q·D·o and s = oᵀD·o, the
// weights of the fit at x are w(x) = Q·z(x) with
//
//	z(x) = D·(p(x) + o·γ(x)),  γ(x) = (1 − oᵀD·p(x))/s'
//
// and γ = 0 without an intercept, s' = s for a free intercept and
// s' = 1 + s for a penalized one (Sherman–Morrison on G + 11ᵀ, the same
// w(x) as RLS's); μ̂(x) = z(x)ᵀQᵀy and the Gaussian-process variance
// k(x, x) − p(x)ᵀD·p(x) + s'·γ(x)².
//
// Cost: that of loo.RLS (about 2n²L(q+2) flops for L values of λ), memory
// its n×L(q+1) residuals. Errors: those of loo.RLS, wrapped as
// InputErrors of this call (the arguments "s", "lambdas", "ic") that wrap
// ErrInput too, and its linalg.ErrNotPositiveDefinite for a λ at which G
// is numerically singular.
func NewPath(s *regress.Spectral, lambdas []float64, ic regress.Intercept) (*Path, error) {
	const op = "NewPath"
	p, err := loo.RLS(s, lambdas, ic)
	if err != nil {
		return nil, fitError(op, "s", err)
	}
	return &Path{s: decomp.SpectralOf(s), lambdas: append([]float64(nil), lambdas...), ic: ic, e: p.Residuals}, nil
}

// Lambdas returns a copy of the λ of the path, in the order given.
func (p *Path) Lambdas() []float64 {
	if p == nil {
		return nil
	}
	return append([]float64(nil), p.lambdas...)
}

// Predict returns the jackknife+ intervals at level of the rows of xt
// (t×d) for every λ of the path, in its order (see Jackknife.Predict for
// the intervals). Per block of test rows the cross kernel matrix and the
// projection Qᵀk(x) (2n² flops per row) are computed once, then each λ
// costs 2n² flops per row for w(x) = Q·z(x) and O(nq) for the two
// selections. Memory: five n×b blocks (b test rows, about 8 MiB each),
// checked first. Errors as Jackknife.Predict.
func (p *Path) Predict(xt *linalg.Dense, level float64) ([]*Intervals, error) {
	const op = "Path.Predict"
	if p == nil || p.s == nil {
		return nil, inputError(op, "Path", "nil or zero Path: build one with NewPath")
	}
	q, x := p.s.Q, p.s.X
	n, d, nq := q.Rows, x.Cols, p.s.QtY.Cols
	if err := checkPredict(op, xt, d, level); err != nil {
		return nil, err
	}
	t, nl := xt.Rows, len(p.lambdas)
	b := testBlock(n, t)
	if err := memlimit.Check(op, memlimit.Sum(memlimit.Floats(3*nl*t, nq+1), memlimit.Floats(5*b, n))); err != nil {
		return nil, err
	}
	out := make([]*Intervals, nl)
	for j := range out {
		out[j] = newIntervals(t, nq, level, n)
	}
	kt := linalg.NewDense(n, b, nil)
	pt := linalg.NewDense(n, b, nil)
	z := linalg.NewDense(n, b, nil)
	wn := linalg.NewDense(n, b, nil)
	w := linalg.NewDense(b, n, nil)
	pred := linalg.NewDense(b, nq, nil)
	dk := make([]float64, n)
	a, quad := make([]float64, b), make([]float64, b)
	for j0 := 0; j0 < t; j0 += b {
		j1 := min(j0+b, t)
		nb := j1 - j0
		xb := xt.Slice(j0, j1, 0, d)
		ktb := kt.Slice(0, n, 0, nb)
		if _, err := kernels.CrossTo(ktb, p.s.Kernel, x, xb); err != nil {
			return nil, check.Wrap(ErrInput, op, "xt", err)
		}
		ptb := pt.Slice(0, n, 0, nb)
		linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, q, ktb, 0, ptb) // Qᵀk(x)
		for l, lambda := range p.lambdas {
			nlam := float64(n) * lambda
			var s float64
			for k, sk := range p.s.Eigenvalues {
				dk[k] = 1 / (sk + nlam)
				s += p.s.Qt1[k] * p.s.Qt1[k] * dk[k]
			}
			sp := s
			if p.ic == regress.PenalizedIntercept {
				sp = 1 + s
			}
			clear(a[:nb])
			clear(quad[:nb])
			for k := 0; k < n; k++ {
				row := ptb.Row(k)
				for j, v := range row {
					a[j] += p.s.Qt1[k] * dk[k] * v
					quad[j] += dk[k] * v * v
				}
			}
			for j := 0; j < nb; j++ {
				xj := xb.Row(j)
				v := p.s.Kernel.Eval(xj, xj) - quad[j]
				if p.ic != regress.NoIntercept {
					g := (1 - a[j]) / sp
					a[j] = g // from here on a holds γ
					v += sp * g * g
				} else {
					a[j] = 0
				}
				out[l].StdDev[j0+j] = math.Sqrt(max(v, 0))
			}
			zb := z.Slice(0, n, 0, nb)
			for k := 0; k < n; k++ {
				zr, pr, ok := zb.Row(k), ptb.Row(k), p.s.Qt1[k]
				for j := range zr {
					zr[j] = dk[k] * (pr[j] + ok*a[j])
				}
			}
			wnb := wn.Slice(0, n, 0, nb)
			linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, q, zb, 0, wnb)
			wb := w.Slice(0, nb, 0, n)
			for i := 0; i < n; i++ {
				for j, v := range wnb.Row(i) {
					wb.Set(j, i, v)
				}
			}
			pb := pred.Slice(0, nb, 0, nq)
			linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, zb, p.s.QtY, 0, pb) // μ̂ = zᵀQᵀy
			out[l].Prediction.Slice(j0, j1, 0, nq).Copy(pb)
			jackknifeBounds(wb, pb, p.e[l], level, out[l].Lower.Slice(j0, j1, 0, nq), out[l].Upper.Slice(j0, j1, 0, nq))
		}
	}
	for l := range out {
		if err := check.Result(ErrInput, op, "interval", out[l].Prediction, "the test rows lie too far from the training rows"); err != nil {
			return nil, err
		}
	}
	return out, nil
}
