// Package center holds the column means and the centring of a data
// matrix, written once for the packages that centre data: kernels (the
// Gaussian kernel's squared distances, formed on centred data to shrink
// cancellation) and regress (the free intercept of the linear and Nyström
// fits); the pairwise update of means and sums of squared deviations
// (Merge); and the unit in which sums of squares of values of extreme
// magnitude are formed (Unit), for kernels.Moments and the median
// distance of package loo.
package center

import (
	"math"

	"rkhs/linalg"
)

// Means returns the mean of each column of m, summing the rows in order and
// dividing once (zeros for a matrix without rows), so that the result
// depends only on m. A column of finite values whose sum overflows (values
// near the largest float64) is summed again on its values divided by a
// power of two 2ᵏ ≥ 2n, which cannot overflow, and its mean is that sum
// divided by n, times 2ᵏ: finite, and within rounding of the true mean
// (but for values below 2ᵏ times the smallest normal float64, which the
// division rounds and which do not matter beside the others). Every other
// column is the plain sum, bit for bit.
func Means(m *linalg.Dense) []float64 {
	mu := make([]float64, m.Cols)
	for i := 0; i < m.Rows; i++ {
		for j, v := range m.Row(i) {
			mu[j] += v
		}
	}
	if m.Rows > 0 {
		for j := range mu {
			if math.IsInf(mu[j], 0) {
				mu[j] = scaledMean(m, j)
				continue
			}
			mu[j] /= float64(m.Rows)
		}
	}
	return mu
}

// scaledMean returns the mean of column j of m (at least one row), summed
// in order on the values divided by 2ᵏ ≥ 2n: then every partial sum is at
// most n·MaxFloat64/2ᵏ ≤ MaxFloat64/2 in magnitude. NaN or ±Inf in the
// column give a non-finite mean, as the plain sum does.
func scaledMean(m *linalg.Dense, j int) float64 {
	_, k := math.Frexp(float64(m.Rows)) // n < 2ᵏ
	scale := math.Ldexp(1, -(k + 1))
	var s float64
	for i := 0; i < m.Rows; i++ {
		s += m.At(i, j) * scale
	}
	return s / float64(m.Rows) / scale
}

// Subtract returns a compact copy of m with mu subtracted from every row.
func Subtract(m *linalg.Dense, mu []float64) *linalg.Dense {
	c := linalg.NewDense(m.Rows, m.Cols, nil)
	SubtractTo(c, m, mu)
	return c
}

// SubtractTo writes m with mu subtracted from every row into dst, which has
// m's shape (dst may be m itself).
func SubtractTo(dst, m *linalg.Dense, mu []float64) {
	for i := 0; i < m.Rows; i++ {
		d := dst.Row(i)
		for j, v := range m.Row(i) {
			d[j] = v - mu[j]
		}
	}
}
