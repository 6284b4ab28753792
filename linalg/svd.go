package linalg

import (
	"fmt"
	"math"
	"slices"
)

// SVD is the thin singular value decomposition A = U·diag(σ)·Vᵀ of an m×n
// matrix, k = min(m, n): U is m×k and V is n×k, both with orthonormal
// columns, and σ₁ ≥ σ₂ ≥ … ≥ σ_k ≥ 0 are the singular values in descending
// order.
//
// The zero value is ready to use: call Factorize, then read the results. An
// SVD that has been factored successfully may be read (Values, UTo, VTo,
// Rank, SolveTo) by several goroutines at once; Factorize must not run
// concurrently with anything else on the same value. Besides U and V it
// keeps the workspace of its QR factorizations (about m·n words, twice that
// for matrices that are not tall; see Factorize), which the next Factorize
// reuses.
type SVD struct {
	m, n   int
	s      []float64 // σ, descending
	u, v   Dense     // m×k, n×k
	ok     bool
	sweeps int // Jacobi sweeps of the last Factorize

	// Workspace, kept to make repeated factorizations cheaper.
	qr   QR
	qr2  QR // of B·V, for U when B is not tall
	jt   Dense
	d    []float64
	perm []int
}

// Factorize computes the thin SVD of the m×n matrix a. a is not modified;
// the results are stored in s, reusing its storage when it is large enough.
//
// Algorithm. Let B = A if m ≥ n and B = Aᵀ otherwise, so that B is M×N with
// M ≥ N = k (for a wide A the roles of U and V below are swapped). B is
// factored B = Q·R by the blocked Householder QR (see QR), and R is scaled
// exactly by a power of two when its largest element is beyond 2^±300, so
// that no squared norm can overflow or underflow (if a norm of B itself
// overflows, B is scaled before the QR; σ₁ is then +Inf, but U and V are
// still orthonormal). The one-sided Jacobi
// method (Hestenes; jacobi in svd_jacobi.go) then orthogonalizes the
// columns of Rᵀ by plane rotations, Rᵀ·J = W·Σ with J orthogonal, until
// every pair of columns has cosine at most max(√N, 4)·ε: LAPACK dgesvj's
// √N·ε, with a floor that keeps tiny problems from chasing rounding noise.
// Then B = (Q·J)·Σ·Wᵀ: the σᵢ are the column norms and V_B = W the
// normalized columns, sorted into descending order. Working on Rᵀ rather
// than B makes a rotation cost O(N) instead of O(M), and Jacobi needs fewer
// sweeps on Rᵀ (13 instead of 14–15 for random square matrices).
//
// The left vectors are formed one of two ways. For a tall B (M ≥
// svdTallRatio·N, 4N) the rotations are accumulated into J and
// U_B = Q·[J; 0] is formed with the QR's reflectors. Otherwise U_B is the Q
// factor of B·V_B with its column signs fixed (see leftFromRight for why
// this is as accurate), which replaces 4N flops per rotation by about 6MN²
// flops at matrix-multiply speed.
//
// Rank deficiency: a column of Rᵀ whose norm falls below 2⁻¹⁰⁴ (about ε²)
// times the largest can only be rounding noise; it is set to zero, a
// perturbation far below the backward error, so singular values below about
// ε²·σ₁ are returned as 0. The columns of W that belong to zero singular
// values are completed to an orthonormal set, so U and V always have
// orthonormal columns.
//
// Cost: the QR takes 2MN² − 2N³/3 flops. A Jacobi sweep costs at most 3N³
// flops (6N per pair: a dot product and a fast rotation), plus 2N³ when the
// rotations are accumulated; random matrices need about 9–10 sweeps at
// N = 50 to 200 and 13 at N = 1000, the last two or three with few
// rotations. U_B costs 2MN² (N ≤ 96) to 4MN² − 2N³ for Q·[J; 0], or about
// 6MN² for the QR of B·V_B. The rotations of one round run in parallel on
// disjoint pairs of columns in a fixed tournament order and the rest is
// parallel through Gemm and the QR, so the results are bit-identical for any
// GOMAXPROCS.
//
// Errors: a *NotFiniteError (wrapping ErrNotFinite) if a holds NaN or ±Inf,
// and a *ConvergenceError (wrapping ErrNoConvergence, with the sweep count)
// if Jacobi has not converged after 60 sweeps, which has not been observed.
// After an error s holds no decomposition and its methods panic.
func (s *SVD) Factorize(a *Dense) error {
	a.check("SVD.Factorize")
	s.ok = false
	m, n := a.Rows, a.Cols
	k := min(m, n)
	s.m, s.n, s.sweeps = m, n, 0
	s.s = slices.Grow(s.s[:0], k)[:k]
	s.u = resized(s.u, m, k)
	s.v = resized(s.v, n, k)
	wide := m < n
	bigM, bigN := m, n
	if wide {
		bigM, bigN = n, m
	}
	q := &s.qr
	q.reset(bigN, bigM) // q.y is Bᵀ, N×M: Aᵀ when tall, A itself when wide
	if !q.factorFrom(*a, !wide) {
		return checkFinite(*a) // find the element
	}
	src, e := *a, 0 // B's source and its scale 2^e
	rmax := maxUpper(q.r)
	if math.IsInf(rmax, 0) || math.IsNaN(rmax) {
		// A norm overflowed (elements near the largest float64): factor
		// 2^e·A instead, with its largest element about 1. Rare, so the
		// scaled copy is allocated.
		var amax float64
		for i := 0; i < m; i++ {
			for _, v := range a.Data[i*a.Stride : i*a.Stride+n] {
				amax = math.Max(amax, math.Abs(v))
			}
		}
		_, e = math.Frexp(amax)
		e = -e
		sc := math.Ldexp(1, e)
		src = *NewDense(m, n, nil)
		for i := 0; i < m; i++ {
			for j, v := range a.Data[i*a.Stride : i*a.Stride+n] {
				src.Data[i*n+j] = sc * v
			}
		}
		q.reset(bigN, bigM)
		q.factorFrom(src, !wide)
		rmax = maxUpper(q.r)
	}
	// B = 0 exactly when R = 0.
	x := q.r
	if rmax == 0 {
		clear(s.s)
		identityColumns(s.u)
		identityColumns(s.v)
		s.ok = true
		return nil
	}
	// Scale R by a further 2^f when its largest element is so large or small
	// that squared norms, or the rows of the fast rotations, could overflow
	// or underflow: f makes it about 1, clamped so that 2^f is a normal
	// number. (The QR itself needs no scaling.)
	if rmax > 0x1p300 || rmax < 0x1p-300 {
		_, f := math.Frexp(rmax)
		f = min(max(-f, -1000), 1000)
		scale := math.Ldexp(1, f)
		for i := 0; i < bigN; i++ {
			row := x.Data[i*x.Stride+i : i*x.Stride+bigN]
			for j := range row {
				row[j] *= scale
			}
		}
		e += f
	}

	// One-sided Jacobi on the columns of Rᵀ, which are the rows of R,
	// accumulating the rotations J only when B is tall (see svdTallRatio).
	accumulate := bigM >= svdTallRatio*bigN
	s.jt = resized(s.jt, bigN, 0)
	if accumulate {
		s.jt = resized(s.jt, bigN, bigN)
		identityColumns(s.jt)
	}
	s.d = slices.Grow(s.d[:0], bigN)[:bigN]
	sweeps, err := jacobi(x, s.jt, s.d, svdMaxSweeps)
	s.sweeps = sweeps
	if err != nil {
		return err
	}

	// The descending order of the norms (ties keep the column order).
	d := s.d
	s.perm = slices.Grow(s.perm[:0], bigN)[:bigN]
	for i := range s.perm {
		s.perm[i] = i
	}
	slices.SortStableFunc(s.perm, func(i, j int) int {
		switch {
		case d[i] > d[j]:
			return -1
		case d[i] < d[j]:
			return 1
		}
		return 0
	})
	rank := 0
	for i, p := range s.perm {
		s.s[i] = math.Ldexp(d[p], -e)
		if d[p] > 0 {
			rank++
		}
	}

	// Right singular vectors of B: W, the normalized columns of Rᵀ (rows of
	// R), in the new order, completed where σ = 0.
	ub, vb := s.u, s.v // U_B is M×N, V_B is N×N
	if wide {
		ub, vb = s.v, s.u
	}
	for c, p := range s.perm[:rank] {
		row := x.Data[p*x.Stride : p*x.Stride+bigN]
		inv := 1 / d[p]
		for r, val := range row {
			vb.Data[r*vb.Stride+c] = val * inv
		}
	}
	completeColumns(vb, rank)

	if accumulate {
		// Left singular vectors of B: Q·[J; 0], J = Jtᵀ in the new order.
		for c, p := range s.perm {
			row := s.jt.Data[p*s.jt.Stride : p*s.jt.Stride+bigN]
			for r, val := range row {
				ub.Data[r*ub.Stride+c] = val
			}
		}
		q.applyQ(ub)
	} else {
		s.leftFromRight(&src, ub, vb, wide)
	}
	s.ok = true
	return nil
}

