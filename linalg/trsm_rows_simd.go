//go:build goexperiment.simd && amd64

package linalg

import (
	"simd/archsimd"

	"rkhs/internal/simdapi"
)

// trsmRowsMaxK bounds the order of L that trsmRows8 takes on: its
// transposed block of rows, 8·k values, lives on the stack.
const trsmRowsMaxK = 256

// trsmRows8 does the substitution of trsmRightLowerTrans (the panel solve of
// the blocked Cholesky factorization) for the rows [lo, r) of x, eight rows
// at a time, one in each lane of an AVX-512 vector, and returns r: the first
// row it left to the caller (fewer than eight remain from r on, or the CPU
// or the order of L does not suit it, r = lo).
//
// Each lane does the operations of trsmRowLowerTrans on its row in the same
// order: the four partial sums of dot, each product rounded before it is
// added (no fused multiply-add), the same additions of the partial sums and
// the same division. The rows come out bit-identical to the scalar
// substitution, so the factor does not depend on the build. Eight rows
// share each value of L that is read, where the scalar loop reads L once per
// row: the panel solve was 40% of a one-core Cholesky factorization at
// n = 4096 with the AVX-512 GEMM kernel.
func trsmRows8(l, x Dense, lo, hi int) int {
	k := x.Cols
	if !hasAVX512 || k > trsmRowsMaxK || hi-lo < 8 {
		return lo
	}
	var buf [8 * trsmRowsMaxK]float64
	yt := buf[:8*k]
	r := lo
	for ; r+8 <= hi; r += 8 {
		// yt[i·8 + q] = x[r+q, i]: the eight rows side by side.
		for q := range 8 {
			row := x.Data[(r+q)*x.Stride:][:k]
			for i, v := range row {
				yt[i*8+q] = v
			}
		}
		trsmLanes8(l, yt, k)
		for q := range 8 {
			row := x.Data[(r+q)*x.Stride:][:k]
			for i := range row {
				row[i] = yt[i*8+q]
			}
		}
	}
	return r
}

// trsmLanes8 is the substitution of trsmRowLowerTrans on the eight rows
// held side by side in yt (k values of each).
//
//go:noinline
func trsmLanes8(l Dense, yt []float64, k int) {
	yt = yt[:8*k]
	for j := range k {
		lj := l.Data[j*l.Stride : j*l.Stride+j+1]
		// dot(y[:j], lj) lane by lane: s0 … s3 take the products of
		// indices 0, 1, 2, 3 mod 4 up to the last multiple of 4, s0 the
		// rest.
		var s0, s1, s2, s3 archsimd.Float64x8
		i := 0
		for ; i+4 <= j; i += 4 {
			s0 = s0.Add(simdapi.Load8(yt[i*8:]).Mul(archsimd.BroadcastFloat64x8(lj[i])))
			s1 = s1.Add(simdapi.Load8(yt[i*8+8:]).Mul(archsimd.BroadcastFloat64x8(lj[i+1])))
			s2 = s2.Add(simdapi.Load8(yt[i*8+16:]).Mul(archsimd.BroadcastFloat64x8(lj[i+2])))
			s3 = s3.Add(simdapi.Load8(yt[i*8+24:]).Mul(archsimd.BroadcastFloat64x8(lj[i+3])))
		}
		for ; i < j; i++ {
			s0 = s0.Add(simdapi.Load8(yt[i*8:]).Mul(archsimd.BroadcastFloat64x8(lj[i])))
		}
		s := s0.Add(s1).Add(s2.Add(s3))
		yj := simdapi.Load8(yt[j*8:])
		simdapi.Store8(yj.Sub(s).Div(archsimd.BroadcastFloat64x8(lj[j])), yt[j*8:])
	}
	archsimd.ClearAVXUpperBits()
}
