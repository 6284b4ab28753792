package linalg

import "fmt"

// Uplo selects a triangle of a square matrix, or both.
//
// The BLAS-level routines that read or write one triangle (Syrk, Trsm,
// Trsv) accept Lower and Upper only and panic on All. All exists for the
// routines above linalg that can fill a symmetric matrix either way, such
// as kernels.GramTo.
type Uplo uint8

const (
	Lower Uplo = iota // on and below the diagonal
	Upper             // on and above the diagonal
	All               // both triangles: the whole matrix
)

// String returns "Lower", "Upper", "All" or "Uplo(n)".
func (ul Uplo) String() string {
	switch ul {
	case Lower:
		return "Lower"
	case Upper:
		return "Upper"
	case All:
		return "All"
	}
	return fmt.Sprintf("Uplo(%d)", int(ul))
}

// checkTriangle panics, naming op, unless ul is Lower or Upper.
func (ul Uplo) checkTriangle(op string) {
	if ul != Lower && ul != Upper {
		panic(fmt.Sprintf("linalg: %s: triangle %v, want Lower or Upper", op, ul))
	}
}

// Syrk computes one triangle of the symmetric rank-k update
//
//	C = α·A·Aᵀ + β·C   (t = NoTrans, A is n×k), or
//	C = α·Aᵀ·A + β·C   (t = Trans,   A is k×n),
//
// where C is n×n. Only the triangle ul of C, diagonal included, is read and
// written; the other triangle is left untouched. When β is 0, C is not read.
// C must not share storage with A. The cost is n(n+1)k flops, about half of
// the corresponding Gemm.
//
// Syrk uses the packing, macro-kernel and micro-kernel of Gemm and skips the
// micro-tiles outside the triangle; like Gemm, its result is bit-identical
// for any number of goroutines, and its packing buffers are Gemm's, of n×k
// operands. It panics if the shapes do not match or ul
// is not Lower or Upper.
func Syrk(ul Uplo, t Op, alpha float64, a *Dense, beta float64, c *Dense) {
	ul.checkTriangle("Syrk")
	a.check("Syrk")
	c.check("Syrk")
	n, k := t.dims(*a)
	if c.Rows != n || c.Cols != n {
		panic(fmt.Sprintf("linalg: Syrk: op(A) is %d×%d, C is %d×%d", n, k, c.Rows, c.Cols))
	}
	syrk(ul, t, alpha, *a, beta, *c)
}

// syrk is Syrk on views whose shapes have been checked.
func syrk(ul Uplo, t Op, alpha float64, a Dense, beta float64, c Dense) {
	n := c.Rows
	_, k := t.dims(a)
	if n == 0 {
		return
	}
	tri := lower
	if ul == Upper {
		tri = upper
	}
	if alpha == 0 || k == 0 {
		scaleTriangle(tri, beta, c)
		return
	}
	// C = op(A)·op(A)ᵀ is the product of op(A) with the transpose of itself:
	// for t = NoTrans the second factor is A used transposed, and vice versa.
	blockedProduct(t, !t, alpha, a, a, beta, c, tri, false)
}

// scaleTriangle sets the triangle tri of the square matrix C to β·C.
func scaleTriangle(tri triangle, beta float64, c Dense) {
	for i := 0; i < c.Rows; i++ {
		lo, hi := 0, i+1
		if tri == upper {
			lo, hi = i, c.Cols
		}
		row := c.Data[i*c.Stride+lo : i*c.Stride+hi]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}
