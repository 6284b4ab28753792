package testmat

import "math"

// Scaled residuals in the style of LAPACK's test suite: each is a norm of
// something that would be zero in exact arithmetic, divided by n·ε and the
// natural scale, so that a correct backward-stable routine gives a ratio of
// order 1 and the usual pass threshold is 30.

// EigenResidual returns ‖A·V − V·diag(w)‖₁ / (n·ε·‖A‖₁) for the symmetric
// n×n matrix a (both triangles), eigenvectors in the columns of v (n×k) and
// eigenvalues w (length k). When ‖A‖ is 0 it divides by 1 instead.
func EigenResidual(a, v Matrix, w []float64) float64 {
	n := a.Rows
	if n == 0 {
		return 0
	}
	av := Mul(a, v)
	for i := 0; i < n; i++ {
		for j := range w {
			av.Set(i, j, av.At(i, j)-v.At(i, j)*w[j])
		}
	}
	na := NormOne(a)
	if na == 0 {
		na = 1
	}
	return NormOne(av) / (float64(n) * Eps * na)
}

// Orthogonality returns ‖VᵀV − I‖₁ / (m·ε) for the m×k matrix v, whose
// columns should be orthonormal.
func Orthogonality(v Matrix) float64 {
	m := v.Rows
	if m == 0 || v.Cols == 0 {
		return 0
	}
	g := Mul(T(v), v)
	for i := 0; i < g.Rows; i++ {
		g.Set(i, i, g.At(i, i)-1)
	}
	return NormOne(g) / (float64(m) * Eps)
}

// SVDResidual returns ‖A − U·diag(s)·Vᵀ‖₁ / (max(m,n)·ε·‖A‖₁) for the m×n
// matrix a, u (m×k), singular values s (length k) and v (n×k).
func SVDResidual(a, u Matrix, s []float64, v Matrix) float64 {
	m, n := a.Rows, a.Cols
	if m == 0 || n == 0 {
		return 0
	}
	us := New(m, len(s), 0)
	for i := 0; i < m; i++ {
		for j := range s {
			us.Set(i, j, u.At(i, j)*s[j])
		}
	}
	r := Sub(a, Mul(us, T(v)))
	na := NormOne(a)
	if na == 0 {
		na = 1
	}
	return NormOne(r) / (float64(max(m, n)) * Eps * na)
}

// RelErr returns |got − want| / |want| (|got − want| when want is 0).
func RelErr(got, want float64) float64 {
	d := math.Abs(got - want)
	if want == 0 {
		return d
	}
	return d / math.Abs(want)
}
