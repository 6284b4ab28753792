package testmat

import "math"

// FarApart rescales the columns of m, values of unit spread around 0, in
// place so that the features are hundreds apart and on scales from 0.1 to
// 100, as in data read from a file (a pressure near 1000 hPa beside a wind
// speed near 2 m/s): element (i, j) becomes 100·j + 10^(j mod 4 − 1)·mᵢⱼ.
// It returns m. These are the rows that standardization is for.
func FarApart(m Matrix) Matrix {
	for i := 0; i < m.Rows; i++ {
		for j := 0; j < m.Cols; j++ {
			m.Set(i, j, 100*float64(j)+math.Pow(10, float64(j%4-1))*m.At(i, j))
		}
	}
	return m
}

// Standardized returns a compact copy of m with element (i, j) replaced by
// (mᵢⱼ − mean[j]) / scale[j], one subtraction and one division: the
// oracle of kernels.Standardization.Apply, written out.
func Standardized(m Matrix, mean, scale []float64) Matrix {
	z := New(m.Rows, m.Cols, 0)
	for i := 0; i < m.Rows; i++ {
		for j := 0; j < m.Cols; j++ {
			z.Set(i, j, (m.At(i, j)-mean[j])/scale[j])
		}
	}
	return z
}
