package linalg

import "math"

// Householder reflectors H = I − τ·v·vᵀ with v[0] = 1: their generation,
// used by every reduction in linalg (QR, the tridiagonal and the bidiagonal
// reductions), and their application in compact WY form.

// householderNB is the number of reflectors applied at once by
// applyReflectors: the inner dimension of its second Gemm. Larger blocks
// make that Gemm faster but add work: the triangle of explicit zeros in V
// and the product with T cost about 2·householderNB·k·r more flops per
// application. Each block reads and writes all the rows of z it touches,
// so fewer blocks also mean less memory traffic, which is what bounds the
// SIMD kernels' rank-64 updates of a large z: with one of them and at
// least householderWideRows rows, householderWideNB reflectors are applied
// at once instead (householderBlock). The block sizes depend only on the
// shape and the kernel, never on the number of goroutines. Variables only
// so that TestCalibrateReduction can sweep them.
//
// householderNB: on a 2-core Intel Xeon virtual machine (family 6 model
// 207, default build, 2026-11-24), applying the n reflectors of a
// bidiagonal reduction to n vectors took 178, 220, 197, 254 and 246 ms at
// n = 1000 for 64, 96, 128, 192 and 256, and 1278 against 1343 ms (128) at
// n = 2000; on the 2-core AMD EPYC (Zen 5 class, 2026-11-27), applying
// the reflectors of a tridiagonal reduction at n = 1000 took 125–135 ms
// with 64 and 146 with 128 (default build), 19–25 and 22–26 ms (SIMD
// build, where square SVD n = 1000 ran 1–7% slower with 128).
// householderWideNB, the SIMD build on that AMD EPYC: at n = 4000,
// 1.42–1.59 s with 64, 1.08–1.09 with 128, 1.03 with 192 and 1.04–1.05
// with 256; at n = 2000, 178–216, 156, 154–159 and 168 ms; on a 16-core
// Intel Xeon (model 207), n = 4000, 0.66–0.92 s with 64, 0.58–0.60 with
// 128, 0.63–0.65 with 256.
var (
	householderNB       = 64
	householderWideNB   = 128
	householderWideRows = 1536
)

// householderBlock returns the number of reflectors applyReflectors applies
// at once to a z of the given number of rows.
func householderBlock(rows int) int {
	if kern.name != scalarKernel.name && rows >= householderWideRows {
		return householderWideNB
	}
	return householderNB
}

// Thresholds of householder, as in LAPACK's dlarfg: a β below hhSafe (the
// smallest normal number over ε) would lose accuracy in τ and v, so x is
// scaled up by hhScale, a power of two, first.
const (
	hhSafe  = 0x1p-969 // 2⁻¹⁰²² / 2⁻⁵³
	hhScale = 0x1p969  // 1/hhSafe, exact
	hhBig   = 0x1p1020 // above it, x[0] − β may overflow
)

// householder generates the elementary reflector of LAPACK's dlarfg: for the
// vector x (length m ≥ 1) it returns β and τ such that H = I − τ·v·vᵀ, with
// v[0] = 1, is orthogonal and H·x = (β, 0, …, 0). On return x[0] holds β and
// x[1:] holds v[1:].
//
// If x[1:] is zero, τ = 0 and H = I (β = x[0], whatever its sign).
// Otherwise β = −sign(x[0])·‖x‖, so that v = x/(x[0] − β) is formed without
// cancellation, and τ = (β − x[0])/β ∈ [1, 2]. The norm is overflow-safe
// (nrm2), and when |β| < hhSafe, x is first scaled up by hhScale (exactly,
// at most a few times: 2⁻¹⁰⁷⁴·hhScale > hhSafe/2), so that 1/(x[0] − β)
// cannot overflow and v and τ keep full precision; β is scaled back at the
// end. Nor does anything overflow when ‖x‖ is near the largest float64:
// τ is formed as 1 − x[0]/β and, for |β| ≥ hhBig, x[0] − β as
// x[0]/8 − β/8. The cost is about 3m flops.
func householder(x []float64) (beta, tau float64) {
	alpha := x[0]
	tail := x[1:]
	xnorm := nrm2(tail)
	if xnorm == 0 {
		return alpha, 0
	}
	beta = -math.Copysign(math.Hypot(alpha, xnorm), alpha)
	knt := 0
	for math.Abs(beta) < hhSafe && knt < 4 {
		knt++
		for i := range tail {
			tail[i] *= hhScale
		}
		alpha *= hhScale
		xnorm = nrm2(tail)
		beta = -math.Copysign(math.Hypot(alpha, xnorm), alpha)
	}
	tau = 1 - alpha/beta // (β − x[0])/β, without forming β − x[0]
	if math.Abs(beta) < hhBig {
		f := 1 / (alpha - beta)
		for i := range tail {
			tail[i] *= f
		}
	} else {
		// |x[0] − β| ≤ 2‖x‖ could overflow: divide by 8 first (exactly).
		f := 1 / (alpha/8 - beta/8)
		for i := range tail {
			tail[i] = tail[i] / 8 * f
		}
	}
	for ; knt > 0; knt-- {
		beta *= hhSafe
	}
	x[0] = beta
	return beta, tau
}

