package linalg

import (
	"math"
	"slices"
)

// The bidiagonal route of SVD.Factorize (LAPACK's dgesdd): an optional QR,
// Householder bidiagonalization, the SVD of the bidiagonal matrix, and the
// back-transformations.

// svdQRRatio: on the bidiagonal route a B with M ≥ svdQRRatio·N rows is
// first factored B = Q·R, and R is bidiagonalized instead of B (LAPACK's
// dgesdd does so from M ≥ 11N/6). A variable only so that TestCalibrateSVD
// can sweep it. The crossover moves with the speed of the bidiagonal
// reduction's passes (bidiagQRRatio): the faster they are beside the QR's
// Gemm, the taller B must be before the QR pays. Thin SVDs with N = 500,
// directly against QR first, CPU ms at GOMAXPROCS=1 (least of 3, two
// rounds, loaded 2-core AMD EPYC family 25 model 17, 2026-12-02): default
// build 247/300 at M = 600, 351/386 at 1000, 421/460 at 1250, 523/541 and
// 551/543 at 1500, 728/720 at 2000, 1122/799 at 2500 (ratio 3);
// GOEXPERIMENT=simd with AVX-512 104/109 at 600, 114/115 at 900, 136/140
// and 124/107 at 1000, 218/139 and 167/159 at 1250, 211/165 and 212/181 at
// 1500, 259/222 at 2000 (ratio 2). Before, on a 2-core Intel Xeon virtual
// machine (family 6 model 207, default build, 2026-11-24): 187 against
// 222 ms at M = 600, 218 against 241 at 750, 286 against 281 at 1000, 395
// against 348 at 1500.
var svdQRRatio = bidiagQRRatio()

// factorBidiag is the bidiagonal route of Factorize (s.m, s.n, s.kind and
// the storage of s are set up; min(m, n) ≥ 1). With B = A or Aᵀ (M×N,
// M ≥ N) and X = B, or X = R from B = Q·R when M ≥ svdQRRatio·N:
//
//  1. X is copied (and checked for NaN and ±Inf) into s.w, scaled by a power
//     of two when its largest entry is beyond 2^±500, and reduced to upper
//     bidiagonal form X = Q_X·B_X·Pᵀ (bidiagonalize).
//  2. For values only, bdsqr computes the singular values of B_X (to high
//     relative accuracy for B_X itself; the reduction is what limits them
//     to normwise accuracy). With vectors, bdsdc computes B_X = U_X·Σ·V_Xᵀ.
//  3. V_B = P·V_X (applyRowReflectors) and U_B = Q_X·[U_X; 0] (applyBidiagQ,
//     Q_X·[U_X 0; 0 I] for the full U_B), then U_B = Q·U_B when there was a
//     QR (its applyQ, or mulQ for the full U_B).
func (s *SVD) factorBidiag(a *Dense) error {
	wide, bigM, bigN := s.shapeOfB()
	full := s.kind == SVDFull
	withQR := float64(bigM) >= svdQRRatio*float64(bigN)

	// 1. X into s.w, and its largest |entry|.
	var xm int // rows of X
	var amax float64
	q := &s.qr
	if withQR {
		q.noChunks = full
		q.reset(bigN, bigM) // q.y is Bᵀ (see factorJacobi)
		if !q.factorFrom(*a, !wide) {
			return checkFinite(*a)
		}
		xm = bigN
		s.w = resized(s.w, bigN, bigN)
		s.w.Zero()
		for i := 0; i < bigN; i++ {
			row := q.r.Data[i*q.r.Stride+i : i*q.r.Stride+bigN]
			copy(s.w.Data[i*bigN+i:(i+1)*bigN], row)
		}
		amax = maxUpper(s.w)
		if math.IsInf(amax, 0) || math.IsNaN(amax) {
			// A column norm overflowed: bidiagonalize a scaled copy of B
			// instead (rare, so it is allocated).
			withQR = false
		}
	}
	if !withQR {
		xm = bigM
		s.w = resized(s.w, bigM, bigN)
		var finite bool
		amax, finite = copyScan(s.w, *a, wide)
		if !finite {
			return checkFinite(*a)
		}
	}
	x := s.w
	sc := 0
	if amax == 0 {
		// B = 0: σ = 0, and any orthonormal bases do.
		s.setZero()
		return nil
	}
	if amax > 0x1p500 || amax < 0x1p-500 {
		sc = -exponentOf(amax)
		for i := 0; i < xm; i++ {
			scaleExp(x.Data[i*x.Stride:i*x.Stride+bigN], sc)
		}
	}
	s.d = slices.Grow(s.d[:0], bigN)[:bigN]
	s.e = slices.Grow(s.e[:0], bigN)[:bigN-1]
	s.tauq = slices.Grow(s.tauq[:0], bigN)[:bigN]
	s.taup = slices.Grow(s.taup[:0], bigN)[:bigN-1]
	bidiagonalize(x, s.d, s.e, s.tauq, s.taup)

	// 2. The bidiagonal SVD.
	if !s.wantVectors() {
		if err := bdsqr(s.d, s.e, Dense{}, Dense{}); err != nil {
			return err
		}
		copy(s.s, s.d)
		scaleExp(s.s, -sc)
		return nil
	}
	ub, vb := s.factorsOfB()
	ux := ub.view(0, bigN, 0, bigN)
	if err := bdsdc(s.d, s.e, ux, vb); err != nil {
		return err
	}
	copy(s.s, s.d)
	scaleExp(s.s, -sc)

	// 3. Back to B's bases.
	applyRowReflectors(x, s.taup, vb)
	if withQR {
		// U_R = Q_X·U_X (N×N), then U_B = Q·[U_R; 0] or Q·[U_R 0; 0 I].
		applyBidiagQ(x, s.tauq, ux)
		if full {
			clearBelow(ub, bigN)
		}
		q.mulQInto(ub)
		return nil
	}
	clearBelow(ub, bigN)
	applyBidiagQ(x, s.tauq, ub)
	return nil
}

// clearBelow sets a (r×c, r ≥ n, c ≥ n) to [X 0; 0 I] with X its top-left
// n×n block: rows n… of the first n columns become zero, and the columns
// from n on those of the identity.
func clearBelow(a Dense, n int) {
	for i := 0; i < a.Rows; i++ {
		row := a.Data[i*a.Stride : i*a.Stride+a.Cols]
		if i >= n {
			clear(row)
			if i < a.Cols {
				row[i] = 1
			}
		} else {
			clear(row[n:])
		}
	}
}
