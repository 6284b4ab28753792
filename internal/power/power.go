// Package power holds the one power iteration of rkhs, which regress
// (the step size of Landweber and the ν-method) and classify (the
// Lipschitz constant of logistic regression) use to estimate the largest
// eigenvalue of a kernel matrix.
package power

import (
	"math"

	"rkhs/linalg"
)

// Largest estimates λ_max of the symmetric positive semidefinite operator
// A of order n, given as mul(dst, v) setting dst = A·v (dst and v of
// length n, distinct), by the power iteration from the fixed start
// vᵢ ∝ 1 + ½·sin(i+1). The start is deterministic, so the estimate is too,
// and is not orthogonal to the top eigenvector of a kernel matrix (as the
// constant vector is for a centred linear kernel). It stops when the
// Rayleigh quotient ρ = vᵀAv (‖v‖ = 1) changes by at most relTol relative,
// or after maxIter products, and returns ρ: a lower bound of λ_max (callers
// add a margin). The error shrinks like (λ₂/λ₁)^(2k) after k products, so it
// is small for kernel matrices, whose first eigenvalue stands clear of the
// second, but can be several per cent when λ₂ ≈ λ₁: the stopping test sees
// a slowly changing ρ, not its distance to λ_max. It returns 0 when A·v = 0
// (A = 0). Inner products and norms are linalg.Dot and linalg.Nrm2, so the
// result depends only on A and the arguments.
func Largest(n int, mul func(dst, v []float64), relTol float64, maxIter int) float64 {
	v, av := make([]float64, n), make([]float64, n)
	for i := range v {
		v[i] = 1 + 0.5*math.Sin(float64(i+1))
	}
	scale(v, 1/linalg.Nrm2(v))
	var rho float64
	for it := 0; it < maxIter; it++ {
		mul(av, v)
		next := linalg.Dot(v, av)
		na := linalg.Nrm2(av)
		if na == 0 {
			return 0
		}
		v, av = av, v
		scale(v, 1/na)
		if it > 0 && math.Abs(next-rho) <= relTol*math.Abs(next) {
			return next
		}
		rho = next
	}
	return rho
}

func scale(v []float64, a float64) {
	for i := range v {
		v[i] *= a
	}
}
