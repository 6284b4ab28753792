package linalg

import (
	"cmp"
	"math"
	"slices"
)

// jacobiMaxSweeps is the number of sweeps after which EigenSymJacobi gives
// up with a *ConvergenceError. Cyclic Jacobi converges quadratically once
// the off-diagonal part is small; the matrices of the tests and benchmarks
// need 5 to 25 sweeps (see Factorize), so 50 is a limit that a converging
// iteration does not reach. A variable only so that a test can lower it and
// see the error.
var jacobiMaxSweeps = 50

// jacobiTol is the relative threshold below which an off-diagonal element is
// negligible: the pair (p, q) is skipped when |a_pq| ≤ jacobiTol·√|a_pp·a_qq|.
// This is the criterion of Demmel and Veselić, under which the eigenvalues of
// a positive definite matrix are found to high relative accuracy; it is the
// machine epsilon 2⁻⁵².
const jacobiTol = 0x1p-52

// Scaling thresholds: a matrix whose largest element is outside
// [jacobiSmall, jacobiBig] is scaled by a power of two (exactly) to a largest
// element in [1/2, 1) before the sweeps, so that neither the rotations nor
// the eigenvalues (up to n·max|a_ij|) can overflow, and no element that
// matters is subnormal. The results are scaled back.
const (
	jacobiBig   = 0x1p+500
	jacobiSmall = 0x1p-500
)

// EigenSymJacobi is the eigendecomposition A = V·Λ·Vᵀ of a symmetric matrix
// computed by the cyclic Jacobi method: Λ = diag(λ₀, …, λₙ₋₁) holds the
// eigenvalues in ascending order and the columns of the orthogonal V the
// eigenvectors, A·vⱼ = λⱼ·vⱼ.
//
// # When to prefer it
//
// Jacobi costs several times more than reduction to tridiagonal form
// followed by QR or divide and conquer (EigenSym), so it is the method for
// small matrices, n up to a few hundred. Its advantage is accuracy: for a
// positive definite A = D·B·D with D diagonal, Demmel and Veselić (1992)
// showed that every eigenvalue, however small, is determined by the entries
// of A to a relative precision of about ε·κ(B), and this method finds it to
// that precision; tridiagonal methods only guarantee an absolute error of
// about ε·‖A‖, which leaves a tiny eigenvalue of a graded or badly scaled
// matrix with few correct digits or none. Prefer Jacobi for graded and
// scaled-diagonally-dominant positive definite matrices (kernel matrices of
// features on very different scales, covariance matrices of variables in
// different units) whose small eigenvalues matter.
//
// The zero value is ready to use: call Factorize, then read the results
// with Values and VectorsTo. A factorization that is no longer being
// modified may be read by several goroutines at once; Factorize must not run
// concurrently with anything else on the same value.
type EigenSymJacobi struct {
	n          int
	values     []float64 // ascending
	vectors    Dense     // n×n, column j the eigenvector of values[j]
	hasVectors bool
	ok         bool      // the last factorization succeeded
	sweeps     int       // sweeps done by the last factorization, for tests
	work       []float64 // n×n workspace kept between calls
	rots       []planeRotation
	perm       []int
}

