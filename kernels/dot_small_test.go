package kernels

import (
	"fmt"
	"math"
	"runtime"
	"testing"

	"rkhs/internal/testmat"
	"rkhs/linalg"
)

// TestDotSmall compares dotSmall, and the product of this build
// (dotSmallTo over transposeForDot's Z: the AVX-512 tiles in a
// GOEXPERIMENT=simd build on such a CPU, dotSmall otherwise), with
// testmat's naive X·Zᵀ for shapes around the 4×2 and 4×16 tiles and the
// unrolling: within the rounding of a d-term sum, padding untouched; and
// every block of rows [i0, n) equals the same rows of the whole product
// bit for bit, wherever the tiles fall.
func TestDotSmall(t *testing.T) {
	rng := testmat.NewRand(9)
	for _, n := range []int{0, 1, 3, 4, 5, 8, 9} {
		for _, m := range []int{0, 1, 2, 3, 15, 16, 17, 40} {
			for _, d := range []int{1, 2, 3, 10, 16} {
				x, z := testmat.Random(rng, n, d, 1), testmat.Random(rng, m, d, 2)
				zt := transposeForDot(dense(z))
				for _, f := range []struct {
					name string
					dot  func(dst, x *linalg.Dense)
				}{
					{"dotSmall", func(dst, x *linalg.Dense) { dotSmall(dst, x, dense(z)) }},
					{"dotSmallTo", func(dst, x *linalg.Dense) { dotSmallTo(dst, x, dense(z), zt) }},
				} {
					checkDot(t, fmt.Sprintf("%s n=%d m=%d d=%d", f.name, n, m, d), f.dot, x, z)
				}
			}
		}
	}
}

// checkDot is TestDotSmall for one product function and shape.
func checkDot(t *testing.T, name string, dot func(dst, x *linalg.Dense), x, z testmat.Matrix) {
	t.Helper()
	n, m, d := x.Rows, z.Rows, x.Cols
	dst := testmat.New(n, m, 3)
	dot(dense(dst), dense(x))
	want := testmat.Mul(x, testmat.T(z))
	scale := testmat.Mul(testmat.Abs(x), testmat.Abs(testmat.T(z)))
	for i := range n {
		for j := range m {
			if g, w := dst.At(i, j), want.At(i, j); !(math.Abs(g-w) <= float64(d)*0x1p-52*scale.At(i, j)) {
				t.Fatalf("%s: [%d][%d] = %v, want %v", name, i, j, g, w)
			}
		}
	}
	if !testmat.PaddingIntact(dst) {
		t.Fatalf("%s: padding of dst written", name)
	}
	for i0 := 1; i0 < n; i0++ {
		sub := linalg.NewDense(n-i0, m, nil)
		dot(sub, dense(x).Slice(i0, n, 0, d))
		for i := i0; i < n; i++ {
			for j := range m {
				if math.Float64bits(sub.At(i-i0, j)) != math.Float64bits(dst.At(i, j)) {
					t.Fatalf("%s: rows from %d: [%d][%d] = %v, whole product %v", name, i0, i, j, sub.At(i-i0, j), dst.At(i, j))
				}
			}
		}
	}
}

// BenchmarkDotSmall compares dotSmall with linalg.Gemm on one core for the
// inner products of one 32×4000 block of kernel rows (maxSmallDot comes
// from it).
func BenchmarkDotSmall(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const n, m = 32, 4000
	for _, d := range []int{10, 16, 32} {
		rng := testmat.NewRand(1)
		x, z := dense(testmat.Random(rng, n, d, 0)), dense(testmat.Random(rng, m, d, 0))
		dst, zt := linalg.NewDense(n, m, nil), transposeForDot(z)
		for _, f := range []struct {
			name string
			mul  func()
		}{
			{"gemm", func() { linalg.Gemm(linalg.NoTrans, linalg.Trans, 1, x, z, 0, dst) }},
			{"dotSmall", func() { dotSmall(dst, x, z) }},
			{"dotSmallTo", func() { dotSmallTo(dst, x, z, zt) }},
		} {
			b.Run(fmt.Sprintf("%s/d=%d/n=%d", f.name, d, n), func(b *testing.B) {
				for b.Loop() {
					f.mul()
				}
				b.ReportMetric(2*n*m*float64(d)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
