package linalg

// Trtrs solves the triangular system op(A)·X = B for X, A n×n triangular
// (the triangle ul; the other triangle is not read) with a nonzero
// diagonal, op(A) = A or Aᵀ as t says, and B n×k, as LAPACK's dtrtrs
// does: B is overwritten with X and A is not modified. The cost is n²k
// flops.
//
// It chooses the BLAS routine for the shape of B: Trsv when B is one
// column with unit stride (its Data the vector), which reads A once
// instead of packing it for the blocked Trsm; Trsm otherwise. The two
// round differently, so the choice is part of the result: for a given
// shape it is always the same, and the result is bit-identical for any
// number of goroutines. Unlike dtrtrs there is no test for singularity: a
// zero on the diagonal gives ±Inf or NaN in X, as in Trsm.
//
// Trtrs panics, as Trsv and Trsm do, if A is not square, B does not have
// n rows or ul is All.
func Trtrs(ul Uplo, t Op, a, b *Dense) {
	if b.Cols == 1 && b.Stride == 1 && b.Rows == a.Rows {
		b.check("Trtrs")
		Trsv(ul, t, a, b.Data[:b.Rows])
		return
	}
	Trsm(ul, t, a, b)
}
