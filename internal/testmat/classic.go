package testmat

import (
	"math"
	"sort"
)

// Classic test matrices with known spectra, for eigensolvers and SVDs. Each
// returns the matrix (compact storage) and, where it is known in closed
// form, its eigenvalues in ascending order.

// SecondDifference returns the n×n tridiagonal matrix with 2 on the diagonal
// and −1 beside it (the discrete Laplacian), whose eigenvalues are
// 2 − 2cos(kπ/(n+1)), k = 1…n.
func SecondDifference(n int) (Matrix, []float64) {
	a := New(n, n, 0)
	for i := 0; i < n; i++ {
		a.Set(i, i, 2)
		if i > 0 {
			a.Set(i, i-1, -1)
			a.Set(i-1, i, -1)
		}
	}
	w := make([]float64, n)
	for k := 1; k <= n; k++ {
		w[k-1] = 2 - 2*math.Cos(float64(k)*math.Pi/float64(n+1))
	}
	sort.Float64s(w)
	return a, w
}

// Clement returns the n×n Kac–Sylvester–Clement matrix, tridiagonal with
// zero diagonal and off-diagonal entries √(k(n−k)), k = 1…n−1 (the
// symmetrized form), whose eigenvalues are the integers −(n−1), −(n−3), …,
// n−3, n−1.
func Clement(n int) (Matrix, []float64) {
	a := New(n, n, 0)
	for k := 1; k < n; k++ {
		v := math.Sqrt(float64(k * (n - k)))
		a.Set(k-1, k, v)
		a.Set(k, k-1, v)
	}
	w := make([]float64, n)
	for k := 0; k < n; k++ {
		w[k] = float64(-(n - 1) + 2*k)
	}
	return a, w
}

// WilkinsonPlus returns Wilkinson's matrix W⁺ of order n = 2m+1: tridiagonal
// with ones beside the diagonal and |m−i| on it. Its largest eigenvalues come
// in pairs that agree to many digits (for W₂₁⁺ the top two differ by about
// 1e-14 relative), a hard case for eigenvector orthogonality. The spectrum
// has no closed form, so none is returned.
func WilkinsonPlus(n int) Matrix {
	a := New(n, n, 0)
	m := (n - 1) / 2
	for i := 0; i < n; i++ {
		a.Set(i, i, math.Abs(float64(m-i)))
		if i > 0 {
			a.Set(i, i-1, 1)
			a.Set(i-1, i, 1)
		}
	}
	return a
}

// Hilbert returns the n×n Hilbert matrix 1/(i+j+1), symmetric positive
// definite and badly conditioned (about 1e13 at n = 10).
func Hilbert(n int) Matrix {
	a := New(n, n, 0)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a.Set(i, j, 1/float64(i+j+1))
		}
	}
	return a
}

// Graded returns D·B·D for a symmetric positive definite B with a modest
// condition number and D = diag(1, g, g², …): a graded matrix whose
// eigenvalues span about g^(2(n−1)). The eigenvalues of such a matrix are
// determined to high relative accuracy by its entries (Demmel–Veselić), so
// a Jacobi eigensolver must find even the smallest to a few ulps relative,
// which QR on the tridiagonal form need not. There is no closed form for
// the eigenvalues; tests compare against an independent computation.
func Graded(b Matrix, g float64) Matrix {
	n := b.Rows
	a := New(n, n, 0)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a.Set(i, j, math.Pow(g, float64(i))*b.At(i, j)*math.Pow(g, float64(j)))
		}
	}
	return a
}

// Diagonal returns diag(d) in compact storage.
func Diagonal(d []float64) Matrix {
	a := New(len(d), len(d), 0)
	for i, v := range d {
		a.Set(i, i, v)
	}
	return a
}

// Identity returns the n×n identity.
func Identity(n int) Matrix {
	a := New(n, n, 0)
	for i := 0; i < n; i++ {
		a.Set(i, i, 1)
	}
	return a
}

// Clustered returns n eigenvalues: groups of equal values (repeated) and
// groups that differ by relative 1e-12 (clustered), with a zero, for
// spectra given to WithSpectrum.
func Clustered(n int) []float64 {
	d := make([]float64, n)
	for i := range d {
		switch i % 4 {
		case 0:
			d[i] = 1 // repeated
		case 1:
			d[i] = 2 * (1 + 1e-12*float64(i)) // clustered near 2
		case 2:
			d[i] = -3 + float64(i)/float64(n) // spread
		default:
			d[i] = 0 // zero eigenvalues
		}
	}
	return d
}
