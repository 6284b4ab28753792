package regress

import (
	"fmt"
	"math"

	"rkhs/internal/check"
)

// A Filter is a spectral regularization: with K = Q·diag(σ)·Qᵀ, the
// coefficients are c = Q·diag(g(σ))·Qᵀ·y for a filter function g that tends
// to 1/σ as the regularization vanishes (the spectral regularization of
// Rosasco (2008), whose G_λ(σ) it is). σ are the eigenvalues of K itself, not
// of K/n; every λ is in the K + nλI convention.
//
// The filters of this package are TikhonovFilter, TruncatedSVDFilter,
// IteratedTikhonovFilter, LandweberFilter and NuFilter. Filters are small
// values; evaluating one costs O(1) per eigenvalue (O(t) for the iterative
// ones). Their parameters follow the zero-value rule of rkhs: λ and the
// number of steps t regularize and have no default (0 is an error); the
// step size η and ν have defaults (0 selects them).
type Filter interface {
	// values writes g(σᵢ) into g for the eigenvalues sigma of K (n training
	// points, sigmaMax the largest eigenvalue), or reports invalid
	// parameters.
	values(op string, g, sigma []float64, n int, sigmaMax float64) error
	fmt.Stringer
}

// TikhonovFilter is g(σ) = 1/(σ + nλ): kernel RLS. λ > 0.
type TikhonovFilter struct{ Lambda float64 }

func (f TikhonovFilter) values(op string, g, sigma []float64, n int, _ float64) error {
	if err := checkLambda(op, "TikhonovFilter.Lambda", f.Lambda); err != nil {
		return err
	}
	s := float64(n) * f.Lambda
	for i, v := range sigma {
		g[i] = 1 / (v + s)
	}
	return nil
}

func (f TikhonovFilter) String() string { return fmt.Sprintf("tikhonov(λ=%g)", f.Lambda) }

// TruncatedSVDFilter is the spectral cut-off: g(σ) = 1/σ for σ ≥ nλ and 0 below,
// which discards the eigendirections below the threshold (principal
// component regression in feature space). λ > 0.
type TruncatedSVDFilter struct{ Lambda float64 }

func (f TruncatedSVDFilter) values(op string, g, sigma []float64, n int, _ float64) error {
	if err := checkLambda(op, "TruncatedSVDFilter.Lambda", f.Lambda); err != nil {
		return err
	}
	s := float64(n) * f.Lambda
	for i, v := range sigma {
		if v >= s {
			g[i] = 1 / v
		} else {
			g[i] = 0
		}
	}
	return nil
}

func (f TruncatedSVDFilter) String() string { return fmt.Sprintf("tsvd(λ=%g)", f.Lambda) }

// IteratedTikhonovFilter is t steps of (K + nλI)cᵢ = y + nλcᵢ₋₁ from c₀ = 0:
// g(σ) = ((σ + nλ)ᵗ − (nλ)ᵗ) / (σ(σ + nλ)ᵗ). With t = 1 it is Tikhonov;
// larger t lessens Tikhonov's saturation. λ > 0, t ≥ 1.
type IteratedTikhonovFilter struct {
	Lambda float64
	Steps  int
}

func (f IteratedTikhonovFilter) values(op string, g, sigma []float64, n int, _ float64) error {
	if err := checkLambda(op, "IteratedTikhonovFilter.Lambda", f.Lambda); err != nil {
		return err
	}
	if err := check.Count(ErrInput, op, "IteratedTikhonovFilter.Steps", f.Steps, 1); err != nil {
		return err
	}
	s := float64(n) * f.Lambda
	for i, v := range sigma {
		// g = (1 − rᵗ)/σ with r = nλ/(σ+nλ) = Σ_{k<t} rᵏ / (σ + nλ),
		// the second form free of cancellation as σ → 0.
		g[i] = geometricSum(s/(v+s), f.Steps) / (v + s)
	}
	return nil
}

func (f IteratedTikhonovFilter) String() string {
	return fmt.Sprintf("iterated-tikhonov(λ=%g, t=%d)", f.Lambda, f.Steps)
}

// LandweberFilter is t steps of gradient descent on ‖y − Kc‖²/2 with step η,
// cᵢ = cᵢ₋₁ + η(y − Kcᵢ₋₁) from c₀ = 0: g(σ) = η·Σ_{i<t} (1 − ησ)ⁱ. The
// iteration converges (to 1/σ) for 0 < η < 2/σ_max; Eta = 0 means
// η = 1/σ_max. t ≥ 1 plays the role of 1/λ.
type LandweberFilter struct {
	Steps int
	Eta   float64
}

