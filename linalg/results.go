package linalg

import "fmt"

// What the read methods of the factorizations share (Cholesky, QR,
// EigenSym, EigenSymJacobi, SVD): the check that a factorization has
// succeeded, and the To contract for their destinations — a nil (or, for a
// matrix, empty) destination is allocated, any other must have the
// result's shape, and the destination is returned.

// mustBeFactored panics, naming op (for example "QR.RTo"), unless ok: reading
// a factorization that has not succeeded is misuse.
func mustBeFactored(ok bool, op string) {
	if !ok {
		panic("linalg: " + op + ": no successful factorization")
	}
}

// vectorTo returns dst for a result of length n: a new vector if dst is nil;
// otherwise dst, which must have length n.
func vectorTo(dst []float64, n int, op string) []float64 {
	if dst == nil {
		return make([]float64, n)
	}
	if len(dst) != n {
		panic(fmt.Sprintf("linalg: %s: len(dst) is %d, want %d", op, len(dst), n))
	}
	return dst
}

// copyVector copies src into dst (as vectorTo gives it) and returns dst.
func copyVector(dst, src []float64, op string) []float64 {
	dst = vectorTo(dst, len(src), op)
	copy(dst, src)
	return dst
}

// matrixTo returns dst for an r×c result: a new matrix if dst is nil or
// empty; otherwise dst, which must be r×c (see Dense.reuseAs).
func matrixTo(dst *Dense, r, c int, op string) *Dense {
	if dst == nil {
		dst = &Dense{}
	}
	dst.reuseAs(r, c, op)
	return dst
}

// copyTo copies src into dst (as matrixTo gives it) and returns dst.
func copyTo(dst, src *Dense, op string) *Dense {
	dst = matrixTo(dst, src.Rows, src.Cols, op)
	if src.Cols > 0 { // Dense.Copy cannot take an m×0 view
		dst.Copy(src)
	}
	return dst
}
