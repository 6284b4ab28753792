package regress

import (
	"math"
	"math/rand/v2"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
)

// TestAugmentedTinyLambda: the residual of Tikhonov on [K 1] stays at the
// level of the eigen route's (Tikhonov with a free intercept) at the same
// λ, down to the smallest positive λ. (In exact arithmetic it falls with λ;
// below λ ≈ ε the eigenvalues of K at the rounding level, ±1e-15 here,
// make both routes' coefficients huge and their residuals grow alike.)
// The intercept used to be formed as b = 1ᵀw from
// w = (K² + 11ᵀ + nλI)⁻¹y, a sum of terms of size 1/σ² that cancel, and
// the training MSE grew to 37 at λ = 1e-30 and 1.9e6 at λ = 1e-100 on
// labels in [0, 2]; b is now the Schur-complement form, which has no such
// sum.
func TestAugmentedTinyLambda(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 80
	x := linalg.NewDense(n, 2, nil)
	y := linalg.NewDense(n, 1, nil)
	for i := range n {
		x.Set(i, 0, rng.Float64())
		x.Set(i, 1, rng.Float64())
		y.Set(i, 0, 1+math.Sin(4*x.At(i, 0))*x.At(i, 1)+0.05*rng.NormFloat64())
	}
	s, err := NewSpectral(kernels.Gaussian{Sigma: 0.5}, x, y)
	if err != nil {
		t.Fatal(err)
	}
	// route 0: FitAugmented; 1: Tikhonov, free b; 2: Tikhonov, penalized
	// b, whose b = 1ᵀc had the same cancelling sum.
	mseAt := func(lambda float64, route int) float64 {
		m, err := s.FitAugmented(lambda)
		switch route {
		case 1:
			m, err = s.Fit(TikhonovFilter{Lambda: lambda}, FreeIntercept)
		case 2:
			m, err = s.Fit(TikhonovFilter{Lambda: lambda}, PenalizedIntercept)
		}
		if err != nil {
			t.Fatalf("λ = %g: %v", lambda, err)
		}
		p, err := m.Predict(x)
		if err != nil {
			t.Fatal(err)
		}
		e, _ := MSE(y, p)
		return e
	}
	ref := mseAt(1e-8, 0)
	for _, lambda := range []float64{1e-12, 1e-20, 1e-30, 1e-60, 1e-100, 1e-200, 1e-300, 5e-324} {
		eig := mseAt(lambda, 1)
		if e := mseAt(lambda, 0); !(e <= 2*max(ref, eig)) {
			t.Errorf("λ = %g: training MSE %.3g; at λ = 1e-8 %.3g, by the eigen route %.3g", lambda, e, ref, eig)
		}
		if e := mseAt(lambda, 2); !(e <= 2*max(ref, eig)) {
			t.Errorf("λ = %g, penalized b: training MSE %.3g; at λ = 1e-8 %.3g, free b %.3g", lambda, e, ref, eig)
		}
	}
}