// leftFromRight sets ub (M×N) to the left singular vectors of B given its
// right singular vectors vb (N×N): the Q factor of Y = B·V_B, with the signs
// of its columns chosen so that diag(R_Y) ≥ 0.
//
// Why this is accurate: Jacobi computed Wᵀ exactly for R + Δ with
// ‖Δ‖ = O(ε‖R‖), so B·W = (Q·J)·Σ + E with ‖E‖ = O(ε‖B‖): Y has orthogonal
// columns of norms σᵢ up to a perturbation at the level of the backward
// error. Its Householder QR therefore has R_Y = diag(±σᵢ) + O(ε‖B‖) and an
// orthonormal Q_Y, and B = Q_Y·R_Y·Wᵀ + B·(I − W·Wᵀ) shows that
// U·Σ·Vᵀ = Q_Y·|diag R_Y|·Wᵀ has a backward error of the same order, however
// small the σᵢ (the columns of Q_Y for tiny σᵢ are just some orthonormal
// completion). It costs 2MN² for Y and about 4MN² for the QR and Q_Y — at
// matrix-multiply speed, unlike accumulating J, which costs 4N flops per
// rotation at the speed of the rotations.
//
// a is A as given, or scaled when its norm overflows: Y needs no other
// scaling, since |Y_ij| ≤ σ₁, and a subnormal A loses no more in Y than its
// own representation has already lost.
func (s *SVD) leftFromRight(a *Dense, ub, vb Dense, wide bool) {
	tA := NoTrans // B = A
	if wide {
		tA = Trans // B = Aᵀ
	}
	gemm(tA, NoTrans, 1, *a, vb, 0, ub)
	q := &s.qr2
	bigN, bigM := ub.Cols, ub.Rows
	q.reset(bigN, bigM)
	q.factorFrom(ub, true)
	identityColumns(ub)
	q.applyQ(ub)
	for c := 0; c < bigN; c++ {
		if q.r.Data[c*q.r.Stride+c] < 0 {
			for r := 0; r < bigM; r++ {
				ub.Data[r*ub.Stride+c] = -ub.Data[r*ub.Stride+c]
			}
		}
	}
}

