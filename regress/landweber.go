package regress

import (
	"rkhs/internal/check"
	"rkhs/kernels"
	"rkhs/linalg"
)

// Landweber is Landweber iteration (gradient descent on ‖y − Kc‖²/2)
// run matrix-free: cₜ = cₜ₋₁ + η(y − Kcₜ₋₁) from c₀ = 0, one product with K
// per iteration. After t iterations c = g_t(K)y with the filter of
// Landweber: the number of iterations regularizes.
//
// The step is Eta, or when Eta is 0, η = 1/(1.05·σ̂) with σ̂ the largest
// eigenvalue of K estimated by the power iteration (a lower bound of
// σ_max, accurate to far better than 5% on kernel matrices; the iteration
// is stable for any η < 2/σ_max, so even a σ̂ of half σ_max is safe).
//
// Intercepts: FreeIntercept runs the iteration on [y | 1] at once and
// returns c = c_y − b·c₁, b = 1ᵀc_y/1ᵀc₁, as Spectral does for the Landweber
// filter; PenalizedIntercept iterates with K + 11ᵀ and b = 1ᵀc. The
// residual given to the callback and tested against Tol is ‖y − Kc‖ over
// the outputs (the system iterated on, before the intercept is formed).
type Landweber struct {
	Kernel    kernels.Kernel
	Eta       float64
	Intercept Intercept
	Iterative
}

// Fit runs the iteration on the training data; x and y are not modified.
// Errors wrap ErrInput or kernels.ErrParameter.
func (s Landweber) Fit(x, y *linalg.Dense) (*IterFit, error) {
	return runGradient("Landweber.Fit", s.Kernel, s.Eta, 0, false, s.Intercept, s.Iterative, x, y)
}

// NuMethod is the ν-method (accelerated Landweber) run matrix-free, with the
// recursion documented at NuFilter; after t iterations c = p_t(K)y for the
// same polynomial filter. Nu = 0 means ν = 1. The step, intercepts,
// residual and stopping rules are those of Landweber; the ν-method
// needs ‖ηK‖ ≤ 1, which the automatic step gives when the power iteration
// finds σ_max to within 5%.
type NuMethod struct {
	Kernel    kernels.Kernel
	Eta       float64
	Nu        float64
	Intercept Intercept
	Iterative
}

// Fit runs the iteration on the training data; x and y are not modified.
func (s NuMethod) Fit(x, y *linalg.Dense) (*IterFit, error) {
	const call = "NuMethod.Fit"
	nu, err := nuOption(call, "Nu", s.Nu)
	if err != nil {
		return nil, err
	}
	return runGradient(call, s.Kernel, s.Eta, nu, true, s.Intercept, s.Iterative, x, y)
}

// runGradient runs Landweber (accelerated by the ν-method if nuMethod).
func runGradient(call string, k kernels.Kernel, eta, nu float64, nuMethod bool, ic Intercept, opt Iterative, x, y *linalg.Dense) (*IterFit, error) {
	if err := checkFit(call, k, x, y); err != nil {
		return nil, err
	}
	if err := opt.check(call, true); err != nil {
		return nil, err
	}
	if err := ic.check(call); err != nil {
		return nil, err
	}
	if err := check.Option(ErrInput, call, "Eta", eta, "1/(1.05·σ̂), σ̂ from the power iteration"); err != nil {
		return nil, err
	}
	n, q := x.Rows, y.Cols
	op, err := newKernelOperator(call, k, x, opt.Stream, ic == PenalizedIntercept)
	if err != nil {
		return nil, err
	}
	hint := hintGivenEta
	if eta == 0 {
		hint = hintScale
		sigma := largestEigenvalue(op, n)
		if !(sigma > 0) {
			return nil, inputError(call, "Eta", "0 selects a step from σ_max(K), but the kernel matrix is zero")
		}
		eta = 1 / (stepMargin * sigma)
	}
	free := ic == FreeIntercept
	rhs := withOnes(y, free)
	p := rhs.Cols
	c := linalg.NewDense(n, p, nil)
	prev := linalg.NewDense(n, p, nil) // cᵢ₋₂, for the ν-method
	r := linalg.NewDense(n, p, nil)
	yn := colNorms(rhs)
	fit := &IterFit{Eta: eta}
	st := newRunState(opt, hint, func() *Model { return gradientModel(k, x, c, q, free, ic) })
	st.start(frob(rhs, q)) // c₀ = 0
	// Each pass forms r = y − K·cₜ₋₁, which both closes iteration t−1
	// (its residual, the callback, the stopping rules) and drives update t:
	// one product with K per iteration, plus one for the last residual.
	for t := 1; ; t++ {
		op.mul(r, c)
		for i := range r.Data {
			r.Data[i] = rhs.Data[i] - r.Data[i]
		}
		if t > 1 {
			rn := colNorms(r)
			converged := opt.Tol > 0
			for k := 0; k < q; k++ {
				converged = converged && rn[k] <= opt.Tol*yn[k]
			}
			if st.after(t-1, frob(r, q), converged) {
				break
			}
		}
		w, u := 1.0, 0.0
		if nuMethod {
			u, w = nuCoefficients(t, nu)
		}
		for i := range c.Data {
			ci := c.Data[i]
			c.Data[i] = ci + u*(ci-prev.Data[i]) + w*eta*r.Data[i]
			prev.Data[i] = ci
		}
		if opt.KeepPath {
			fit.Path = append(fit.Path, gradientModel(k, x, c, q, free, ic))
		}
	}
	if st.err != nil {
		return nil, st.err
	}
	st.record(fit)
	fit.Model = gradientModel(k, x, c, q, free, ic)
	if err := fit.Model.checkFinite(); err != nil {
		return nil, err
	}
	return fit, nil
}

// gradientModel forms the model of the coefficients c of an iteration.
func gradientModel(k kernels.Kernel, x, c *linalg.Dense, q int, free bool, ic Intercept) *Model {
	coef, b := combineFree(c, q, free)
	if ic == PenalizedIntercept {
		b = colSums(coef)
	}
	return &Model{Kernel: k, Centers: x.Clone(), Coef: coef, Intercept: b}
}
