package linalg

import "math"

// EigenSym is the eigendecomposition A = V·diag(λ)·Vᵀ of a real symmetric
// matrix: the eigenvalues λ in ascending order and, on request, the
// orthonormal eigenvectors as the columns of V (column j belongs to λ_j).
//
// The zero value is ready to use. After a successful Factorize the
// read methods may be called from several goroutines at once.
type EigenSym struct {
	values  []float64
	vectors Dense // n×n when vectors were requested
	work    Dense // the reduced matrix (reflectors), kept for reuse
	hasVec  bool
	ok      bool
}

// Factorize computes the eigenvalues, and the eigenvectors if wantVectors
// is set, of the n×n symmetric matrix whose lower triangle (diagonal
// included) is in a; the strict upper triangle is not read and a is not
// modified.
//
// The algorithm is LAPACK's dsyevd in three steps:
//
//  1. Householder reduction to tridiagonal form T = Qᵀ·A·Q, blocked so that
//     half of its 4n³/3 flops are a triangular Gemm (tridiagonalize, in
//     tridiag.go).
//  2. The eigenvalues of T by implicit QL/QR (values only, O(n²)); with
//     vectors, the eigendecomposition T = Z·Λ·Zᵀ by Cuppen's divide and
//     conquer, whose merges are Gemm calls (stedc, in tridiag_dc.go).
//  3. With vectors, V = Q·Z by blocked Householder back-transformation, 2n³
//     flops in Gemm (applyRowReflectors).
//
// Values only cost about 4n³/3 flops, with vectors about 4n³/3 + 2n³ plus
// the divide and conquer (at most about 4n³/3, much less when eigenvalues
// deflate). A matrix whose entries are so large or small that squaring them
// would overflow or underflow is scaled by a power of two first (exactly)
// and the eigenvalues scaled back. The eigenvalues are accurate to about
// ε·‖A‖ in absolute terms; for small eigenvalues of graded matrices that
// must be accurate in relative terms, use EigenSymJacobi. Results are
// bit-identical for any GOMAXPROCS.
//
// Errors: a *NotFiniteError if the lower triangle holds NaN or ±Inf, a
// *ConvergenceError (wrapping ErrNoConvergence) if the tridiagonal
// eigensolver exceeds its iteration limit. After an error e holds no
// decomposition and its read methods panic. Factorize panics if a is not
// square.
func (es *EigenSym) Factorize(a *Dense, wantVectors bool) error {
	a.checkSquare("EigenSym.Factorize")
	es.ok, es.hasVec = false, false
	if err := checkFiniteLower(a); err != nil {
		return err
	}
	n := a.Rows
	w := reuseSquare(&es.work, n)
	exp := symmetricScale(a)
	for i := 0; i < n; i++ { // the lower triangle, times 2^exp
		row := w.Data[i*n : i*n+i+1]
		copy(row, a.Data[i*a.Stride:i*a.Stride+i+1])
		if exp != 0 {
			for j, v := range row {
				row[j] = math.Ldexp(v, exp)
			}
		}
	}
	es.values = resize(es.values, n)
	d := es.values
	e := make([]float64, max(n-1, 0))
	tau := make([]float64, max(n-1, 0))
	tridiagonalize(w, d, e, tau)
	var err error
	if wantVectors {
		z := reuseSquare(&es.vectors, n)
		if err = stedc(d, e, z); err == nil {
			applyRowReflectors(w, tau, z)
		}
	} else {
		err = steqr(d, e, Dense{})
	}
	if err != nil {
		return err
	}
	if exp != 0 {
		for i := range d {
			d[i] = math.Ldexp(d[i], -exp)
		}
	}
	es.ok, es.hasVec = true, wantVectors
	return nil
}

// symmetricScale returns the power of two 2^exp by which to scale A before
// the reduction so that its largest entry lies in [2⁻⁴⁸⁰, 2⁴⁸⁰], where sums
// of squares can neither overflow nor lose everything to underflow (exp = 0
// when no scaling is needed). The factor itself may not be representable
// (a subnormal matrix needs 2¹⁰⁵⁹), so callers scale with math.Ldexp, which
// is exact.
func symmetricScale(a *Dense) int {
	var amax float64
	for i := 0; i < a.Rows; i++ {
		for _, v := range a.Data[i*a.Stride : i*a.Stride+i+1] {
			amax = math.Max(amax, math.Abs(v))
		}
	}
	const lo, hi = 0x1p-480, 0x1p480
	if amax == 0 || (amax >= lo && amax <= hi) {
		return 0
	}
	return -math.Ilogb(amax) // brings amax into [1, 2)
}

// reuseSquare makes *m an n×n compact matrix, reusing its storage when the
// capacity suffices, and returns it. The contents are unspecified.
func reuseSquare(m *Dense, n int) Dense {
	if cap(m.Data) >= n*n {
		*m = Dense{Rows: n, Cols: n, Stride: n, Data: m.Data[:n*n]}
	} else {
		*m = *NewDense(n, n, nil)
	}
	return *m
}

func resize(s []float64, n int) []float64 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]float64, n)
}

// Size returns n, the order of the factored matrix.
func (es *EigenSym) Size() int { return len(es.values) }

// Values writes the eigenvalues in ascending order into dst and returns
// it; a nil dst is allocated, otherwise it must have length n.
func (es *EigenSym) Values(dst []float64) []float64 {
	mustBeFactored(es.ok, "EigenSym.Values")
	return copyVector(dst, es.values, "EigenSym.Values")
}

// VectorsTo copies the eigenvectors into dst, column j belonging to the
// j-th eigenvalue in ascending order, and returns dst. An empty dst is
// allocated; otherwise it must be n×n. VectorsTo panics if Factorize was
// not asked for vectors.
func (es *EigenSym) VectorsTo(dst *Dense) *Dense {
	if !es.ok || !es.hasVec {
		panic("linalg: EigenSym.VectorsTo: no eigenvectors were computed")
	}
	return copyTo(dst, &es.vectors, "EigenSym.VectorsTo")
}
