// Package linalg is the dense linear algebra under rkhs, written for it in
// pure Go:
//
//   - Dense, a row-major matrix view with a stride;
//   - Gemm and Syrk, blocked and packed matrix products in the layers of
//     BLIS (gemm.go, gemm_pack.go, gemm_kernel.go; matrix–vector products
//     in gemv.go), split over goroutines;
//   - Trsm and Trsv, triangular solves (trsm.go, trsv.go);
//   - Cholesky, blocked, with solves, log-determinant and diag(A⁻¹)
//     (cholesky.go, cholesky_unblocked.go, cholesky_invdiag.go);
//   - EigenSym, the symmetric eigensolver of LAPACK's dsyevd: blocked
//     Householder tridiagonalization (tridiag.go), then with vectors
//     Cuppen's divide and conquer with the deflation and vectors of Gu and
//     Eisenstat (tridiag_dc.go, tridiag_merge.go, and the secular equation
//     in secular.go) and blocked back-transformation (applyRowReflectors),
//     or for eigenvalues only the root-free QL/QR iteration of Pal, Walker
//     and Kahan (tridiag_pwk.go; implicit QL/QR with vectors, for the
//     leaves of the divide and conquer, in tridiag_ql.go);
//   - EigenSymJacobi, cyclic Jacobi, for small and graded matrices whose
//     small eigenvalues must be accurate to high relative precision
//     (eigsym_jacobi.go);
//   - QR, blocked Householder QR (qr.go, qr_unblocked.go);
//   - SVD, thin, full or values only, with rank and least-squares solves,
//     by one of two routes. The bidiagonal route, LAPACK's dgesdd and the
//     fast one, normwise backward stable: Golub–Kahan bidiagonalization by
//     blocked Householder reflectors from both sides (bidiag.go, its
//     matrix–vector passes in bidiag_pass.go; the route in svd_bidiag.go,
//     with a QR first when the matrix is tall), then the SVD of the bidiagonal matrix by the
//     divide and conquer of Gu and Eisenstat when vectors are wanted
//     (bidiag_dc.go, bidiag_merge.go, the secular equation in secular.go)
//     or by the implicit QR iteration of Demmel and Kahan for values only
//     (bidiag_qr.go, bidiag_2x2.go), and blocked back-transformation
//     (bidiag_apply.go). Or the Jacobi route: QR preconditioning and
//     parallel one-sided (Hestenes) Jacobi (svd_qrjacobi.go, svd_jacobi.go),
//     for small and graded matrices whose small singular values must be
//     accurate to high relative precision. All Householder reflectors are
//     generated and applied in one place (householder.go);
//   - Dot and Nrm2, the inner product and the overflow-safe 2-norm every
//     package of rkhs uses (vec.go);
//   - the error types of rkhs: the sentinels and their structs below, and
//     InputError, which the packages above linalg return for invalid
//     arguments (linalg itself panics on misuse, see Failure); MemoryError
//     and FormatBytes, with which they refuse problems too large for memory
//     (memory.go).
//
// The papers: G. Golub and W. Kahan, "Calculating the singular values and
// pseudo-inverse of a matrix" (1965); J. J. M. Cuppen, "A divide and
// conquer method for the symmetric tridiagonal eigenproblem" (1981); M. Gu
// and S. C. Eisenstat, "A divide-and-conquer algorithm for the symmetric
// tridiagonal eigenproblem" (1995) and "A divide-and-conquer algorithm for
// the bidiagonal SVD" (1995); J. Demmel and W. Kahan, "Accurate singular
// values of bidiagonal matrices" (1990); J. Demmel and K. Veselić,
// "Jacobi's method is more accurate than QR" (1992).
//
// One algorithm per file, each named after it; every fast routine has a
// naive twin in the tests.
//
// # Storage
//
// A [Dense] is a row-major view: element (i, j) is Data[i*Stride+j], row i is
// the contiguous slice Data[i*Stride : i*Stride+Cols], and Stride ≥ Cols.
// Elements between Cols and Stride in a row belong to somebody else (a wider
// parent matrix, or padding) and are never read or written. Views of a block
// ([Dense.Slice]) share storage with their parent. The zero Dense is an empty
// 0×0 matrix; routines that return a matrix into a destination accept an empty
// destination and allocate it.
//
// Routines that work on symmetric or triangular matrices say which triangle
// they read and write; the other triangle is neither read nor modified.
//
// # Failure
//
// There are two tiers of failure, as in the Go standard library:
//
//   - Misuse panics: impossible shapes (an inner dimension that does not
//     match), negative sizes, a Stride smaller than Cols, Data too short for
//     the view (found at the entry of the routine, or by Row, At and Set,
//     never as a raw index error inside), a triangle that is not Lower or
//     Upper where one is read, or reading a factorization that has not
//     succeeded. Panic messages start with "linalg:". This is the one
//     package of rkhs that panics on malformed views: the packages above it
//     check every view they are given and return a *InputError instead.
//   - Failure that depends on the numbers returns an error: a matrix that is
//     not positive definite ([ErrNotPositiveDefinite], wrapped in a
//     [*PivotError] that names the failing column), that holds NaN or ±Inf
//     ([ErrNotFinite], wrapped in a [*NotFiniteError] that names the element),
//     or an iteration that reached its limit ([ErrNoConvergence], wrapped in
//     a [*ConvergenceError] with the count). Use [errors.Is] and [errors.As]
//     to inspect them. [ErrTooLarge], wrapped in a [*MemoryError], is the
//     one the packages above linalg return when a problem would need more
//     memory than the program may use; they check before they allocate.
//
// Arguments are never modified unless the documentation of the routine says
// so (for example the output C of [Gemm], or the matrix given to
// [Cholesky.FactorizeInPlace]).
//
// # Parallelism and determinism
//
// Large operations split their output over up to GOMAXPROCS goroutines
// (through rkhs/internal/parallel); small ones run on the calling
// goroutine. Work is split only along loops that partition the output,
// never along a sum, and every output element is computed by the same sequence of floating-point
// operations whichever goroutine computes it. Results are therefore
// bit-identical for any GOMAXPROCS. They can differ in the last bits between
// builds for different GOAMD64 levels, because at GOAMD64=v3 the compiler
// fuses x*y+z into one fused multiply-add.
//
// No routine starts goroutines that outlive the call, and none of the types
// here is safe for concurrent mutation; a factorization that is no longer
// being modified may be read (solved with) from several goroutines at once.
package linalg
