package loo

import (
	"rkhs/internal/memlimit"
	"rkhs/regress"
)

// SelectNystromCost estimates SelectNystrom on n rows of d features with
// q outputs, m centres, s values of σ and l of λ, its leave-one-out pass
// on looRows rows (0 with GCV, which has none). For each σ: the
// statistics pass, 2nmd flops for the distances, nm kernel transforms (10
// flops each) and nm² for the moments, and the λ path's
// eigendecomposition, 6m³; then, for each row of the leave-one-out pass
// and each λ, the exact residuals of the q outputs, about 10(m + 20)q
// flops at the speed of a product (measured: 44 ns a row and λ at m = 20
// on a core whose product runs at 10¹⁰ flops a second). Its memory is the
// λ path of each σ, m(2m + l(q + 1) + 2q + d + 3) floats, with one m×m
// eigendecomposition's 5m²: the paths of every σ together when they fit
// in the memory the program may use (the passes then serve every σ at
// once), of one σ otherwise.
func SelectNystromCost(n, d, q, m, s, l, looRows int) regress.Cost {
	nf, mf := float64(n), float64(m)
	perSigma := 2*nf*mf*float64(d) + 10*nf*mf + nf*mf*mf + 6*mf*mf*mf + float64(looRows)*float64(l)*10*(mf+20)*float64(q)
	width := 2*m + l*(q+1) + 2*q + d + 3
	bytes := memlimit.Sum(memlimit.Floats(s, m, width), memlimit.Floats(m, 5*m))
	if memlimit.Check("", bytes) != nil {
		bytes = memlimit.Sum(memlimit.Floats(m, width), memlimit.Floats(m, 5*m))
	}
	return regress.Cost{Flops: float64(s) * perSigma, Bytes: bytes}
}