// Factorize computes the eigenvalues of the n×n symmetric matrix a, and its
// eigenvectors if wantVectors is true. It reads only the lower triangle of a
// (diagonal included); a is not modified. Storage from an earlier call is
// reused when it is large enough.
//
// The method is cyclic-by-row Jacobi on a full symmetric copy of A: sweeps
// visit the pairs (p, q), p < q, row by row, and each rotation in the plane
// (p, q) annihilates a_pq, with tan θ = t = sign(ϑ)/(|ϑ| + √(1+ϑ²)),
// ϑ = (a_qq − a_pp)/(2a_pq) (Rutishauser's stable formulas; |θ| ≤ π/4). A
// pair is skipped when |a_pq| ≤ ε·√|a_pp·a_qq| with ε = 2⁻⁵², and the
// iteration stops after the first sweep that skips every pair. The
// rotations update two rows of the copy (contiguous) and mirror them into
// the two columns (column p only once, after all the pairs (p, ·)); with
// vectors, they also update two rows of Vᵀ, which is transposed at the end.
// A matrix whose largest element is above 2⁵⁰⁰ or below 2⁻⁵⁰⁰ is first
// scaled by a power of two, so that nothing overflows and subnormal input
// keeps its precision.
//
// A full sweep costs 3n³ flops, and as many again for the eigenvectors. As
// the iteration converges, more and more pairs are skipped: on random
// matrices of order 100 to 400 the work is that of 7 to 9 full sweeps (10
// to 14 sweeps in all, the last of which only checks), on graded ones 3 to
// 4 (5 or 6 sweeps), and up to 12 (25 sweeps) when many eigenvalues cluster
// near zero (a geometric spectrum from 1 to 1e-12). That is about 25n³
// flops for the eigenvalues and 50n³ with the eigenvectors, against about
// 4n³/3 and 9n³ for tridiagonal QR; at n = 400 it takes about 0.5 s and
// 0.75 s on the machine of BENCHMARKS.md. Factorize runs on the calling
// goroutine (rotateVT says why), so its results do not depend on
// GOMAXPROCS.
//
// Factorize panics if a is not square. It returns a *NotFiniteError
// (wrapping ErrNotFinite) if the lower triangle holds NaN or ±Inf, and a
// *ConvergenceError (wrapping ErrNoConvergence) with the number of sweeps if
// the iteration has not converged after 50 sweeps, which is not expected to
// happen. After an error e holds no factorization: Values and VectorsTo
// panic.
func (e *EigenSymJacobi) Factorize(a *Dense, wantVectors bool) error {
	a.checkSquare("EigenSymJacobi.Factorize")
	e.ok = false
	if err := checkFiniteLower(a); err != nil {
		return err
	}
	n := a.Rows
	e.n = n
	e.hasVectors = wantVectors
	e.values = slices.Grow(e.values[:0], n)[:n]
	e.work = slices.Grow(e.work[:0], n*n)[:n*n]
	w := e.work

	// The full symmetric copy of A, scaled if its largest element is
	// outside [jacobiSmall, jacobiBig].
	var amax float64
	for i := 0; i < n; i++ {
		for _, v := range a.Data[i*a.Stride : i*a.Stride+i+1] {
			amax = max(amax, math.Abs(v))
		}
	}
	// A is scaled by 2^-exp, with Ldexp because 2^-exp itself may not be
	// representable (a subnormal amax needs a factor above 2¹⁰²³).
	exp := 0
	if amax > jacobiBig || (amax < jacobiSmall && amax > 0) {
		_, exp = math.Frexp(amax)
	}
	for i := 0; i < n; i++ {
		ri := a.Data[i*a.Stride : i*a.Stride+i+1]
		for j, v := range ri {
			if exp != 0 {
				v = math.Ldexp(v, -exp)
			}
			w[i*n+j] = v
			w[j*n+i] = v
		}
	}

	// vt holds Vᵀ: row j is the eigenvector of the diagonal element j.
	var vt []float64
	if wantVectors {
		vt = slices.Grow(e.vectors.Data[:0], n*n)[:n*n]
		clear(vt)
		for i := 0; i < n; i++ {
			vt[i*n+i] = 1
		}
	}

	if wantVectors && e.rots == nil {
		e.rots = make([]planeRotation, 0, jacobiBatch)
	}
	sweeps, ok := jacobiSweeps(n, w, vt, e.rots)
	e.sweeps = sweeps
	if !ok {
		return &ConvergenceError{Algorithm: "cyclic Jacobi", Iterations: sweeps}
	}

	// Sort the eigenvalues ascending (ties in the order of the diagonal, so
	// the result is deterministic) and undo the scaling.
	e.perm = slices.Grow(e.perm[:0], n)[:n]
	perm := e.perm
	for i := range perm {
		perm[i] = i
	}
	slices.SortStableFunc(perm, func(i, j int) int { return cmp.Compare(w[i*n+i], w[j*n+j]) })
	for j, p := range perm {
		e.values[j] = math.Ldexp(w[p*n+p], exp)
	}
	if wantVectors {
		// Column j of V is row perm[j] of Vᵀ. w is free now: build V
		// there and keep vt's storage as the next workspace.
		for j, p := range perm {
			row := vt[p*n : p*n+n]
			for k, v := range row {
				w[k*n+j] = v
			}
		}
		e.vectors = Dense{Rows: n, Cols: n, Stride: n, Data: w}
		e.work = vt
	}
	e.ok = true
	return nil
}

