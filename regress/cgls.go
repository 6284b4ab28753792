package regress

import (
	"math"

	"rkhs/kernels"
	"rkhs/linalg"
)

// CGLS is the conjugate gradient method for the least-squares problem
// min ‖K̃c̃ − y‖ on the augmented matrix K̃ = [K 1], c̃ = (c, b), exactly as
// in Prato and Zanni (2012), eq. (9): from c̃⁽⁰⁾ = 0, r⁽⁰⁾ = y,
// d⁽⁰⁾ = K̃ᵀr⁽⁰⁾, for i = 1…t
//
//	αᵢ = ‖K̃ᵀr⁽ⁱ⁻¹⁾‖² / ‖K̃d⁽ⁱ⁻¹⁾‖²,  c̃⁽ⁱ⁾ = c̃⁽ⁱ⁻¹⁾ + αᵢd⁽ⁱ⁻¹⁾,
//	r⁽ⁱ⁾ = r⁽ⁱ⁻¹⁾ − αᵢK̃d⁽ⁱ⁻¹⁾,
//	βᵢ = ‖K̃ᵀr⁽ⁱ⁾‖² / ‖K̃ᵀr⁽ⁱ⁻¹⁾‖²,  d⁽ⁱ⁾ = K̃ᵀr⁽ⁱ⁾ + βᵢd⁽ⁱ⁻¹⁾.
//
// Early stopping regularizes: no λ, and MaxIter ≥ 1 is required (it has no
// default, being the regularization parameter). Each iteration costs two products with
// K (K̃d and K̃ᵀr = (K·r, 1ᵀr), K being symmetric), O(tn²) in all, against
// O(n³) for a direct solve. The residual ‖y − K̃c̃‖ never increases.
//
// Intercept: FreeIntercept is their [K 1]; NoIntercept runs on K
// alone; PenalizedIntercept on K + 11ᵀ with b = 1ᵀc. Outputs (columns of y)
// are iterated independently, each with its own α and β. The callback sees
// ‖y − K̃c̃‖ over the outputs; Tol stops when ‖K̃ᵀr‖ ≤ Tol·‖K̃ᵀy‖ for every
// output (the normal equations' residual, which does go to zero).
//
// Rounding: in floating point the search directions lose the conjugacy
// exact arithmetic gives them, so on an ill-conditioned K the iterates after
// a few tens of steps depend on rounding (the classical behaviour of CG, not
// a defect of this code). Two computations of K·v that round differently —
// the default and the GOEXPERIMENT=simd build, a stored and a streamed K, a
// change in the order of a sum — give different test errors at the same t:
// at the worst t, 1–7% apart on seven of the Gaussian sets of rkhs paper
// and 30% on bodyfat. Once c̃ is the least-squares solution (which a K̃ of
// rank r < n+1, as with the linear kernel, reaches in about r steps),
// further steps only follow rounding noise; Tol, or the callback on the
// residual, stops the run there.
type CGLS struct {
	Kernel    kernels.Kernel
	Intercept Intercept
	Iterative
}

// Fit runs the iteration; x and y are not modified.
func (s CGLS) Fit(x, y *linalg.Dense) (*IterFit, error) {
	const call = "CGLS.Fit"
	if err := checkFit(call, s.Kernel, x, y); err != nil {
		return nil, err
	}
	if err := s.Iterative.check(call, true); err != nil {
		return nil, err
	}
	if err := s.Intercept.check(call); err != nil {
		return nil, err
	}
	n, q := x.Rows, y.Cols
	op, err := newKernelOperator(call, s.Kernel, x, s.Stream, s.Intercept == PenalizedIntercept)
	if err != nil {
		return nil, err
	}
	aug := s.Intercept == FreeIntercept
	// c̃ and d are (n+1)×q with the intercept in the last row (n×q without).
	p := n
	if aug {
		p = n + 1
	}
	c := linalg.NewDense(p, q, nil)
	// The iteration runs on y·2⁻ᵉ, with 2ᵉ the power of two at the top of
	// max|y|: the squared norms in α and β then cannot overflow, and since
	// scaling by a power of two is exact the iterates are those of y itself,
	// times 2⁻ᵉ (c̃ and the residuals are scaled back by 2ᵉ).
	r := y.Clone()
	down, up := pow2Scale(maxAbs(y, q))
	scaleTo(r.Data, down)
	g := linalg.NewDense(p, q, nil) // K̃ᵀr
	ad := linalg.NewDense(n, q, nil)
	applyT := func(dst, v *linalg.Dense) { // dst = K̃ᵀv
		op.mul(dst.Slice(0, n, 0, q), v)
		if aug {
			copy(dst.Row(n), colSums(v))
		}
	}
	apply := func(dst, v *linalg.Dense) { // dst = K̃v
		op.mul(dst, v.Slice(0, n, 0, q))
		if aug {
			b := v.Row(n)
			for i := 0; i < n; i++ {
				row := dst.Row(i)
				for k := range row {
					row[k] += b[k]
				}
			}
		}
	}
	applyT(g, r)
	d := g.Clone()
	gg := sqNorms(g)
	g0 := sqrtAll(gg)
	fit := &IterFit{}
	st := newRunState(s.Iterative, "", func() *Model { return s.model(x, c, n, up) })
	st.start(frob(r, q) * up)
	for it := 1; ; it++ {
		apply(ad, d)
		dd := sqNorms(ad)
		alpha := make([]float64, q)
		for k := range alpha {
			if dd[k] > 0 {
				alpha[k] = gg[k] / dd[k]
			}
		}
		axpyCols(c, d, alpha)
		axpyCols(r, ad, neg(alpha))
		applyT(g, r)
		next := sqNorms(g)
		beta := make([]float64, q)
		converged := s.Tol > 0
		for k := range beta {
			if gg[k] > 0 {
				beta[k] = next[k] / gg[k]
			}
			converged = converged && math.Sqrt(next[k]) <= s.Tol*g0[k]
		}
		gg = next
		// d = g + β∘d.
		for i := 0; i < p; i++ {
			dr, gr := d.Row(i), g.Row(i)
			for k := range dr {
				dr[k] = gr[k] + beta[k]*dr[k]
			}
		}
		if s.KeepPath {
			fit.Path = append(fit.Path, s.model(x, c, n, up))
		}
		if st.after(it, frob(r, q)*up, converged) {
			break
		}
	}
	if st.err != nil {
		return nil, st.err
	}
	st.record(fit)
	fit.Model = s.model(x, c, n, up)
	if err := fit.Model.checkFinite(); err != nil {
		return nil, err
	}
	return fit, nil
}

// model splits c̃·up into coefficients and intercept.
func (s CGLS) model(x, c *linalg.Dense, n int, up float64) *Model {
	q := c.Cols
	coef := c.Slice(0, n, 0, q).Clone()
	scaleTo(coef.Data, up)
	b := make([]float64, q)
	switch s.Intercept {
	case FreeIntercept:
		copy(b, c.Row(n))
		scaleTo(b, up)
	case PenalizedIntercept:
		b = colSums(coef)
	}
	return &Model{Kernel: s.Kernel, Centers: x.Clone(), Coef: coef, Intercept: b}
}
