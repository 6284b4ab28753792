//go:build goexperiment.simd && amd64

package linalg

import (
	"simd/archsimd"

	"rkhs/internal/simdapi"
)

// axpyRows is axpyRowsScalar with AVX-512: thirty-two elements of y held
// in four vectors while the rows go by (two a step when they alternate),
// each term one fused multiply-add per eight elements (y + (−c[t])·R_t,
// rounded once), then eight at a time, and the last len(y) mod 8 elements
// by axpyRowsScalar. The result depends only on the inputs, not on the
// number of goroutines, but differs in the last bits from the scalar
// build's. It corrects rows and products by a panel's earlier reflectors
// in the tridiagonal and bidiagonal reductions; on 32 rows of 480 it took
// 0.09 ns a term where the axpy calls took 0.30 (one core of the AMD EPYC
// of 2026-12-02, thread CPU time).
func axpyRows(y []float64, x, z Dense, off int, c []float64) {
	n := len(y)
	if !hasAVX512 || n < 16 || len(c) == 0 {
		axpyRowsScalar(y, x, z, off, c)
		return
	}
	m := n / 8 * 8
	axpyRows8(y[:m], x.Data, z.Data, x.Stride, z.Stride, off, z.Data != nil, c)
	axpyRowsScalar(y[m:], x, z, off+m, c)
}

// axpyRows8 is axpyRows on a length that is a multiple of 8; x and z are
// the panels' data with their strides (z unused unless pair).
//
//go:noinline
func axpyRows8(y, x, z []float64, xs, zs, off int, pair bool, c []float64) {
	n := len(y)
	k := 0
	for ; k+32 <= n; k += 32 {
		y0 := simdapi.Load8(y[k : k+8])
		y1 := simdapi.Load8(y[k+8 : k+16])
		y2 := simdapi.Load8(y[k+16 : k+24])
		y3 := simdapi.Load8(y[k+24 : k+32])
		if !pair {
			o := off + k
			for _, ct := range c {
				r := x[o : o+32 : o+32]
				o += xs
				a := archsimd.BroadcastFloat64x8(-ct)
				y0 = simdapi.Load8(r[0:8]).MulAdd(a, y0)
				y1 = simdapi.Load8(r[8:16]).MulAdd(a, y1)
				y2 = simdapi.Load8(r[16:24]).MulAdd(a, y2)
				y3 = simdapi.Load8(r[24:32]).MulAdd(a, y3)
			}
		} else {
			o, p := off+k, off+k
			for q := 0; q+1 < len(c); q += 2 {
				r := x[o : o+32 : o+32]
				s := z[p : p+32 : p+32]
				o += xs
				p += zs
				a := archsimd.BroadcastFloat64x8(-c[q])
				b := archsimd.BroadcastFloat64x8(-c[q+1])
				y0 = simdapi.Load8(s[0:8]).MulAdd(b, simdapi.Load8(r[0:8]).MulAdd(a, y0))
				y1 = simdapi.Load8(s[8:16]).MulAdd(b, simdapi.Load8(r[8:16]).MulAdd(a, y1))
				y2 = simdapi.Load8(s[16:24]).MulAdd(b, simdapi.Load8(r[16:24]).MulAdd(a, y2))
				y3 = simdapi.Load8(s[24:32]).MulAdd(b, simdapi.Load8(r[24:32]).MulAdd(a, y3))
			}
		}
		simdapi.Store8(y0, y[k:k+8])
		simdapi.Store8(y1, y[k+8:k+16])
		simdapi.Store8(y2, y[k+16:k+24])
		simdapi.Store8(y3, y[k+24:k+32])
	}
	for ; k+8 <= n; k += 8 {
		y0 := simdapi.Load8(y[k : k+8])
		for t, ct := range c {
			d, o := x, t*xs+off+k
			if pair {
				if t%2 == 0 {
					o = t/2*xs + off + k
				} else {
					d, o = z, t/2*zs+off+k
				}
			}
			y0 = simdapi.Load8(d[o:o+8]).MulAdd(archsimd.BroadcastFloat64x8(-ct), y0)
		}
		simdapi.Store8(y0, y[k:k+8])
	}
	archsimd.ClearAVXUpperBits()
}
