//go:build goexperiment.simd && amd64

package linalg

import (
	"simd/archsimd"

	"rkhs/internal/simdapi"
)

// substCols8 computes the leading columns of row i of X in trsmUnblocked,
// 32 and then 8 at a time, one column in each lane of an AVX-512 vector,
// and returns the first column it left to substCols (fewer than eight
// remain from there, or the CPU lacks AVX-512 and it is 0).
//
// Each lane does substCols's operations on its column in the same order:
// the product coef[q]·X[jlo+q, c] rounded, then added (no fused
// multiply-add), q increasing, then the division by d. Row i comes out
// bit-identical to the scalar substitution. Four vectors, 32 columns, are
// carried at once so that four independent chains of additions hide their
// latency; the rows already solved are read as contiguous vectors.
func substCols8(coef []float64, b Dense, jlo, i int, d float64) int {
	k := b.Cols
	if !hasAVX512 || k < 8 {
		return 0
	}
	substLanes8(coef, b.Data, b.Stride, jlo, i, k, d)
	archsimd.ClearAVXUpperBits()
	return k &^ 7
}

// substLanes8 is substCols8's loop over the columns [0, k &^ 7).
//
//go:noinline
func substLanes8(coef, data []float64, stride, jlo, i, k int, d float64) {
	xi := data[i*stride : i*stride+k]
	vd := archsimd.BroadcastFloat64x8(d)
	c := 0
	for ; c+32 <= k; c += 32 {
		x0 := simdapi.Load8(xi[c:])
		x1 := simdapi.Load8(xi[c+8:])
		x2 := simdapi.Load8(xi[c+16:])
		x3 := simdapi.Load8(xi[c+24:])
		for q, w := range coef {
			r := data[(jlo+q)*stride+c:]
			r = r[:32]
			vw := archsimd.BroadcastFloat64x8(w)
			x0 = x0.Add(vw.Mul(simdapi.Load8(r)))
			x1 = x1.Add(vw.Mul(simdapi.Load8(r[8:])))
			x2 = x2.Add(vw.Mul(simdapi.Load8(r[16:])))
			x3 = x3.Add(vw.Mul(simdapi.Load8(r[24:])))
		}
		simdapi.Store8(x0.Div(vd), xi[c:])
		simdapi.Store8(x1.Div(vd), xi[c+8:])
		simdapi.Store8(x2.Div(vd), xi[c+16:])
		simdapi.Store8(x3.Div(vd), xi[c+24:])
	}
	for ; c+8 <= k; c += 8 {
		x0 := simdapi.Load8(xi[c:])
		for q, w := range coef {
			r := data[(jlo+q)*stride+c:]
			x0 = x0.Add(archsimd.BroadcastFloat64x8(w).Mul(simdapi.Load8(r[:8])))
		}
		simdapi.Store8(x0.Div(vd), xi[c:])
	}
}
