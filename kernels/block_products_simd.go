//go:build goexperiment.simd && amd64

package kernels

import (
	"simd/archsimd"

	"rkhs/internal/simdapi"
)

// rowDot and axpy4 with AVX-512 (GOEXPERIMENT=simd on amd64), the scalar
// versions on CPUs without it. The vector loops take no floating-point
// arguments (see dotTiles) and clear the upper halves of the vector
// registers before they return; the scalar tails run after that.

// rowDot returns Σⱼ a[j]·b[j]: sixteen partial sums (j mod 16, as two
// vectors of fused multiply-adds), added as the two vectors and then the
// eight lanes pairwise in a fixed order, then the last len(a) mod 16 terms
// in order.
func rowDot(a, b []float64) float64 {
	if !hasAVX512 {
		return rowDotScalar(a, b)
	}
	b = b[:len(a)]
	n := len(a) / 16 * 16
	var l [8]float64
	rowDot16(a[:n], b[:n], &l)
	s := ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]))
	for j := n; j < len(a); j++ {
		s += a[j] * b[j]
	}
	return s
}

// rowDot16 stores into l the eight lane sums of a·b for len(a) a multiple
// of 16 (two accumulators, added at the end).
func rowDot16(a, b []float64, l *[8]float64) {
	var s0, s1 archsimd.Float64x8
	for len(a) >= 16 && len(b) >= 16 {
		s0 = simdapi.Load8(a).MulAdd(simdapi.Load8(b), s0)
		s1 = simdapi.Load8(a[8:]).MulAdd(simdapi.Load8(b[8:]), s1)
		a, b = a[16:], b[16:]
	}
	simdapi.Store8(s0.Add(s1), l[:])
	archsimd.ClearAVXUpperBits()
}

// axpy4 adds (w0·k0[j] + w1·k1[j]) + (w2·k2[j] + w3·k3[j]) to y[j] for
// every j, each pair as a product and a fused multiply-add in the vector
// body, and as in axpy4Scalar in the tail.
func axpy4(w0, w1, w2, w3 float64, k0, k1, k2, k3, y []float64) {
	if !hasAVX512 {
		axpy4Scalar(w0, w1, w2, w3, k0, k1, k2, k3, y)
		return
	}
	n := len(y) / 8 * 8
	w := [5]float64{w0, w1, w2, w3}
	axpy4x8(&w, k0[:n], k1[:n], k2[:n], k3[:n], y[:n])
	axpy4Scalar(w0, w1, w2, w3, k0[n:len(y)], k1[n:len(y)], k2[n:len(y)], k3[n:len(y)], y[n:])
}

// axpy4x8 is axpy4's vector body for len(y) a multiple of 8; w holds the
// four weights and a spare element for the two-element loads.
func axpy4x8(w *[5]float64, k0, k1, k2, k3, y []float64) {
	v0 := archsimd.BroadcastFloat64x8(w[0])
	v1 := archsimd.BroadcastFloat64x8(w[1])
	v2 := archsimd.BroadcastFloat64x8(w[2])
	v3 := archsimd.BroadcastFloat64x8(w[3])
	for len(y) >= 8 && len(k0) >= 8 && len(k1) >= 8 && len(k2) >= 8 && len(k3) >= 8 {
		t01 := simdapi.Load8(k1).MulAdd(v1, simdapi.Load8(k0).Mul(v0))
		t23 := simdapi.Load8(k3).MulAdd(v3, simdapi.Load8(k2).Mul(v2))
		simdapi.Store8(simdapi.Load8(y).Add(t01.Add(t23)), y)
		k0, k1, k2, k3, y = k0[8:], k1[8:], k2[8:], k3[8:], y[8:]
	}
	archsimd.ClearAVXUpperBits()
}