// jacobiSweeps diagonalizes the n×n symmetric matrix a (full storage, both
// triangles, stride n) by cyclic-by-row Jacobi sweeps, and applies each
// rotation to the rows of vt (n×n, stride n) unless vt is nil. It returns the
// number of sweeps done, counting the last one that found nothing to do, and
// whether the iteration converged within jacobiMaxSweeps.
//
// The rotations are recorded in rots (used only when vt is not nil; its
// capacity is the batch size) and applied to vt when rots is full and at
// the end: Vᵀ is updated by the iteration, never read.
func jacobiSweeps(n int, a, vt []float64, rots []planeRotation) (sweeps int, ok bool) {
	rots = rots[:0]
	for sweeps < jacobiMaxSweeps {
		sweeps++
		rotated := false
		for p := 0; p < n-1; p++ {
			// Invariant: a is symmetric, except that while the
			// pairs (p, q) are visited, column p is left stale (the
			// current values are in row p). Rotations in the plane
			// (p, q) read and write rows p and q and mirror row q
			// into column q; the stale a_qp is read only for the
			// element (q, p) of the rotated row, which is then set
			// to zero, so column p needs mirroring only once, after
			// the loop over q.
			rp := a[p*n : p*n+n]
			rotatedP := false
			for q := p + 1; q < n; q++ {
				apq := rp[q]
				app, aqq := rp[p], a[q*n+q]
				// The relative criterion; apq = 0 is always
				// skipped. The square roots are taken apart so the
				// product cannot overflow or underflow.
				if math.Abs(apq) <= jacobiTol*math.Sqrt(math.Abs(app))*math.Sqrt(math.Abs(aqq)) {
					continue
				}
				rotatedP = true
				// Rutishauser: ϑ = cot 2θ, t = tan θ the smaller
				// root of t² + 2ϑt − 1 = 0. Hypot avoids overflow of
				// ϑ²; if ϑ itself overflows, t = 0 and the rotation
				// only sets a_pq, which is then below ε·|a_pp − a_qq|,
				// to zero.
				theta := (aqq - app) / (2 * apq)
				t := 1 / (math.Abs(theta) + math.Hypot(1, theta))
				if theta < 0 {
					t = -t
				}
				c := 1 / math.Sqrt(1+t*t)
				s := t * c
				rq := a[q*n : q*n+n]
				rotateRows(c, s, rp, rq)
				// The 2×2 block, from the formulas that keep the
				// small diagonal element accurate: a_pp − t·a_pq and
				// a_qq + t·a_pq.
				rp[p] = app - t*apq
				rq[q] = aqq + t*apq
				rp[q], rq[p] = 0, 0
				for k, v := range rq {
					a[k*n+q] = v
				}
				if vt != nil {
					rots = append(rots, planeRotation{p: p, q: q, c: c, s: s})
					if len(rots) == cap(rots) {
						rotateVT(n, rots, vt)
						rots = rots[:0]
					}
				}
			}
			if rotatedP {
				for k, v := range rp {
					a[k*n+p] = v
				}
				rotated = true
			}
		}
		if !rotated {
			rotateVT(n, rots, vt)
			return sweeps, true
		}
	}
	return sweeps, false
}

// jacobiBatch is the number of rotations recorded before they are applied
// to Vᵀ. Applying them in batches rather than one by one, between the
// updates of A, keeps A in cache: with vectors, n = 400 takes about 12%
// less time (BenchmarkEigenSymJacobi).
const jacobiBatch = 4096

// planeRotation is a rotation [c −s; s c] in the plane (p, q).
type planeRotation struct {
	p, q int
	c, s float64
}

// rotateVT applies the rotations rots, in order, to the rows p and q of vt
// (n×n, stride n).
//
// It runs on the calling goroutine. The columns of vt are independent, so
// they could be split among goroutines without changing a bit of the
// result, but on the 2-core machine of BENCHMARKS.md that was no faster,
// even for a whole batch at n = 400 (about 10⁷ flops): the batch streams
// all of Vᵀ through the cache for few flops per element.
func rotateVT(n int, rots []planeRotation, vt []float64) {
	for _, r := range rots {
		rotateRows(r.c, r.s, vt[r.p*n:r.p*n+n], vt[r.q*n:r.q*n+n])
	}
}

// rotateRows applies the plane rotation [c −s; s c] to the rows x and y of
// equal length: x ← c·x − s·y, y ← s·x + c·y.
func rotateRows(c, s float64, x, y []float64) {
	y = y[:len(x)]
	for k, xk := range x {
		yk := y[k]
		x[k] = c*xk - s*yk
		y[k] = s*xk + c*yk
	}
}

// Size returns n, the order of the factored matrix (0 for the zero value).
func (e *EigenSymJacobi) Size() int { return e.n }

// Values copies the eigenvalues, in ascending order, into dst and returns
// it. A nil dst is allocated; otherwise it must have length n.
func (e *EigenSymJacobi) Values(dst []float64) []float64 {
	mustBeFactored(e.ok, "EigenSymJacobi.Values")
	return copyVector(dst, e.values, "EigenSymJacobi.Values")
}

// VectorsTo copies the eigenvectors into dst and returns it: column j is the
// unit eigenvector of the eigenvalue Values()[j] (ascending order), and the
// columns are orthonormal. The sign of each column is not specified. An empty
// dst (nil or the zero Dense) is allocated; otherwise it must be n×n.
// VectorsTo panics if the factorization was computed without vectors.
func (e *EigenSymJacobi) VectorsTo(dst *Dense) *Dense {
	mustBeFactored(e.ok, "EigenSymJacobi.VectorsTo")
	if !e.hasVectors {
		panic("linalg: EigenSymJacobi.VectorsTo: eigenvectors were not computed")
	}
	return copyTo(dst, &e.vectors, "EigenSymJacobi.VectorsTo")
}