func (f LandweberFilter) values(op string, g, sigma []float64, _ int, sigmaMax float64) error {
	eta, err := stepSize(op, "LandweberFilter", f.Steps, f.Eta, sigmaMax)
	if err != nil {
		return err
	}
	for i, v := range sigma {
		g[i] = eta * geometricSum(1-eta*v, f.Steps)
	}
	return nil
}

func (f LandweberFilter) String() string {
	return fmt.Sprintf("landweber(t=%d, η=%g)", f.Steps, f.Eta)
}

// stepSize validates t and η of the filter name and returns η (1/σ_max
// when eta is 0).
func stepSize(op, name string, t int, eta, sigmaMax float64) (float64, error) {
	if err := check.Count(ErrInput, op, name+".Steps", t, 1); err != nil {
		return 0, err
	}
	if err := check.Option(ErrInput, op, name+".Eta", eta, "1/σ_max"); err != nil {
		return 0, err
	}
	if eta == 0 {
		if !(sigmaMax > 0) {
			return 0, inputError(op, name+".Eta", "0 selects 1/σ_max, but the kernel matrix has no positive eigenvalue")
		}
		return 1 / sigmaMax, nil
	}
	return eta, nil
}

// geometricSum returns Σ_{k<t} qᵏ, by the closed form (1 − qᵗ)/(1 − q) when
// q is not close to 1 and term by term otherwise.
func geometricSum(q float64, t int) float64 {
	if math.Abs(1-q) > 1e-3 {
		return (1 - math.Pow(q, float64(t))) / (1 - q)
	}
	var s, p float64 = 0, 1
	for k := 0; k < t; k++ {
		s += p
		p *= q
	}
	return s
}

// NuFilter is t steps of the ν-method (accelerated Landweber; Engl, Hanke
// and Neubauer 1996), as in Rosasco's lecture notes, with the operator scaled by
// η (1/σ_max when Eta = 0, so that ‖ηK‖ ≤ 1):
//
//	c₁ = ω₁·η·y,   ω₁ = (4ν+2)/(4ν+1)
//	cᵢ = cᵢ₋₁ + uᵢ(cᵢ₋₁ − cᵢ₋₂) + ωᵢ·η·(y − Kcᵢ₋₁),  i = 2…t
//	uᵢ = (i−1)(2i−3)(2i+2ν−1) / ((i+2ν−1)(2i+4ν−1)(2i+2ν−3))
//	ωᵢ = 4(2i+2ν−1)(i+ν−1) / ((i+2ν−1)(2i+4ν−1))
//
// Its filter is the polynomial of degree t−1 obtained by running the same
// recursion on a scalar σ (with y = 1). About √t steps of it do what t
// Landweber steps do. Nu = 0 means ν = 1; ν > 0, t ≥ 1.
type NuFilter struct {
	Steps int
	Nu    float64
	Eta   float64
}

func (f NuFilter) values(op string, g, sigma []float64, _ int, sigmaMax float64) error {
	eta, err := stepSize(op, "NuFilter", f.Steps, f.Eta, sigmaMax)
	if err != nil {
		return err
	}
	nu, err := nuOption(op, "NuFilter.Nu", f.Nu)
	if err != nil {
		return err
	}
	for i, v := range sigma {
		g[i] = nuRecursion(v, eta, nu, f.Steps)
	}
	return nil
}

func (f NuFilter) String() string {
	return fmt.Sprintf("nu-method(t=%d, ν=%g, η=%g)", f.Steps, f.Nu, f.Eta)
}

// nuOption validates ν and returns it, 1 for the zero value.
func nuOption(op, name string, nu float64) (float64, error) {
	if err := check.Option(ErrInput, op, name, nu, "ν = 1"); err != nil {
		return 0, err
	}
	if nu == 0 {
		return 1, nil
	}
	return nu, nil
}

// nuCoefficients returns uᵢ and ωᵢ of the ν-method for step i ≥ 1 (u₁ = 0).
func nuCoefficients(i int, nu float64) (u, w float64) {
	fi := float64(i)
	if i == 1 {
		return 0, (4*nu + 2) / (4*nu + 1)
	}
	u = (fi - 1) * (2*fi - 3) * (2*fi + 2*nu - 1) / ((fi + 2*nu - 1) * (2*fi + 4*nu - 1) * (2*fi + 2*nu - 3))
	w = 4 * (2*fi + 2*nu - 1) * (fi + nu - 1) / ((fi + 2*nu - 1) * (2*fi + 4*nu - 1))
	return u, w
}

// nuRecursion runs the ν-method on the scalar problem σ·c = 1 for t steps.
func nuRecursion(sigma, eta, nu float64, t int) float64 {
	var prev, c float64 // c₀ = 0
	for i := 1; i <= t; i++ {
		u, w := nuCoefficients(i, nu)
		prev, c = c, c+u*(c-prev)+w*eta*(1-sigma*c)
	}
	return c
}
