package interval

import (
	"fmt"
	"math"

	"rkhs/internal/center"
	"rkhs/internal/check"
	"rkhs/internal/decomp"
	"rkhs/internal/memlimit"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// Nystrom fits the Nyström (subset of regressors) model cfg on x and y
// in memory (the model of regress.Nystrom.Fit, to rounding) and prepares
// its jackknife+ intervals: every leave-one-out model keeps the centres
// and the penalty nλ of the fit.
//
// The fit is ridge regression on the features bᵢ = L⁻¹k_m(xᵢ) (L the
// Cholesky factor of K_mm, + δI, and the kernel k + 1 throughout for a
// penalized intercept; see regress.Nystrom.Fit), with M = B̄ᵀB̄ + nλI for
// the centred features b̄ᵢ = bᵢ − μ (free intercept) or b̄ᵢ = bᵢ (the other
// modes) and a = M⁻¹B̄ᵀy. Removing row i is a rank-one downdate of M
// (Sherman–Morrison), which leaves the weights
//
//	w(x) = B̄·M⁻¹·b̄(x)  (+ 1/n for the free intercept),
//
// μ̂(x) = b̄(x)ᵀa (+ ȳ), the leave-one-out residuals eᵢ = rᵢ/(1 − hᵢ) with
// hᵢ = b̄ᵢᵀM⁻¹b̄ᵢ (+ 1/n) and every leave-one-out model
// μ̂₋ᵢ(x) = μ̂(x) − wᵢ(x)·eᵢ (see package documentation); the
// Gaussian-process variance is that of the subset of regressors,
// nλ·b̄(x)ᵀM⁻¹b̄(x) (+ λ for the free intercept).
//
// Cost: the features (2nmd flops and m²n for the triangular solve), m²n
// for B̄ᵀB̄ and again for the hᵢ, O(m³ + nmq); memory the n×m features,
// which the Jackknife keeps, and O(m² + nq), checked first. Per test row
// Predict costs 2m² + 2nm flops for w(x). x and y are not modified.
//
// Errors: those of regress.Nystrom.Fit, argument errors wrapped as
// InputErrors of this call (the argument "cfg") that wrap ErrInput too;
// fewer than 2 rows (ErrInput); linalg.ErrNotPositiveDefinite when M is
// numerically singular.
func Nystrom(cfg regress.Nystrom, x, y *linalg.Dense) (*Jackknife, error) {
	const op = "Nystrom"
	if err := check.XY(ErrInput, op, x, y, 2); err != nil {
		return nil, err
	}
	if err := check.Positive(ErrInput, op, "cfg.Lambda", cfg.Lambda); err != nil {
		return nil, err
	}
	feat, err := decomp.Features(cfg, op, x)
	if err != nil {
		return nil, fitError(op, "cfg", err)
	}
	n, q, m := x.Rows, y.Cols, feat.Bt.Rows
	const block = 256 // rows of the hᵢ computed at a time
	if err := memlimit.Check(op, memlimit.Sum(memlimit.Floats(2, m, m), memlimit.Floats(m, block+q), memlimit.Floats(3*n, q))); err != nil {
		return nil, err
	}
	s := &nystromSmoother{kernel: cfg.Kernel, centers: feat.Centers, l: feat.L, bt: feat.Bt, d: x.Cols,
		free: cfg.Intercept == regress.FreeIntercept, plusOne: cfg.Intercept == regress.PenalizedIntercept,
		nlam: float64(n) * cfg.Lambda, lambda: cfg.Lambda}
	s.ybar = make([]float64, q)
	ys := y
	if s.free {
		s.mu = make([]float64, m)
		for k := 0; k < m; k++ {
			row := s.bt.Row(k)
			var sum float64
			for _, v := range row {
				sum += v
			}
			s.mu[k] = sum / float64(n)
			for i := range row {
				row[i] -= s.mu[k]
			}
		}
		s.ybar = center.Means(y)
		ys = center.Subtract(y, s.ybar)
	}
	g := linalg.NewDense(m, m, nil)
	linalg.Syrk(linalg.Lower, linalg.NoTrans, 1, s.bt, 0, g)
	for k := 0; k < m; k++ {
		g.Set(k, k, g.At(k, k)+s.nlam)
	}
	if err := s.ch.FactorizeInPlace(g); err != nil {
		return nil, fmt.Errorf("interval: Nyström B̄ᵀB̄ + nλI with λ = %g: %w", cfg.Lambda, err)
	}
	s.a = linalg.NewDense(m, q, nil)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, s.bt, ys, 0, s.a)
	s.ch.SolveTo(s.a, s.a)

	// rᵢ = yᵢ − μ̂(xᵢ) and hᵢ = ‖R⁻¹b̄ᵢ‖², M = RRᵀ, a block of rows at a time.
	r := linalg.NewDense(n, q, nil)
	linalg.Gemm(linalg.Trans, linalg.NoTrans, -1, s.bt, s.a, 0, r)
	l := s.ch.LTo(nil)
	work := linalg.NewDense(m, min(block, n), nil)
	s.e = linalg.NewDense(n, q, nil)
	for i0 := 0; i0 < n; i0 += block {
		i1 := min(i0+block, n)
		z := work.Slice(0, m, 0, i1-i0)
		z.Copy(s.bt.Slice(0, m, i0, i1))
		linalg.Trsm(linalg.Lower, linalg.NoTrans, l, z)
		h := make([]float64, i1-i0)
		for k := 0; k < m; k++ {
			for j, v := range z.Row(k) {
				h[j] += v * v
			}
		}
		for j, hj := range h {
			i := i0 + j
			if s.free {
				hj += 1 / float64(n)
			}
			for k := 0; k < q; k++ {
				s.e.Set(i, k, (ys.At(i, k)+r.At(i, k))/(1-hj))
			}
		}
	}
	if err := check.Result(ErrInput, op, "leave-one-out residuals", s.e, fmt.Sprintf("B̄ᵀB̄ + nλI is numerically singular at λ = %g: raise λ", cfg.Lambda)); err != nil {
		return nil, err
	}

	// The model: c = L⁻ᵀa; b = ȳ − μᵀa (free) or 1ᵀc (penalized).
	c := s.a.Clone()
	linalg.Trsm(linalg.Lower, linalg.Trans, s.l, c)
	b := make([]float64, q)
	for k := range b {
		switch {
		case s.free:
			b[k] = s.ybar[k]
			for j, mj := range s.mu {
				b[k] -= mj * s.a.At(j, k)
			}
		case s.plusOne:
			for j := 0; j < m; j++ {
				b[k] += c.At(j, k)
			}
		}
	}
	model := &regress.Model{Kernel: cfg.Kernel, Centers: feat.Centers, Coef: c, Intercept: b}
	return &Jackknife{model: model, sm: s}, nil
}

