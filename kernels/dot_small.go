package kernels

import (
	"rkhs/internal/avx"
	"rkhs/linalg"
)

// maxSmallDot is the largest number of columns d for which kernel blocks
// take their inner products from dotSmall (dotSmallTo) instead of
// linalg.Gemm. For a 32×4000 block on one core (BenchmarkDotSmall),
// dotSmall ran at 6.5 GFLOP/s and Gemm at 4.9 for d = 10, but Gemm was
// ahead at d = 32 (8.5 against 7.0): with d this small, Gemm's packing and
// the stores of its micro-tiles after only d steps of k cost more than the
// products. In a GOEXPERIMENT=simd build the AVX-512 tiles of dotSmallTo
// ran at 29 GFLOP/s for d = 10 and 30 for d = 16, against 5.6 and 6.9 for
// Gemm; they would beat Gemm beyond 16 too (Gemm: 14 at d = 32), a limit
// not raised for that build.
const maxSmallDot = 16

// dotSmall sets dst[i][j] = Σₗ x[i][l]·z[j][l], the product X·Zᵀ (dst
// n×m, x n×d, z m×d), for small d, without packing and on the calling
// goroutine: 2nmd flops, no allocation.
//
// Tiles of 4 rows of X by 2 rows of Z keep eight sums in registers; the
// loop over l, inside, reads 6 values for 8 multiply-adds and is unrolled
// twice. Every entry, in a tile or in the edges, is the sum over l in
// increasing order starting from 0, each product rounded before it is
// added (the conversions float64(a*b) forbid fused multiply-adds, which
// the compiler would otherwise use in some statements and not others at
// GOAMD64=v3): its value does not depend on where the tile boundaries
// fall, and a block of rows gets the entries of the whole product bit for
// bit.
func dotSmall(dst, x, z *linalg.Dense) {
	n, m, d := x.Rows, z.Rows, x.Cols
	i := 0
	for ; i+4 <= n; i += 4 {
		avx.ClearUpper() // see package avx: a group of rows is microseconds of SSE code
		x0 := x.Data[i*x.Stride:][:d]
		x1 := x.Data[(i+1)*x.Stride:][:d]
		x2 := x.Data[(i+2)*x.Stride:][:d]
		x3 := x.Data[(i+3)*x.Stride:][:d]
		r0 := dst.Data[i*dst.Stride:][:m]
		r1 := dst.Data[(i+1)*dst.Stride:][:m]
		r2 := dst.Data[(i+2)*dst.Stride:][:m]
		r3 := dst.Data[(i+3)*dst.Stride:][:m]
		j := 0
		for ; j+2 <= m; j += 2 {
			z0 := z.Data[j*z.Stride:][:d]
			z1 := z.Data[(j+1)*z.Stride:][:d]
			var c00, c01, c10, c11, c20, c21, c30, c31 float64
			l := 0
			// Invariant: cᵢₖ = Σ over l' < l of x_i[l']·z_k[l'], in order.
			for ; l+2 <= d; l += 2 {
				a0, a1, a2, a3 := x0[l], x1[l], x2[l], x3[l]
				b0, b1 := z0[l], z1[l]
				c00 += float64(a0 * b0)
				c01 += float64(a0 * b1)
				c10 += float64(a1 * b0)
				c11 += float64(a1 * b1)
				c20 += float64(a2 * b0)
				c21 += float64(a2 * b1)
				c30 += float64(a3 * b0)
				c31 += float64(a3 * b1)
				a0, a1, a2, a3 = x0[l+1], x1[l+1], x2[l+1], x3[l+1]
				b0, b1 = z0[l+1], z1[l+1]
				c00 += float64(a0 * b0)
				c01 += float64(a0 * b1)
				c10 += float64(a1 * b0)
				c11 += float64(a1 * b1)
				c20 += float64(a2 * b0)
				c21 += float64(a2 * b1)
				c30 += float64(a3 * b0)
				c31 += float64(a3 * b1)
			}
			if l < d {
				a0, a1, a2, a3 := x0[l], x1[l], x2[l], x3[l]
				b0, b1 := z0[l], z1[l]
				c00 += float64(a0 * b0)
				c01 += float64(a0 * b1)
				c10 += float64(a1 * b0)
				c11 += float64(a1 * b1)
				c20 += float64(a2 * b0)
				c21 += float64(a2 * b1)
				c30 += float64(a3 * b0)
				c31 += float64(a3 * b1)
			}
			r0[j], r0[j+1] = c00, c01
			r1[j], r1[j+1] = c10, c11
			r2[j], r2[j+1] = c20, c21
			r3[j], r3[j+1] = c30, c31
		}
		if j < m {
			zj := z.Data[j*z.Stride:][:d]
			r0[j], r1[j], r2[j], r3[j] = dotInOrder(x0, zj), dotInOrder(x1, zj), dotInOrder(x2, zj), dotInOrder(x3, zj)
		}
	}
	for ; i < n; i++ {
		xi := x.Data[i*x.Stride:][:d]
		ri := dst.Data[i*dst.Stride:][:m]
		for j := range ri {
			ri[j] = dotInOrder(xi, z.Data[j*z.Stride:][:d])
		}
	}
}

// dotInOrder returns Σₗ x[l]·z[l], summed in increasing order of l from 0:
// the edges of dotSmall.
func dotInOrder(x, z []float64) float64 {
	z = z[:len(x)]
	var s float64
	for l, v := range x {
		s += float64(v * z[l])
	}
	return s
}
