package linalg

import "fmt"

// Trsv solves op(A)·x = b for one right-hand side, where A is an n×n
// triangular matrix (the triangle ul; the other triangle is not read) with a
// nonzero diagonal and op(A) is A or Aᵀ as t says. On entry x holds b; on
// return it holds the solution. A is not modified. There is no test for
// singularity. The cost is n² flops; Trsv runs on the calling goroutine.
//
// Rows of a row-major triangle are contiguous, so op(A) = A is solved by
// dot products with the rows (x_i = (b_i − A[i,·]·x) / A[i,i]) and
// op(A) = Aᵀ by subtracting multiples of the rows once x_i is known.
//
// Trsv panics if A is not square, len(x) is not n or ul is All.
func Trsv(ul Uplo, t Op, a *Dense, x []float64) {
	ul.checkTriangle("Trsv")
	a.check("Trsv")
	if a.Rows != a.Cols || len(x) != a.Rows {
		panic(fmt.Sprintf("linalg: Trsv: A is %d×%d, len(x) is %d", a.Rows, a.Cols, len(x)))
	}
	trsv(ul, t, *a, x)
}

func trsv(ul Uplo, t Op, a Dense, x []float64) {
	n := len(x)
	row := func(i int) []float64 { return a.Data[i*a.Stride : i*a.Stride+n] }
	switch {
	case ul == Lower && t == NoTrans: // forward, x_i = (b_i − L[i,:i]·x[:i]) / L_ii
		for i := 0; i < n; i++ {
			r := row(i)
			x[i] = (x[i] - dot(r[:i], x[:i])) / r[i]
		}
	case ul == Upper && t == NoTrans: // backward, x_i = (b_i − U[i,i+1:]·x[i+1:]) / U_ii
		for i := n - 1; i >= 0; i-- {
			r := row(i)
			x[i] = (x[i] - dot(r[i+1:], x[i+1:])) / r[i]
		}
	case ul == Lower: // Lᵀx = b, backward: once x_i is known, b[:i] −= x_i·L[i,:i]
		for i := n - 1; i >= 0; i-- {
			r := row(i)
			x[i] /= r[i]
			axpy(-x[i], r[:i], x[:i])
		}
	default: // Uᵀx = b, forward: once x_i is known, b[i+1:] −= x_i·U[i,i+1:]
		for i := 0; i < n; i++ {
			r := row(i)
			x[i] /= r[i]
			axpy(-x[i], r[i+1:], x[i+1:])
		}
	}
}
