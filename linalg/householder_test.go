package linalg

import (
	"math"
	"testing"
)

// TestHouseholder checks the reflector of householder on vectors of every
// scale, including those that need its rescaling (tiny and subnormal) and
// those whose squared norm would overflow: H·x must be β·e₁ with
// |β| = ‖x‖, H must be orthogonal (τ·vᵀv = 2), x[0] must hold β, and
// τ must be 0 exactly when x[1:] is zero.
func TestHouseholder(t *testing.T) {
	for _, x := range [][]float64{
		{3, 4}, {-3, 4}, {0, 5}, {1, 0, 0}, {-2, 0}, {7},
		{2, 1e-300, 1e-300}, {1e-310, 1e-310, 3e-310}, {0, 4e-320, -3e-320},
		{1e300, 1e300}, {-1e308, 1e308, 1e308}, {1, -2, 3, -4, 5, -6, 7},
	} {
		v := append([]float64(nil), x...)
		beta, tau := householder(v)
		norm := nrm2(x)
		if v[0] != beta {
			t.Errorf("x=%v: x[0] = %v after the call, want β = %v", x, v[0], beta)
		}
		if nrm2(x[1:]) == 0 {
			if tau != 0 || beta != x[0] {
				t.Errorf("x=%v: β, τ = %v, %v, want %v, 0", x, beta, tau, x[0])
			}
			continue
		}
		if tau < 1 || tau > 2 || math.Abs(math.Abs(beta)-norm) > 4e-16*norm || beta*x[0] > 0 {
			t.Errorf("x=%v: β = %v, τ = %v, want |β| = ‖x‖ = %v with the sign opposite to x[0], τ in [1, 2]", x, beta, tau, norm)
		}
		// H·x = x − τ·v·(vᵀx) must be β·e₁, with v[0] = 1. The products
		// are formed in a scale where they cannot overflow.
		v[0] = 1
		sc := math.Ldexp(1, -exponentOf(norm))
		s := 0.0
		for i := range x {
			s += v[i] * (x[i] * sc)
		}
		s *= tau
		for i := range x {
			got := x[i]*sc - s*v[i]
			want := 0.0
			if i == 0 {
				want = beta * sc
			}
			if math.Abs(got-want) > 1e-15 {
				t.Errorf("x=%v: (Hx)[%d] = %v, want %v (scaled by %v)", x, i, got, want, sc)
			}
		}
		if d := tau*dot(v, v) - 2; math.Abs(d) > 1e-15 {
			t.Errorf("x=%v: τ·vᵀv − 2 = %.3g, want 0 (H orthogonal)", x, d)
		}
	}
}
