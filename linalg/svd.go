package linalg

import (
	"fmt"
	"slices"
)

// SVD is the singular value decomposition A = U·Σ·Vᵀ of an m×n matrix,
// k = min(m, n): σ₁ ≥ σ₂ ≥ … ≥ σ_k ≥ 0 are the singular values in
// descending order, and on request U and V hold the singular vectors in
// their columns — thin (U m×k, V n×k, orthonormal columns) or full (U m×m
// and V n×n orthogonal, their first k columns the thin ones).
//
// The zero value is ready to use: call Factorize, then read the results. An
// SVD that has been factored successfully may be read (Values, UTo, VTo,
// Rank, SolveTo) by several goroutines at once; Factorize must not run
// concurrently with anything else on the same value. Besides U and V it
// keeps the workspace of its reductions (about m·n words, more for
// matrices that are not tall), which the next Factorize reuses.
type SVD struct {
	m, n int
	kind SVDKind   // what was computed: SVDThin, SVDFull or SVDValues
	s    []float64 // σ, descending
	u, v Dense     // m×k and n×k, or m×m and n×n; empty for SVDValues
	ok   bool

	// Workspace, kept to make repeated factorizations cheaper.
	qr   QR
	qr2  QR // of B·V, for U when B is not tall (Jacobi route)
	jt   Dense
	d    []float64
	perm []int
	w    Dense // the reduced matrix (bidiagonal route)
	e    []float64
	tauq []float64
	taup []float64
}

// SVDKind says what SVD.Factorize computes — SVDThin (the zero value),
// SVDFull or SVDValues — and, optionally, by which algorithm: or one of
// those with SVDJacobi or SVDBidiagonal to choose the route instead of
// letting Factorize choose it by shape.
type SVDKind uint8

const (
	// SVDThin computes σ and the thin factors U (m×k) and V (n×k).
	SVDThin SVDKind = 0
	// SVDFull computes σ and the full factors U (m×m) and V (n×n).
	SVDFull SVDKind = 1
	// SVDValues computes the singular values only.
	SVDValues SVDKind = 2

	// SVDJacobi selects the one-sided Jacobi route for every shape: QR,
	// then Jacobi rotations on the triangular factor. It is the route for
	// graded matrices whose small singular values must be accurate to high
	// relative precision (see Factorize), and slower than SVDBidiagonal
	// unless min(m, n) is small.
	SVDJacobi SVDKind = 4
	// SVDBidiagonal selects the bidiagonal route for every shape:
	// Householder bidiagonalization (after a QR when the matrix is tall),
	// then divide and conquer (or, for values only, the bidiagonal QR
	// iteration). It is the fast route, normwise backward stable.
	SVDBidiagonal SVDKind = 8
)

// svdJacobiMax: by default (no route requested) Factorize takes the Jacobi
// route when min(m, n) ≤ svdJacobiMax and the bidiagonal route otherwise.
// Up to there the two cost about the same, and Jacobi adds its high
// relative accuracy. A variable only so that TestCalibrateSVD can sweep it.
// On a 2-core Intel Xeon virtual machine (family 6 model 207, default
// build, 2026-11-24), Jacobi against bidiagonal: 0.36 against 0.34 ms at
// 32×32, 2.3 against 1.8 ms at 64×64, 22.7 against 21.6 ms at 6400×64 (the
// QR dominates), but 14.3 against 8.3 ms at 128×128.
var svdJacobiMax = 64

