package testmat

import (
	"math"
	"math/rand/v2"
)

// Orthogonal returns a random n×n orthogonal matrix: the product of n
// Householder reflectors I − 2vvᵀ/vᵀv with Gaussian vectors v, which is
// distributed uniformly (Haar) up to signs.
func Orthogonal(rnd *rand.Rand, n int) Matrix {
	q := New(n, n, 0)
	for i := 0; i < n; i++ {
		q.Set(i, i, 1)
	}
	v := make([]float64, n)
	for k := 0; k < n; k++ {
		var vv float64
		for i := range v {
			v[i] = rnd.NormFloat64()
			vv += v[i] * v[i]
		}
		// q = q·(I − 2vvᵀ/vᵀv): each row r becomes r − 2(r·v)/vᵀv · vᵀ.
		for i := 0; i < n; i++ {
			var rv float64
			for j := 0; j < n; j++ {
				rv += q.At(i, j) * v[j]
			}
			f := 2 * rv / vv
			for j := 0; j < n; j++ {
				q.Set(i, j, q.At(i, j)-f*v[j])
			}
		}
	}
	return q
}

// WithSpectrum returns the symmetric matrix Q·diag(d)·Qᵀ for a random
// orthogonal Q, with stride n+pad. Its eigenvalues are d (up to rounding of
// order ε·max|d|); it is positive definite with condition number
// max(d)/min(d) when every d is positive.
func WithSpectrum(rnd *rand.Rand, d []float64, pad int) Matrix {
	n := len(d)
	q := Orthogonal(rnd, n)
	a := New(n, n, pad)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			var s float64
			for k := 0; k < n; k++ {
				s += q.At(i, k) * d[k] * q.At(j, k)
			}
			a.Set(i, j, s)
			a.Set(j, i, s)
		}
	}
	return a
}

// GeometricSpectrum returns n values decreasing geometrically from 1 to
// 1/cond (condition number cond).
func GeometricSpectrum(n int, cond float64) []float64 {
	d := make([]float64, n)
	for i := range d {
		if n == 1 {
			d[i] = 1
			continue
		}
		d[i] = math.Pow(cond, -float64(i)/float64(n-1))
	}
	return d
}

// ArithmeticSpectrum returns n values decreasing in equal steps from 1 to
// 1/cond (condition number cond).
func ArithmeticSpectrum(n int, cond float64) []float64 {
	d := make([]float64, n)
	for i := range d {
		if n == 1 {
			d[i] = 1
			continue
		}
		d[i] = 1 - float64(i)/float64(n-1)*(1-1/cond)
	}
	return d
}

// RandomSPD returns a well-conditioned symmetric positive definite n×n
// matrix B·Bᵀ/n + I with stride n+pad, built without an eigendecomposition.
func RandomSPD(rnd *rand.Rand, n, pad int) Matrix {
	b := Random(rnd, n, n, 0)
	a := New(n, n, pad)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			var s float64
			for k := 0; k < n; k++ {
				s += b.At(i, k) * b.At(j, k)
			}
			s /= float64(n)
			if i == j {
				s++
			}
			a.Set(i, j, s)
			a.Set(j, i, s)
		}
	}
	return a
}
