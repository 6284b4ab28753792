package linalg

import (
	"math"
	"slices"
)

// The Jacobi route of SVD.Factorize: QR, then one-sided Jacobi on R.

// factorJacobi is the Jacobi route of Factorize (s.m, s.n, s.kind and the
// storage of s are set up; min(m, n) ≥ 1).
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
// The left vectors (none for SVDValues) are formed one of two ways. For a tall B (M ≥
// svdTallRatio·N, 4N) the rotations are accumulated into J and
// U_B = Q·[J; 0] is formed with the QR's reflectors (Q·[J 0; 0 I] for the
// full U_B). Otherwise U_B is the Q factor of B·V_B with its column signs
// fixed (see leftFromRight for why this is as accurate), which replaces 4N
// flops per rotation by about 6MN² flops at matrix-multiply speed.
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
// Errors: as Factorize's; a *ConvergenceError carries the sweep count.
func (s *SVD) factorJacobi(a *Dense) error {
	m, n := a.Rows, a.Cols
	wide, bigM, bigN := s.shapeOfB()
	full := s.kind == SVDFull
	q := &s.qr
	q.noChunks = full   // the full U_B needs mulQ
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
		src = *NewDense(m, n, nil)
		amax, _ := copyScan(src, *a, false) // finite: factorFrom said so
		e = -exponentOf(amax)
		scaleExp(src.Data, e)
		q.reset(bigN, bigM)
		q.factorFrom(src, !wide)
		rmax = maxUpper(q.r)
	}
	// B = 0 exactly when R = 0.
	x := q.r
	if rmax == 0 {
		s.setZero()
		return nil
	}
	// Scale R by a further 2^f when its largest element is so large or small
	// that squared norms, or the rows of the fast rotations, could overflow
	// or underflow: f makes it about 1, clamped so that 2^f is a normal
	// number. (The QR itself needs no scaling.)
	if rmax > 0x1p300 || rmax < 0x1p-300 {
		f := min(max(-exponentOf(rmax), -1000), 1000)
		for i := 0; i < bigN; i++ {
			scaleExp(x.Data[i*x.Stride+i:i*x.Stride+bigN], f)
		}
		e += f
	}

	// One-sided Jacobi on the columns of Rᵀ, which are the rows of R,
	// accumulating the rotations J only when B is tall (see svdTallRatio).
	accumulate := bigM >= svdTallRatio*bigN && s.wantVectors()
	s.jt = resized(s.jt, bigN, 0)
	if accumulate {
		s.jt = resized(s.jt, bigN, bigN)
		identityColumns(s.jt)
	}
	s.d = slices.Grow(s.d[:0], bigN)[:bigN]
	if _, err := jacobi(x, s.jt, s.d, svdMaxSweeps); err != nil {
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

	if !s.wantVectors() {
		return nil
	}

	// Right singular vectors of B: W, the normalized columns of Rᵀ (rows of
	// R), in the new order, completed where σ = 0.
	ub, vb := s.factorsOfB() // U_B is M×N (M×M when full), V_B is N×N
	for c, p := range s.perm[:rank] {
		row := x.Data[p*x.Stride : p*x.Stride+bigN]
		inv := 1 / d[p]
		for r, val := range row {
			vb.Data[r*vb.Stride+c] = val * inv
		}
	}
	completeColumns(vb, rank)

	if accumulate {
		// Left singular vectors of B: Q·[J; 0] (Q·[J 0; 0 I] when full),
		// J = Jtᵀ in the new order.
		if full {
			identityColumns(ub)
		}
		for c, p := range s.perm {
			row := s.jt.Data[p*s.jt.Stride : p*s.jt.Stride+bigN]
			for r, val := range row {
				ub.Data[r*ub.Stride+c] = val
			}
		}
		q.mulQInto(ub)
	} else {
		s.leftFromRight(&src, ub, vb.view(0, bigN, 0, bigN), wide)
	}
	return nil
}

// leftFromRight sets ub (M×N, or M×M for the full U_B) to the left singular
// vectors of B given its right singular vectors vb (N×N): the Q factor of
// Y = B·V_B (all of Q when ub is M×M), with the signs of its first N
// columns chosen so that diag(R_Y) ≥ 0.
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
	bigM, bigN := ub.Rows, vb.Cols
	y := ub.view(0, bigM, 0, bigN)
	gemm(tA, NoTrans, 1, *a, vb, 0, y)
	q := &s.qr2
	q.noChunks = ub.Cols > bigN // the full U_B needs mulQ
	q.reset(bigN, bigM)
	q.factorFrom(y, true)
	identityColumns(ub)
	q.mulQInto(ub)
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