// Factorize computes the singular value decomposition of the m×n matrix a,
// with the factors kind asks for (SVDThin, SVDFull or SVDValues, or'ed
// with SVDJacobi or SVDBidiagonal to force a route). a is not modified; the
// results are stored in s, reusing its storage when it is large enough.
//
// Let B = A if m ≥ n and B = Aᵀ otherwise (M×N, M ≥ N = k; for a wide A
// the roles of U and V below are swapped). There are two routes:
//
//   - Jacobi (SVDJacobi, and the default when k ≤ svdJacobiMax): B = Q·R by
//     the blocked Householder QR, then the one-sided Jacobi method
//     (Hestenes) orthogonalizes the rows of R by plane rotations; see
//     factorJacobi in svd_qrjacobi.go. When B = B₀·D with D diagonal and
//     B₀ well conditioned (a graded matrix), every singular value down to
//     about ε²·σ₁ is computed to high relative accuracy, as Demmel and
//     Veselić, "Jacobi's method is more accurate than QR" (1992), show
//     (smaller ones are rounding noise at that level and returned as 0).
//     Cost: the QR's 2MN² − 2N³/3 flops, then about 3N³ flops per sweep
//     (9 to 13 sweeps for random matrices).
//   - Bidiagonal (SVDBidiagonal, and the default when k > svdJacobiMax): B,
//     or its triangular factor R when M ≥ svdQRRatio·N (3N, or 2N with
//     the AVX-512 kernels of a GOEXPERIMENT=simd build), is reduced to
//     bidiagonal form by blocked Householder reflectors from both sides
//     (bidiagonalize, half of its flops in Gemm); the bidiagonal SVD is
//     computed by divide and conquer (bdsdc) when vectors are wanted and
//     by the bidiagonal QR iteration (bdsqr) for values only; the vectors
//     are transformed back by blocked reflectors (applyBidiagQ,
//     applyRowReflectors, and the QR's Q). The method of LAPACK's dgesdd; see
//     factorBidiag in svd_bidiag.go. It is normwise backward stable: the
//     computed factors are exact for A + E with ‖E‖ = O(ε‖A‖), so each
//     σᵢ is accurate to about ε·σ₁. Cost for a square matrix: 8n³/3 flops
//     for the reduction, up to 8n³/3 for the divide and conquer (much less
//     when values deflate) and 4n³ for the back-transformation.
//
// Either way U and V have orthonormal columns to working precision, also
// for rank-deficient A (vectors of zero singular values are completed to
// an orthonormal set). A matrix whose entries are so large or small that
// the computation could overflow or underflow is scaled by a power of two
// first (exactly); if a singular value overflows it is +Inf, but U and V
// are still orthonormal. Results are bit-identical for any GOMAXPROCS.
//
// Errors: a *NotFiniteError (wrapping ErrNotFinite) if a holds NaN or
// ±Inf, and a *ConvergenceError (wrapping ErrNoConvergence) if an iteration
// reaches its limit (Jacobi after 60 sweeps, the bidiagonal QR after 6k²
// steps, a secular equation after 100 iterations), which has not been
// observed. After an error s holds no decomposition and its methods panic.
// Factorize panics if kind is not one of the combinations above.
func (s *SVD) Factorize(a *Dense, kind SVDKind) error {
	a.check("SVD.Factorize")
	vec, route := kind&^(SVDJacobi|SVDBidiagonal), kind&(SVDJacobi|SVDBidiagonal)
	if vec > SVDValues || route == SVDJacobi|SVDBidiagonal {
		panic(fmt.Sprintf("linalg: SVD.Factorize: invalid kind %#x", uint8(kind)))
	}
	s.ok = false
	m, n := a.Rows, a.Cols
	k := min(m, n)
	s.m, s.n, s.kind = m, n, vec
	s.s = slices.Grow(s.s[:0], k)[:k]
	switch vec {
	case SVDThin:
		s.u, s.v = resized(s.u, m, k), resized(s.v, n, k)
	case SVDFull:
		s.u, s.v = resized(s.u, m, m), resized(s.v, n, n)
	default:
		s.u, s.v = resized(s.u, m, 0), resized(s.v, n, 0)
	}
	if k == 0 {
		s.setZero()
		s.ok = true
		return nil
	}
	var err error
	if route == SVDJacobi || (route == 0 && k <= svdJacobiMax) {
		err = s.factorJacobi(a)
	} else {
		err = s.factorBidiag(a)
	}
	s.ok = err == nil
	return err
}

// wantVectors reports whether the last Factorize computes U and V.
func (s *SVD) wantVectors() bool { return s.kind != SVDValues }

// shapeOfB returns whether A is wide and the shape M×N (M ≥ N) of B, which
// is A, or Aᵀ for a wide A.
func (s *SVD) shapeOfB() (wide bool, bigM, bigN int) {
	if s.m < s.n {
		return true, s.n, s.m
	}
	return false, s.m, s.n
}

// factorsOfB returns the factors of B (U_B with M rows, V_B with N rows) as
// views of s.u and s.v: for a wide A, B = Aᵀ and the roles swap.
func (s *SVD) factorsOfB() (ub, vb Dense) {
	if s.m < s.n {
		return s.v, s.u
	}
	return s.u, s.v
}

// setZero sets the result for A = 0 (or k = 0): every σ is 0, and U and V
// are the leading columns of the identity, which are orthonormal bases.
func (s *SVD) setZero() {
	clear(s.s)
	identityColumns(s.u)
	identityColumns(s.v)
}

