// Package center holds the column means and the centring of a data
// matrix, written once for the packages that centre data: kernels (the
// Gaussian kernel's squared distances, formed on centred data to shrink
// cancellation) and regress (the free intercept of the linear and Nyström
// fits).
package center

import "rkhs/linalg"

// Means returns the mean of each column of m, summing the rows in order and
// dividing once (zeros for a matrix without rows), so that the result
// depends only on m.
func Means(m *linalg.Dense) []float64 {
	mu := make([]float64, m.Cols)
	for i := 0; i < m.Rows; i++ {
		for j, v := range m.Row(i) {
			mu[j] += v
		}
	}
	if m.Rows > 0 {
		for j := range mu {
			mu[j] /= float64(m.Rows)
		}
	}
	return mu
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
