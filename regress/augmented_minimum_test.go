package regress

import (
	"math"
	"testing"

	"rkhs/internal/testmat"
	"rkhs/kernels"
	"rkhs/linalg"
)

// augmentedCase is a regression on low-rank kernel matrices: n rows of d
// features uniform in [shift − scale, shift + scale), and λ.
type augmentedCase struct {
	kernel       kernels.Kernel
	n, d         int
	scale, shift float64
	lambda       float64
}

var augmentedCases = []augmentedCase{
	{kernels.Linear{}, 48, 3, 1, 0, 4.5e-4},
	{kernels.Linear{}, 48, 3, 100, 50, 1e-8},
	{kernels.Polynomial{Degree: 2, Offset: 0}, 48, 3, 1, 0, 4.5e-4},
	{kernels.Polynomial{Degree: 2, Offset: 1}, 48, 3, 10, 0, 1e-6},
	{kernels.Polynomial{Degree: 3, Offset: 1.155}, 48, 3, 1, 0, 4.5e-4},
	{kernels.Polynomial{Degree: 3, Offset: 1.155}, 48, 3, 1, 5, 4.5e-4},
	{kernels.Polynomial{Degree: 3, Offset: 1.155}, 48, 3, 10, 0, 4.5e-4},
	{kernels.Polynomial{Degree: 3, Offset: 1.155}, 48, 3, 30, 0, 4.5e-4},
	{kernels.Polynomial{Degree: 3, Offset: 0.5}, 48, 3, 3, 1, 1e-2},
	{kernels.Polynomial{Degree: 4, Offset: 1}, 48, 3, 1, 0, 1e-6},
	{kernels.Polynomial{Degree: 4, Offset: 1}, 48, 2, 5, 0, 1e-3},
	// The shape of a differential run against SciPy: 105 rows of raw
	// features on which K reaches 10¹⁴, where rounding alone leaves the
	// minimum undetermined to about 10⁻⁴.
	{kernels.Polynomial{Degree: 3, Offset: 1.155}, 105, 3, 3, 50, 4.5e-4},
}

// data returns the features and targets of case c (seeded) and their
// Gram matrix K.
func (c augmentedCase) data(t *testing.T, seed uint64) (x, y, g *linalg.Dense) {
	t.Helper()
	x = randDense(seed, c.n, c.d)
	for i := range x.Data {
		x.Data[i] = c.shift + c.scale*x.Data[i]
	}
	y = linalg.NewDense(c.n, 1, nil)
	rng := testmat.NewRand(seed + 1)
	for i := 0; i < c.n; i++ {
		u := x.Row(i)
		y.Set(i, 0, math.Sin(u[0]/c.scale)+u[1]*u[c.d-1]/(c.scale*c.scale)+0.1*rng.NormFloat64())
	}
	g, err := kernels.Gram(c.kernel, x)
	if err != nil {
		t.Fatal(err)
	}
	return x, y, g
}

// augmented returns [K 1].
func augmented(g *linalg.Dense) testmat.Matrix {
	n := g.Rows
	a := testmat.New(n, n+1, 0)
	for i := 0; i < n; i++ {
		copy(a.Data[i*(n+1):], g.Row(i))
		a.Set(i, n, 1)
	}
	return a
}

// TestFitAugmentedReachesMinimum: on low-rank kernel matrices (linear
// and polynomial, several degrees, offsets and feature scales) Tikhonov on
// [K 1] misses the minimum of ‖[K 1]c̃ − y‖² + nλ‖c̃‖², the exact one for
// the K given (testmat.Ridge, in 256-bit arithmetic), by at most 30 times
// what rounding forces on a backward stable method
// (Spectral.RoundingMiss, (ε‖K‖)²/(nλ) + ε): below 10⁻¹⁰ relative
// wherever that is. The normal equations of the
// same problem, formed and solved in float64 (Cholesky of
// [K 1]ᵀ[K 1] + nλI, whose condition number is the square of the
// problem's), must fail that bound where ‖K‖ is large, so that the test
// can tell a method that squares the conditioning.
func TestFitAugmentedReachesMinimum(t *testing.T) {
	cases := augmentedCases
	if testing.Short() {
		cases = cases[:len(cases)-1]
	}
	var controlFailed int
	for i, c := range cases {
		x, y, g := c.data(t, uint64(60+i))
		s, err := NewSpectral(c.kernel, x, y)
		if err != nil {
			t.Fatal(err)
		}
		m, err := s.FitAugmented(c.lambda)
		if err != nil {
			t.Fatal(err)
		}
		vals := s.Values()
		sigmaMax := math.Max(vals[len(vals)-1], -vals[0])
		if got, want := s.RoundingLevel(), 0x1p-53*sigmaMax; got != want {
			t.Errorf("RoundingLevel() = %g, want ε·‖K‖ = %g", got, want)
		}
		nl := float64(c.n) * c.lambda
		ref := testmat.NewRidge(augmented(g), y.Data, nl)
		bound := s.RoundingMiss(c.lambda)
		if want := 0x1p-53*sigmaMax*0x1p-53*sigmaMax/nl + 0x1p-53; testmat.RelErr(bound, want) > 1e-15 {
			t.Errorf("RoundingMiss(%g) = %g, want (ε‖K‖)²/(nλ) + ε = %g", c.lambda, bound, want)
		}
		got := ref.Excess(append(append([]float64(nil), m.Coef.Data...), m.Intercept[0]))
		if !(got <= 30*bound) {
			t.Errorf("%v, %d×%d at scale %g + %g, λ = %g (‖K‖ = %.3g): objective %.3g above the minimum (relative), rounding allows %.3g",
				c.kernel, c.n, c.d, c.scale, c.shift, c.lambda, sigmaMax, got, 30*bound)
		}
		miss, ok := normalEquations(g, y, nl, ref)
		if !ok || miss > 30*bound {
			controlFailed++
		}
		t.Logf("%v at scale %g + %g, λ = %g: ‖K‖ = %.3g, miss %.3g, ρ = %.3g; normal equations: miss %.3g (factored: %v)", c.kernel, c.scale, c.shift, c.lambda, sigmaMax, got, bound, miss, ok)
	}
	if controlFailed == 0 {
		t.Errorf("the float64 normal equations met the bound on every case: the cases do not tell a squared conditioning")
	}
}

// normalEquations returns the miss of the minimiser of
// ‖[K 1]c̃ − y‖² + nλ‖c̃‖² from the normal equations in float64, or false
// where their Cholesky factorization fails.
func normalEquations(g, y *linalg.Dense, nl float64, ref *testmat.Ridge) (float64, bool) {
	a := linalg.Dense(augmented(g))
	n := a.Cols
	h := linalg.NewDense(n, n, nil)
	linalg.Syrk(linalg.Lower, linalg.Trans, 1, &a, 0, h)
	for i := 0; i < n; i++ {
		h.Set(i, i, h.At(i, i)+nl)
	}
	rhs := linalg.NewDense(n, 1, nil)
	linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, &a, y, 0, rhs)
	var ch linalg.Cholesky
	if err := ch.Factorize(h); err != nil {
		return 0, false
	}
	return ref.Excess(ch.SolveTo(nil, rhs).Data), true
}