// mustHaveVectors panics, naming op, unless the factorization succeeded
// and computed singular vectors.
func (s *SVD) mustHaveVectors(op string) {
	mustBeFactored(s.ok, "SVD."+op)
	if !s.wantVectors() {
		panic("linalg: SVD." + op + ": the factorization computed singular values only (SVDValues)")
	}
}

// Values copies the k = min(m, n) singular values, in descending order, into
// dst and returns it. A nil dst is allocated; otherwise it must have length k.
func (s *SVD) Values(dst []float64) []float64 {
	mustBeFactored(s.ok, "SVD.Values")
	return copyVector(dst, s.s, "SVD.Values")
}

// UTo copies U into dst and returns dst: m×k after SVDThin, m×m after
// SVDFull, column i belonging to the i-th largest singular value (columns k…
// of a full U span the orthogonal complement of A's column space). An
// empty dst is allocated; otherwise it must have U's shape. UTo panics
// after SVDValues.
func (s *SVD) UTo(dst *Dense) *Dense {
	s.mustHaveVectors("UTo")
	return copyTo(dst, &s.u, "SVD.UTo")
}

// VTo copies V into dst and returns dst: n×k after SVDThin, n×n after
// SVDFull, column i belonging to the i-th largest singular value (columns k…
// of a full V span A's null space). An empty dst is allocated; otherwise it
// must have V's shape. VTo panics after SVDValues.
func (s *SVD) VTo(dst *Dense) *Dense {
	s.mustHaveVectors("VTo")
	return copyTo(dst, &s.v, "SVD.VTo")
}

// cutoff returns the threshold below which singular values count as zero
// for Rank and SolveTo: rcond·σ₁, with rcond = max(m, n)·ε when rcond ≤ 0.
func (s *SVD) cutoff(rcond float64) float64 {
	if rcond <= 0 {
		rcond = float64(max(s.m, s.n)) * 0x1p-52
	}
	if len(s.s) == 0 {
		return 0
	}
	return rcond * s.s[0]
}

// Rank returns the number of singular values σᵢ > rcond·σ₁, the numerical
// rank of A. rcond ≤ 0 selects the default max(m, n)·ε, the size of the
// singular values that rounding errors alone can produce in a matrix of rank
// less than k. The zero matrix has rank 0.
func (s *SVD) Rank(rcond float64) int {
	mustBeFactored(s.ok, "SVD.Rank")
	tol := s.cutoff(rcond)
	r := 0
	for r < len(s.s) && s.s[r] > tol {
		r++
	}
	return r
}

// SolveTo computes the minimum-norm least-squares solution X = V·Σ⁺·Uᵀ·B of
// A·X ≈ B for the m×p matrix b, treating singular values σᵢ ≤ rcond·σ₁ as
// zero (rcond ≤ 0 selects the default max(m, n)·ε, as in Rank), writes the
// n×p matrix X into dst and returns dst and the rank r used. Among all X
// that minimize ‖A·X − B‖ in the Frobenius norm for the truncated A, it is
// the one of least norm, and its columns are orthogonal to the null space.
//
// An empty dst is allocated; otherwise it must be n×p. dst may be b itself
// when m = n; otherwise it must not share storage with b, which is not
// modified. The cost is 2r·p·(m + n) flops, in Gemm. SolveTo panics after
// SVDValues.
func (s *SVD) SolveTo(dst, b *Dense, rcond float64) (*Dense, int) {
	s.mustHaveVectors("SolveTo")
	b.check("SVD.SolveTo")
	if b.Rows != s.m {
		panic(fmt.Sprintf("linalg: SVD.SolveTo: B has %d rows, want %d", b.Rows, s.m))
	}
	p := b.Cols
	r := s.Rank(rcond)
	// Z = Σ_r⁻¹·U_rᵀ·B (r×p), then X = V_r·Z.
	z := NewDense(r, p, nil)
	gemm(Trans, NoTrans, 1, s.u.view(0, s.m, 0, r), *b, 0, *z)
	for i := 0; i < r; i++ {
		inv := 1 / s.s[i]
		row := z.Data[i*p : i*p+p]
		for j := range row {
			row[j] *= inv
		}
	}
	if dst != b {
		dst = matrixTo(dst, s.n, p, "SVD.SolveTo")
	} else if s.m != s.n {
		panic(fmt.Sprintf("linalg: SVD.SolveTo: dst = b needs a square A, A is %d×%d", s.m, s.n))
	}
	gemm(NoTrans, NoTrans, 1, s.v.view(0, s.n, 0, r), *z, 0, *dst)
	return dst, r
}
