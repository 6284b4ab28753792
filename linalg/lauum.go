package linalg

import "fmt"

// Lauum computes the product of a triangular matrix with its transpose,
// the triangle on the left as in LAPACK's dlauum:
//
//	C = α·LᵀL   (ul = Lower, A = L lower triangular), or
//	C = α·U·Uᵀ  (ul = Upper, A = U upper triangular),
//
// with A and C n×n. Only the triangle ul of C, diagonal included, is
// written; the other triangle of C is left untouched and C is not read. A
// is not modified. Unlike dlauum, which works in place, the product goes
// to C, which must not share storage with A.
//
// A is read by diagonal blocks, and the strict other triangle of A inside
// the diagonal blocks of lauumPanel rows is read too: it must hold zeros
// (as the factor of Cholesky.LTo does). This lets each panel be one Syrk.
//
// Method: for ul = Lower, the sum over the panels K = [k₀, k₁) of
// lauumPanel rows of α·L_Kᵀ·L_K, L_K = L[k₀:k₁, 0:k₁] (zero to the right
// of column k₁), into C[0:k₁, 0:k₁] by Syrk, in increasing order of the
// panels; for ul = Upper the same with the panels of columns,
// α·U_K·U_Kᵀ with U_K = U[0:k₁, k₀:k₁]. The cost is about n³/3 flops, a
// third of one Syrk on the whole of A, and the result, like Syrk's, is
// bit-identical for any number of goroutines.
//
// Lauum panics if A or C is not square, their sizes differ or ul is All.
func Lauum(ul Uplo, alpha float64, a, c *Dense) {
	ul.checkTriangle("Lauum")
	a.check("Lauum")
	c.check("Lauum")
	n := a.Rows
	if a.Cols != n || c.Rows != n || c.Cols != n {
		panic(fmt.Sprintf("linalg: Lauum: A is %d×%d, C is %d×%d", a.Rows, a.Cols, c.Rows, c.Cols))
	}
	for i := range n {
		if ul == Lower {
			clear(c.Row(i)[:i+1])
		} else {
			clear(c.Row(i)[i:])
		}
	}
	for k0 := 0; k0 < n; k0 += lauumPanel {
		k1 := min(k0+lauumPanel, n)
		if ul == Lower {
			Syrk(Lower, Trans, alpha, a.Slice(k0, k1, 0, k1), 1, c.Slice(0, k1, 0, k1))
		} else {
			Syrk(Upper, NoTrans, alpha, a.Slice(0, k1, k0, k1), 1, c.Slice(0, k1, 0, k1))
		}
	}
}

// lauumPanel is the height (Lower) or width (Upper) of the panels of
// Lauum: each is one Syrk of that inner dimension.
const lauumPanel = 256