// blockReflectorT forms the k×k upper triangular factor T of the compact WY
// representation H₀·H₁·…·H_{k−1} = I − Vᵀ·T·V (forward order), where the
// reflectors are the rows of vt (k×m: row p is vₚ, with its zeros and unit
// entry explicit) and tau their scalars (LAPACK's dlarft). With S = V·Vᵀ,
// T is built column by column: T[p][p] = τ_p and
// T[0:p][p] = −τ_p·T[0:p][0:p]·S[0:p][p]. S is one Gemm (2k²m flops, in
// parallel at Gemm speed), the recurrence k³/3 flops.
func blockReflectorT(vt Dense, tau []float64, t Dense) {
	k := vt.Rows
	sd := Dense{Rows: k, Cols: k, Stride: k, Data: make([]float64, k*k)}
	gemm(NoTrans, Trans, 1, vt, vt, 0, sd)
	for p := 0; p < k; p++ {
		// T[0:p][p] = −τ_p · T[0:p][0:p] · S[0:p][p], T upper triangular,
		// row by row (row q of T starts at column q).
		for q := 0; q < p; q++ {
			var sum float64
			for l := q; l < p; l++ {
				sum += t.Data[q*t.Stride+l] * sd.Data[l*k+p]
			}
			t.Data[q*t.Stride+p] = -tau[p] * sum
		}
		t.Data[p*t.Stride+p] = tau[p]
		for q := p + 1; q < k; q++ {
			t.Data[q*t.Stride+p] = 0
		}
	}
}

// applyBlockReflector overwrites the m×n matrix Z with (I − Vᵀ·T·V)·Z, where
// vt is k×m (reflectors in rows) and t the k×k upper triangular factor from
// blockReflectorT; work must hold 2·k·n values. Two products with Z make up
// the cost, 4kmn flops, both in Gemm: W = V·Z, W ← T·W, Z ← Z − Vᵀ·W.
//
// W and T·W are formed transposed, as Wᵀ = Zᵀ·Vᵀ and Wᵀ·Tᵀ: each entry is
// the same sum of the same products in the same order, so the result is
// unchanged to the bit, but Gemm then sees Z as its n×m matrix A, packed
// block row by block row inside the parallel pieces, and the k×m V as its
// small B, instead of packing all of Z as B for only k rows of C. On a
// 2-core AMD EPYC (Zen 5 class, default build, k = 64, m = n = 1000) the
// first product ran at 13.3 GFLOP/s instead of 9.9.
func applyBlockReflector(vt, t, z Dense, work []float64) {
	k, n := vt.Rows, z.Cols
	wt := Dense{Rows: n, Cols: k, Stride: k, Data: work[:k*n]}
	twt := Dense{Rows: n, Cols: k, Stride: k, Data: work[k*n : 2*k*n]}
	gemm(Trans, Trans, 1, z, vt, 0, wt)
	gemm(NoTrans, Trans, 1, wt, t, 0, twt)
	gemm(Trans, Trans, -1, vt, twt, 1, z)
}

// applyReflectors overwrites the r×k matrix z with H₀·H₁·…·H_{h−1}·z, where
// H_j = I − tau[j]·v_j·v_jᵀ acts on rows off+j … r−1: v_j is 1 at row
// off+j and zero above, and load(j, dst) writes its entries below the 1
// (r − off − j − 1 of them) into dst.
//
// The reflectors are applied householderBlock(r − off) at a time in
// compact WY form, I − Vᵀ·T·V, last block first (H·z = B₀·(B₁·(…·z))),
// each block costing two Gemm calls on the rows it touches; in all about
// 4·h·k·(r − off) − 2h²k flops, at Gemm speed.
func applyReflectors(h, off int, tau []float64, load func(j int, dst []float64), z Dense) {
	r, k := z.Rows, z.Cols
	if h <= 0 || k == 0 {
		return
	}
	nb := min(householderBlock(r-off), h)
	vbuf := make([]float64, nb*(r-off))
	tbuf := make([]float64, nb*nb)
	work := make([]float64, 2*nb*k)
	last := (h - 1) / nb * nb
	for j0 := last; j0 >= 0; j0 -= nb {
		b := min(nb, h-j0)
		m := r - off - j0 // rows off+j0 … r−1 of z
		// V: b×m, row p = v of H_{j0+p} over those rows: zeros, 1, tail.
		vt := Dense{Rows: b, Cols: m, Stride: m, Data: vbuf[:b*m]}
		for p := 0; p < b; p++ {
			row := vt.Data[p*m : (p+1)*m]
			clear(row[:p])
			row[p] = 1
			load(j0+p, row[p+1:])
		}
		t := Dense{Rows: b, Cols: b, Stride: b, Data: tbuf[:b*b]}
		blockReflectorT(vt, tau[j0:j0+b], t)
		applyBlockReflector(vt, t, z.view(off+j0, r, 0, k), work)
	}
}

// applyRowReflectors overwrites the n×k matrix z with H₀·H₁·…·H_{n−2}·z,
// the reflectors stored row-wise in a as tridiagonalize and bidiagonalize
// leave them: H_j = I − tau[j]·v·vᵀ acts on rows j+1 … n−1, v is 1 at row
// j+1 and its entries below are a[j][j+2:n]. This is tridiagonalize's Q
// (with z the eigenvectors of T, Q·z are those of A) and bidiagonalize's
// right factor P (V_A = P·V_B). Through applyReflectors, about 2n²k flops.
func applyRowReflectors(a Dense, tau []float64, z Dense) {
	n := z.Rows
	applyReflectors(n-1, 1, tau, func(j int, dst []float64) {
		copy(dst, a.Data[j*a.Stride+j+2:j*a.Stride+n])
	}, z)
}
