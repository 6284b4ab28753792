package classify

import (
	"math"
	"math/rand/v2"

	"rkhs/linalg"
)

// Power-iteration settings for the largest eigenvalue of a kernel matrix.
// Twenty to fifty products give the Rayleigh quotient to a few per cent on
// the Gram matrices of the bundled data sets; the step sizes built on it
// carry a safety factor and a backtracking guard (see Logistic), so more
// accuracy is not needed.
const (
	powerMaxIter = 100
	powerRelTol  = 1e-3
)

// largestEigenvalue estimates λ_max of the symmetric positive semidefinite
// matrix A = K (ones false) or A = K + 11ᵀ (ones true), K n×n with both
// triangles stored, by power iteration from a fixed pseudo-random start
// (a fixed seed, so the estimate is deterministic; a random start is not
// orthogonal to the top eigenvector, as 1 is for a centred linear kernel).
// It stops when the Rayleigh quotient changes by less than powerRelTol
// relatively, or after powerMaxIter products, and returns
//
//	min(ρ, r), ρ the last Rayleigh quotient vᵀAv (‖v‖ = 1), so ρ ≤ λ_max,
//	          r = maxᵢ Σⱼ |Aᵢⱼ|, Gershgorin's bound, so λ_max ≤ r.
//
// ρ is a lower bound: callers add a margin. The error shrinks like
// (λ₂/λ₁)^(2k) after k products, so it is small for kernel matrices, whose
// first eigenvalue (carrying the mean similarity) stands well clear of
// the second, but can be several per cent when λ₂ ≈ λ₁: the stopping test
// sees a slowly changing ρ, not its distance to λ_max. Cost: up to
// powerMaxIter products of 2n² flops, plus n² for the bound.
func largestEigenvalue(k *linalg.Dense, ones bool) float64 {
	n := k.Rows
	add := 0.0
	if ones {
		add = 1
	}
	var bound float64
	for i := 0; i < n; i++ {
		var s float64
		for _, v := range k.Row(i) {
			s += math.Abs(v + add)
		}
		bound = max(bound, s)
	}
	rnd := rand.New(rand.NewPCG(0x706f776572, 1)) // "power"
	v, w := make([]float64, n), make([]float64, n)
	for i := range v {
		v[i] = rnd.NormFloat64()
	}
	scale(v, 1/math.Sqrt(dot(v, v)))
	rho := 0.0
	for it := 0; it < powerMaxIter; it++ {
		mulVec(w, k, v)
		if ones {
			var s float64
			for _, vi := range v {
				s += vi
			}
			for i := range w {
				w[i] += s
			}
		}
		prev := rho
		rho = dot(v, w)
		nw := math.Sqrt(dot(w, w))
		if nw == 0 {
			return 0 // A·v = 0 for A ⪰ 0 means vᵀAv = 0: A = 0 on a random start
		}
		v, w = w, v
		scale(v, 1/nw)
		if it > 0 && math.Abs(rho-prev) <= powerRelTol*rho {
			break
		}
	}
	return min(rho, bound)
}

func scale(v []float64, a float64) {
	for i := range v {
		v[i] *= a
	}
}
