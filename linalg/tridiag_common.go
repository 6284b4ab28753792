package linalg

import (
	"fmt"
	"math"
)

// Helpers shared by the symmetric tridiagonal eigensolvers: steqr
// (tridiag_ql.go), sterf (tridiag_pwk.go) and stedc (tridiag_dc.go,
// tridiag_merge.go, secular.go).

// Constants of IEEE double precision used by the tridiagonal eigensolvers
// (the values of LAPACK's dlamch).
const (
	tridiagEps    = 0x1p-53   // unit roundoff: fl(x∘y) = (x∘y)(1+δ), |δ| ≤ tridiagEps
	tridiagSafmin = 0x1p-1022 // smallest positive normal number; 1/tridiagSafmin is finite
)

// checkTridiag panics, naming op, unless d, e and z describe an n×n
// tridiagonal problem: len(e) = n−1 (0 when n is 0) and z empty or n×n.
func checkTridiag(op string, d, e []float64, z Dense) {
	n := len(d)
	if len(e) != max(n-1, 0) {
		panic(fmt.Sprintf("linalg: %s: %d diagonal entries need %d off-diagonal ones, got %d", op, n, max(n-1, 0), len(e)))
	}
	if z.IsEmpty() {
		return
	}
	z.check(op)
	if z.Rows != n || z.Cols != n {
		panic(fmt.Sprintf("linalg: %s: eigenvector matrix is %d×%d, want %d×%d", op, z.Rows, z.Cols, n, n))
	}
}

// tridiagBlocks is the outer loop of steqr and sterf (LAPACK's dsteqr and
// dsterf). From the top, it splits T into unreduced blocks where an
// off-diagonal entry is negligible, |e_i| ≤ ε·√|d_i|·√|d_{i+1}| (which it
// sets to zero). A block [lo, hi] whose largest entry lies outside
// [√safmin/ε², √(1/safmin)/3] is scaled by a power of two into that range
// (exactly), so that the iteration neither overflows nor loses precision to
// underflow; then iterate(lo, hi) runs on it, and d[lo:hi+1] is scaled
// back, and e[lo:hi] too if unscaleE. A zero block and a block of order 1
// are skipped. tridiagBlocks stops at the first block for which iterate
// returns false, and then returns false.
func tridiagBlocks(d, e []float64, unscaleE bool, iterate func(lo, hi int) bool) bool {
	n := len(d)
	var (
		ssfmax = math.Sqrt(1/tridiagSafmin) / 3
		ssfmin = math.Sqrt(tridiagSafmin) / (tridiagEps * tridiagEps)
	)
	// Invariant: rows 0…l1−1 of T are finished (the iteration has run on
	// their blocks).
	for l1 := 0; l1 < n; {
		if l1 > 0 {
			e[l1-1] = 0
		}
		// The unreduced block is [l1, m].
		m := l1
		for ; m < n-1; m++ {
			t := math.Abs(e[m])
			if t == 0 {
				break
			}
			if t <= math.Sqrt(math.Abs(d[m]))*math.Sqrt(math.Abs(d[m+1]))*tridiagEps {
				e[m] = 0
				break
			}
		}
		lo, hi := l1, m
		l1 = m + 1
		if hi == lo {
			continue
		}

		anorm := math.Max(maxAbs(d[lo:hi+1]), maxAbs(e[lo:hi]))
		if anorm == 0 {
			continue
		}
		scale := 0
		if anorm > ssfmax {
			scale = exponentOf(ssfmax) - exponentOf(anorm) - 1
		} else if anorm < ssfmin {
			scale = exponentOf(ssfmin) - exponentOf(anorm) + 1
		}
		if scale != 0 {
			scaleExp(d[lo:hi+1], scale)
			scaleExp(e[lo:hi], scale)
		}
		ok := iterate(lo, hi)
		if scale != 0 {
			scaleExp(d[lo:hi+1], -scale)
			if unscaleE {
				scaleExp(e[lo:hi], -scale)
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// maxAbs returns max |x_i| (0 for an empty x).
func maxAbs(x []float64) float64 {
	var m float64
	for _, v := range x {
		m = math.Max(m, math.Abs(v))
	}
	return m
}

// exponentOf returns the binary exponent k of x = f·2^k, f ∈ [½, 1).
func exponentOf(x float64) int {
	_, k := math.Frexp(x)
	return k
}

// scaleExp multiplies every x_i by 2^k, which is exact unless the result is
// subnormal or overflows.
func scaleExp(x []float64, k int) {
	for i, v := range x {
		x[i] = math.Ldexp(v, k)
	}
}

// hypot1 returns √(g² + 1) without overflow.
func hypot1(g float64) float64 {
	if a := math.Abs(g); a > 0x1p+500 {
		return a
	}
	return math.Sqrt(g*g + 1)
}

// tridiag2x2 returns the eigenvalues of the symmetric 2×2 matrix [a b; b c],
// rt1 the larger and rt2 the smaller in absolute value, and the unit
// eigenvector (cs, sn) for rt1 (LAPACK's dlaev2): [cs sn; −sn cs] rotates the
// matrix to diag(rt1, rt2). rt2 is computed from the determinant so that it
// keeps its relative accuracy when it is small.
func tridiag2x2(a, b, c float64) (rt1, rt2, cs, sn float64) {
	sm := a + c
	df := a - c
	adf := math.Abs(df)
	tb := b + b
	ab := math.Abs(tb)
	acmx, acmn := a, c
	if math.Abs(a) <= math.Abs(c) {
		acmx, acmn = c, a
	}
	var rt float64 // √(df² + tb²)
	switch {
	case adf > ab:
		rt = adf * math.Sqrt(1+(ab/adf)*(ab/adf))
	case adf < ab:
		rt = ab * math.Sqrt(1+(adf/ab)*(adf/ab))
	default:
		rt = ab * math.Sqrt2
	}
	var sgn1 float64
	switch {
	case sm < 0:
		rt1 = 0.5 * (sm - rt)
		sgn1 = -1
		rt2 = (acmx/rt1)*acmn - (b/rt1)*b
	case sm > 0:
		rt1 = 0.5 * (sm + rt)
		sgn1 = 1
		rt2 = (acmx/rt1)*acmn - (b/rt1)*b
	default:
		rt1 = 0.5 * rt
		rt2 = -0.5 * rt
		sgn1 = 1
	}
	// The eigenvector, from whichever of its two expressions is stabler.
	var sgn2, cv float64
	if df >= 0 {
		cv = df + rt
		sgn2 = 1
	} else {
		cv = df - rt
		sgn2 = -1
	}
	if math.Abs(cv) > ab {
		ct := -tb / cv
		sn = 1 / math.Sqrt(1+ct*ct)
		cs = ct * sn
	} else if ab == 0 {
		cs, sn = 1, 0
	} else {
		tn := -cv / tb
		cs = 1 / math.Sqrt(1+tn*tn)
		sn = tn * cs
	}
	if sgn1 == sgn2 {
		cs, sn = -sn, cs
	}
	return rt1, rt2, cs, sn
}