// nystromSmoother is a Nyström fit in its features.
type nystromSmoother struct {
	kernel  kernels.Kernel
	centers *linalg.Dense // m×d
	l       *linalg.Dense // chol(K_mm + δI), of the kernel k + 1 when plusOne
	bt      *linalg.Dense // B̄ᵀ, m×n: the features, centred when free
	d       int
	free    bool
	plusOne bool
	mu      []float64 // free: the mean feature μ
	ybar    []float64 // free: the mean target (zeros otherwise)
	ch      linalg.Cholesky
	a       *linalg.Dense // M⁻¹B̄ᵀy, m×q
	e       *linalg.Dense // leave-one-out residuals, n×q
	nlam    float64       // nλ
	lambda  float64
}

func (s *nystromSmoother) rows() (int, int)         { return s.bt.Cols, s.d }
func (s *nystromSmoother) residuals() *linalg.Dense { return s.e }
func (s *nystromSmoother) blockFloats(b int) int    { return 2 * s.bt.Rows * b }

// features returns b̄(x) (m×b) for the rows of xt: L⁻¹k_m(x) (+1 inside
// for the penalized intercept), minus μ for the free intercept.
func (s *nystromSmoother) features(op string, xt *linalg.Dense) (*linalg.Dense, error) {
	f, err := kernels.CrossTo(linalg.NewDense(s.centers.Rows, xt.Rows, nil), s.kernel, s.centers, xt)
	if err != nil {
		return nil, check.Wrap(ErrInput, op, "xt", err)
	}
	if s.plusOne {
		for i := range f.Data {
			f.Data[i]++
		}
	}
	linalg.Trsm(linalg.Lower, linalg.NoTrans, s.l, f)
	if s.free {
		for k, mk := range s.mu {
			row := f.Row(k)
			for j := range row {
				row[j] -= mk
			}
		}
	}
	return f, nil
}

// weights: w(x_j) = B̄·M⁻¹b̄(x_j) (+ 1/n), one product Vᵀ·B̄ᵀ for the block.
func (s *nystromSmoother) weights(xt, w, pred *linalg.Dense, sd []float64) error {
	f, err := s.features("Jackknife.Predict", xt)
	if err != nil {
		return err
	}
	n, b := s.bt.Cols, xt.Rows
	linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, f, s.a, 0, pred)
	for j := 0; j < b; j++ {
		row := pred.Row(j)
		for k := range row {
			row[k] += s.ybar[k]
		}
	}
	v := s.ch.SolveTo(nil, f)
	quad := make([]float64, b)
	for k := 0; k < f.Rows; k++ {
		fr, vr := f.Row(k), v.Row(k)
		for j := range quad {
			quad[j] += fr[j] * vr[j]
		}
	}
	for j, qj := range quad {
		vr := s.nlam * qj
		if s.free {
			vr += s.lambda // nλ·(1/n)
		}
		sd[j] = math.Sqrt(max(vr, 0))
	}
	linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, v, s.bt, 0, w)
	if s.free {
		for j := 0; j < b; j++ {
			row := w.Row(j)[:n]
			for i := range row {
				row[i] += 1 / float64(n)
			}
		}
	}
	return nil
}
