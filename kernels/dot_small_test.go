package kernels

import (
	"fmt"
	"math"
	"runtime"
	"testing"

	"rkhs/internal/testmat"
	"rkhs/linalg"
)

// TestDotSmall compares dotSmall with testmat's naive X·Zᵀ for shapes
// around its 4×2 tiles and its unrolling (n, m, d up to 9, 5, 17): within
// the rounding of a d-term sum, padding untouched; and every block of rows
// [i0, n) equals the same rows of the whole product bit for bit, wherever
// the tiles fall.
func TestDotSmall(t *testing.T) {
	rng := testmat.NewRand(9)
	for n := 0; n <= 9; n++ {
		for m := 0; m <= 5; m++ {
			for _, d := range []int{1, 2, 3, 10, 16, 17} {
				x, z := testmat.Random(rng, n, d, 1), testmat.Random(rng, m, d, 2)
				dst := testmat.New(n, m, 3)
				dotSmall(dense(dst), dense(x), dense(z))
				want := testmat.Mul(x, testmat.T(z))
				scale := testmat.Mul(testmat.Abs(x), testmat.Abs(testmat.T(z)))
				for i := range n {
					for j := range m {
						if g, w := dst.At(i, j), want.At(i, j); !(math.Abs(g-w) <= float64(d)*0x1p-52*scale.At(i, j)) {
							t.Fatalf("n=%d m=%d d=%d: [%d][%d] = %v, want %v", n, m, d, i, j, g, w)
						}
					}
				}
				if !testmat.PaddingIntact(dst) {
					t.Fatalf("n=%d m=%d d=%d: padding of dst written", n, m, d)
				}
				for i0 := 1; i0 < n; i0++ {
					sub := linalg.NewDense(n-i0, m, nil)
					dotSmall(sub, dense(x).Slice(i0, n, 0, d), dense(z))
					for i := i0; i < n; i++ {
						for j := range m {
							if math.Float64bits(sub.At(i-i0, j)) != math.Float64bits(dst.At(i, j)) {
								t.Fatalf("n=%d m=%d d=%d: rows from %d: [%d][%d] = %v, whole product %v",
									n, m, d, i0, i, j, sub.At(i-i0, j), dst.At(i, j))
							}
						}
					}
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

// TestDotSmallTo checks the product of this build (dotSmallTo over
// transposeForDot's Z: the AVX-512 tiles in a GOEXPERIMENT=simd build on
// such a CPU, dotSmall otherwise) as TestDotSmall checks dotSmall, with
// shapes around the 4×16 vector tiles.
func TestDotSmallTo(t *testing.T) {
	rng := testmat.NewRand(10)
	for _, n := range []int{0, 1, 3, 4, 5, 9} {
		for _, m := range []int{0, 1, 15, 16, 17, 40} {
			for _, d := range []int{1, 2, 10, 16} {
				x, z := testmat.Random(rng, n, d, 1), testmat.Random(rng, m, d, 2)
				zt := transposeForDot(dense(z))
				dst := testmat.New(n, m, 3)
				dotSmallTo(dense(dst), dense(x), dense(z), zt)
				want := testmat.Mul(x, testmat.T(z))
				scale := testmat.Mul(testmat.Abs(x), testmat.Abs(testmat.T(z)))
				for i := range n {
					for j := range m {
						if g, w := dst.At(i, j), want.At(i, j); !(math.Abs(g-w) <= float64(d)*0x1p-52*scale.At(i, j)) {
							t.Fatalf("n=%d m=%d d=%d: [%d][%d] = %v, want %v", n, m, d, i, j, g, w)
						}
					}
				}
				if !testmat.PaddingIntact(dst) {
					t.Fatalf("n=%d m=%d d=%d: padding of dst written", n, m, d)
				}
				for i0 := 1; i0 < n; i0++ {
					sub := linalg.NewDense(n-i0, m, nil)
					dotSmallTo(sub, dense(x).Slice(i0, n, 0, d), dense(z), zt)
					for i := i0; i < n; i++ {
						for j := range m {
							if math.Float64bits(sub.At(i-i0, j)) != math.Float64bits(dst.At(i, j)) {
								t.Fatalf("n=%d m=%d d=%d: rows from %d: [%d][%d] = %v, whole product %v",
									n, m, d, i0, i, j, sub.At(i-i0, j), dst.At(i, j))
							}
						}
					}
				}
			}
		}
	}
}
