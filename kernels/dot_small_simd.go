//go:build goexperiment.simd && amd64

package kernels

import (
	"simd/archsimd"

	"rkhs/internal/simdapi"
	"rkhs/linalg"
)

// dotSmall with AVX-512 (GOEXPERIMENT=simd on amd64): tiles of 4 rows of X
// by 16 rows of Z, eight Float64x8 accumulators, as linalg's AVX-512 GEMM
// micro-kernel holds them, but over Z transposed once (zt, from
// transposeForDot) instead of packed for every product. Each entry is the
// chain of fused multiply-adds over l in increasing order starting from
// 0, the same in every tile (an edge tile repeats the last row and
// computes its missing columns on zeros), so a block of rows still gets the
// entries of the whole product bit for bit. They differ from the scalar
// dotSmall's in the last bits (one rounding per step instead of two).
// CPUs without AVX-512 (hasAVX512, cpu_simd.go) use the scalar dotSmall.

// dotTileCols is the number of columns of a vector tile.
const dotTileCols = 16

// transposeForDot returns the rows of z as columns, zt[l·mp + j] = z[j][l]
// with mp = m rounded up to a multiple of 16 and zeros beyond m, for
// dotSmallTo; nil without AVX-512 or for more than maxSmallDot columns.
func transposeForDot(z *linalg.Dense) []float64 {
	m, d := z.Rows, z.Cols
	if !hasAVX512 || d > maxSmallDot || m == 0 {
		return nil
	}
	mp := roundUp(m, dotTileCols)
	zt := make([]float64, d*mp)
	for j := range m {
		for l, v := range z.Row(j) {
			zt[l*mp+j] = v
		}
	}
	return zt
}

func roundUp(x, k int) int { return (x + k - 1) / k * k }

// dotSmallTo sets dst = X·Zᵀ for d ≤ maxSmallDot: with the vector tiles
// when zt is transposeForDot(z), with dotSmall when it is nil.
func dotSmallTo(dst, x, z *linalg.Dense, zt []float64) {
	if zt == nil {
		dotSmall(dst, x, z)
		return
	}
	n, m, d := x.Rows, z.Rows, x.Cols
	mp := len(zt) / d
	full := m / dotTileCols // column tiles that lie inside dst
	// a holds four rows of X interleaved, a[4l+r] = x_r[l], with one spare
	// element so that every two-element load stays inside. When fewer than
	// four rows are left, the last one is repeated: its tiles then compute
	// the same values twice and store them into the same row.
	var a [4*maxSmallDot + 1]float64
	var tmp [4][dotTileCols]float64
	for i := 0; i < n; i += 4 {
		var out [4][]float64
		for r := range 4 {
			row := min(i+r, n-1)
			for l, v := range x.Row(row) {
				a[4*l+r] = v
			}
			out[r] = dst.Row(row)[:full*dotTileCols]
		}
		dotTiles(d, a[:4*d+1], zt, mp, full, &out)
		if j := full * dotTileCols; j < m {
			t := [4][]float64{tmp[0][:], tmp[1][:], tmp[2][:], tmp[3][:]}
			dotTiles(d, a[:4*d+1], zt[j:], mp, 1, &t)
			for r := range min(4, n-i) {
				copy(dst.Row(i + r)[j:m], tmp[r][:m-j])
			}
		}
	}
}

// dotTiles stores into out[r][16t : 16t+16], for tiles t < tiles, the sums
// Σₗ a[4l+r]·zt[l·mp + 16t + c] for c < 16, as fused multiply-add chains
// over l = 0 … d−1. It takes no floating-point arguments (see linalg's
// loopAVX512: a float64 live across the loop can be spilled with a legacy
// SSE move) and clears the upper halves of the vector registers before it
// returns.
func dotTiles(d int, a, zt []float64, mp, tiles int, out *[4][]float64) {
	o0, o1, o2, o3 := out[0], out[1], out[2], out[3]
	for t := range tiles {
		var c00, c01, c10, c11, c20, c21, c30, c31 archsimd.Float64x8
		zl, al := zt[t*dotTileCols:], a[:4*d+1]
		// Invariant: al and zl start at step l; len(al) = 4(d − l) + 1.
		for len(al) > 4 && len(zl) >= 16 {
			b0 := simdapi.Load8(zl)
			b1 := simdapi.Load8(zl[8:])
			a0 := archsimd.BroadcastFloat64x8(al[0])
			c00 = a0.MulAdd(b0, c00)
			c01 = a0.MulAdd(b1, c01)
			a1 := archsimd.BroadcastFloat64x8(al[1])
			c10 = a1.MulAdd(b0, c10)
			c11 = a1.MulAdd(b1, c11)
			a2 := archsimd.BroadcastFloat64x8(al[2])
			c20 = a2.MulAdd(b0, c20)
			c21 = a2.MulAdd(b1, c21)
			a3 := archsimd.BroadcastFloat64x8(al[3])
			c30 = a3.MulAdd(b0, c30)
			c31 = a3.MulAdd(b1, c31)
			al = al[4:]
			zl = zl[min(mp, len(zl)):]
		}
		j := t * dotTileCols
		simdapi.Store8(c00, o0[j:])
		simdapi.Store8(c01, o0[j+8:])
		simdapi.Store8(c10, o1[j:])
		simdapi.Store8(c11, o1[j+8:])
		simdapi.Store8(c20, o2[j:])
		simdapi.Store8(c21, o2[j+8:])
		simdapi.Store8(c30, o3[j:])
		simdapi.Store8(c31, o3[j+8:])
	}
	archsimd.ClearAVXUpperBits()
}