// maxUpper returns the largest |element| of the upper triangle of the
// square matrix r, or NaN if it holds a NaN.
func maxUpper(r Dense) float64 {
	var m float64
	for i := 0; i < r.Rows; i++ {
		for _, v := range r.Data[i*r.Stride+i : i*r.Stride+r.Cols] {
			if v != v {
				return v
			}
			m = math.Max(m, math.Abs(v))
		}
	}
	return m
}

// identityColumns sets the r×c matrix a (r ≥ c) to the first c columns of
// the r×r identity.
func identityColumns(a Dense) {
	if a.Rows == 0 || a.Cols == 0 {
		return
	}
	a.Zero()
	for i := 0; i < min(a.Rows, a.Cols); i++ {
		a.Data[i*a.Stride+i] = 1
	}
}

// completeColumns replaces columns r… of the R×K matrix u (R ≥ K), whose
// first r columns are orthonormal, by further orthonormal columns. Each new
// column is the unit vector e_i least represented in the columns so far
// (the smallest row norm, so the projection keeps at least (R−c)/R of its
// square), orthogonalized twice against them (classical Gram–Schmidt with
// reorthogonalization). The cost is about 4R·c flops for column c.
func completeColumns(u Dense, r int) {
	rows, cols := u.Rows, u.Cols
	if r >= cols {
		return
	}
	urow := func(i, c int) []float64 { return u.Data[i*u.Stride : i*u.Stride+c] }
	w := make([]float64, rows) // squared norms of the rows of u[:, :c]
	for i := range w {
		ri := urow(i, r)
		w[i] = dot(ri, ri)
	}
	v := make([]float64, rows)
	h := make([]float64, cols)
	for c := r; c < cols; c++ {
		best := 0
		for i := range w {
			if w[i] < w[best] {
				best = i
			}
		}
		// v = e_best − U·Uᵀ·e_best, then once more v −= U·(Uᵀ·v).
		copy(h[:c], urow(best, c))
		for i := range v {
			v[i] = -dot(urow(i, c), h[:c])
		}
		v[best]++
		clear(h[:c])
		for i, vi := range v {
			axpy(vi, urow(i, c), h[:c])
		}
		for i := range v {
			v[i] -= dot(urow(i, c), h[:c])
		}
		inv := 1 / nrm2(v)
		for i, vi := range v {
			vi *= inv
			u.Data[i*u.Stride+c] = vi
			w[i] += vi * vi
		}
	}
}

