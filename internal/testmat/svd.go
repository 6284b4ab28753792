package testmat

import (
	"math"
	"math/rand/v2"
)

// OrthonormalColumns returns a random m×k matrix (k ≤ m) with orthonormal
// columns: Gaussian columns orthogonalized by modified Gram–Schmidt, twice
// (which makes them orthonormal to working precision). It costs O(m·k²),
// so it also serves for tall shapes where Orthogonal(m) would be too slow.
func OrthonormalColumns(rnd *rand.Rand, m, k int) Matrix {
	if k > m {
		panic("testmat: OrthonormalColumns: more columns than rows")
	}
	q := New(m, k, 0)
	col := make([]float64, m)
	for j := 0; j < k; j++ {
		for i := range col {
			col[i] = rnd.NormFloat64()
		}
		for pass := 0; pass < 2; pass++ {
			for l := 0; l < j; l++ {
				var s float64
				for i := range col {
					s += q.At(i, l) * col[i]
				}
				for i := range col {
					col[i] -= s * q.At(i, l)
				}
			}
		}
		var nrm float64
		for _, v := range col {
			nrm = math.Hypot(nrm, v)
		}
		for i, v := range col {
			q.Set(i, j, v/nrm)
		}
	}
	return q
}

// WithSingularValues returns the m×n matrix U₀·diag(s)·V₀ᵀ, with stride
// n+pad, for random U₀ (m×k) and V₀ (n×k) with orthonormal columns,
// k = len(s) ≤ min(m, n). Its singular values are the |sᵢ| and min(m,n)−k
// zeros, up to rounding of order ε·max|sᵢ|.
func WithSingularValues(rnd *rand.Rand, m, n int, s []float64, pad int) Matrix {
	k := len(s)
	u := OrthonormalColumns(rnd, m, k)
	v := OrthonormalColumns(rnd, n, k)
	a := New(m, n, pad)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			var sum float64
			for l := 0; l < k; l++ {
				sum += u.At(i, l) * s[l] * v.At(j, l)
			}
			a.Set(i, j, sum)
		}
	}
	return a
}
