package testmat

import (
	"math"
	"math/rand/v2"
)

// Symmetric tridiagonal test problems are given by their diagonal d
// (length n) and off-diagonal e (length n−1, T[i][i+1] = T[i+1][i] = e[i]),
// the storage of the tridiagonal eigensolvers.

// Tridiagonal returns the full n×n symmetric matrix with diagonal d and
// off-diagonal e, in compact storage, for the residual checks.
func Tridiagonal(d, e []float64) Matrix {
	n := len(d)
	a := New(n, n, 0)
	for i := 0; i < n; i++ {
		a.Set(i, i, d[i])
		if i > 0 {
			a.Set(i, i-1, e[i-1])
			a.Set(i-1, i, e[i-1])
		}
	}
	return a
}

// TridiagonalParts returns the diagonal and the first off-diagonal of the
// square matrix a (copies), the inverse of Tridiagonal for the tridiagonal
// classics of classic.go (SecondDifference, Clement, WilkinsonPlus).
func TridiagonalParts(a Matrix) (d, e []float64) {
	n := a.Rows
	d = make([]float64, n)
	e = make([]float64, max(n-1, 0))
	for i := 0; i < n; i++ {
		d[i] = a.At(i, i)
		if i > 0 {
			e[i-1] = a.At(i, i-1)
		}
	}
	return d, e
}

// RandomTridiagonal returns a tridiagonal matrix of order n with entries
// uniform in [−1, 1).
func RandomTridiagonal(rnd *rand.Rand, n int) (d, e []float64) {
	d = make([]float64, n)
	e = make([]float64, max(n-1, 0))
	for i := range d {
		d[i] = 2*rnd.Float64() - 1
	}
	for i := range e {
		e[i] = 2*rnd.Float64() - 1
	}
	return d, e
}

// GluedWilkinson returns blocks copies of Wilkinson's W⁺ of order m (see
// WilkinsonPlus; m odd) along the diagonal, joined by off-diagonal entries
// equal to glue. With a tiny glue (1e-10, say) its eigenvalues come in
// clusters of blocks nearly equal values, and the eigenvector components at
// the joins are tiny: the hard case for deflation in divide and conquer.
func GluedWilkinson(m, blocks int, glue float64) (d, e []float64) {
	n := m * blocks
	d = make([]float64, n)
	e = make([]float64, max(n-1, 0))
	h := (m - 1) / 2
	for b := 0; b < blocks; b++ {
		for i := 0; i < m; i++ {
			d[b*m+i] = math.Abs(float64(h - i))
			if i < m-1 {
				e[b*m+i] = 1
			}
		}
		if b > 0 {
			e[b*m-1] = glue
		}
	}
	return d, e
}