// svdTallRatio: B (M×N, M ≥ N) counts as tall when M ≥ svdTallRatio·N. Then
// the Jacobi rotations are accumulated into J and U = Q·[J; 0]; otherwise U
// comes from the QR factorization of B·V (see leftFromRight). Accumulating
// costs about 4N flops per rotation (2S·N³ for S full sweeps), the other way
// about 4MN² more flops in Gemm and the QR, so the break-even M/N grows with
// the number of sweeps, roughly S/2. Measured on two cores (random B, best of
// three): N=50 even at M=2N, accumulation 20% ahead at 4N; N=200 even at 4N;
// N=600 QR of B·V 6% ahead at 4N, accumulation 7% ahead at 8N.
var svdTallRatio = 4

func (s *SVD) mustOK(op string) {
	if !s.ok {
		panic("linalg: SVD." + op + ": no successful factorization")
	}
}

// Values copies the k = min(m, n) singular values, in descending order, into
// dst and returns it. A nil dst is allocated; otherwise it must have length k.
func (s *SVD) Values(dst []float64) []float64 {
	s.mustOK("Values")
	if dst == nil {
		dst = make([]float64, len(s.s))
	} else if len(dst) != len(s.s) {
		panic(fmt.Sprintf("linalg: SVD.Values: len(dst) is %d, want %d", len(dst), len(s.s)))
	}
	copy(dst, s.s)
	return dst
}

// UTo copies the m×k matrix U of left singular vectors (column i belongs to
// the i-th largest singular value) into dst and returns dst. An empty dst is
// allocated; otherwise it must be m×k.
func (s *SVD) UTo(dst *Dense) *Dense {
	s.mustOK("UTo")
	if dst == nil {
		dst = &Dense{}
	}
	dst.reuseAs(s.u.Rows, s.u.Cols, "SVD.UTo")
	if s.u.Cols > 0 { // Dense.Copy cannot take an m×0 view
		dst.Copy(&s.u)
	}
	return dst
}

// VTo copies the n×k matrix V of right singular vectors (column i belongs to
// the i-th largest singular value) into dst and returns dst. An empty dst is
// allocated; otherwise it must be n×k.
func (s *SVD) VTo(dst *Dense) *Dense {
	s.mustOK("VTo")
	if dst == nil {
		dst = &Dense{}
	}
	dst.reuseAs(s.v.Rows, s.v.Cols, "SVD.VTo")
	if s.v.Cols > 0 {
		dst.Copy(&s.v)
	}
	return dst
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
	s.mustOK("Rank")
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
// modified. The cost is 2r·p·(m + n) flops, in Gemm.
func (s *SVD) SolveTo(dst, b *Dense, rcond float64) (*Dense, int) {
	s.mustOK("SolveTo")
	b.check("SVD.SolveTo")
	if b.Rows != s.m {
		panic(fmt.Sprintf("linalg: SVD.SolveTo: B has %d rows, want %d", b.Rows, s.m))
	}
	if dst == nil {
		dst = &Dense{}
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
		dst.reuseAs(s.n, p, "SVD.SolveTo")
	} else if s.m != s.n {
		panic(fmt.Sprintf("linalg: SVD.SolveTo: dst = b needs a square A, A is %d×%d", s.m, s.n))
	}
	gemm(NoTrans, NoTrans, 1, s.v.view(0, s.n, 0, r), *z, 0, *dst)
	return dst, r
}
