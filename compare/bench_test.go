package compare

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/mat"

	"rkhs/linalg"
)

// sizes are the square sizes compared; the largest fits the 24 GiB machine
// many times over.
var sizes = []int{512, 1024, 2048, 4096}

func randomData(rnd *rand.Rand, n int) []float64 {
	d := make([]float64, n)
	for i := range d {
		d[i] = 2*rnd.Float64() - 1
	}
	return d
}

// spdData returns a well-conditioned SPD matrix B·Bᵀ/n + I, row-major,
// built with rkhs (the same matrix is factored by both libraries).
func spdData(n int) []float64 {
	rnd := rand.New(rand.NewPCG(1, 2))
	b := linalg.NewDense(n, n, randomData(rnd, n*n))
	a := linalg.NewDense(n, n, nil)
	linalg.Syrk(linalg.Lower, linalg.NoTrans, 1/float64(n), b, 0, a)
	for i := 0; i < n; i++ {
		a.Set(i, i, a.At(i, i)+1)
		for j := 0; j < i; j++ {
			a.Set(j, i, a.At(i, j))
		}
	}
	return a.Data
}

func gflops(b *testing.B, flops float64) {
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

func BenchmarkGemm(b *testing.B) {
	for _, lib := range []string{"rkhs", "gonum"} {
		for _, n := range sizes {
			b.Run(fmt.Sprintf("%s/n=%d", lib, n), func(b *testing.B) {
				rnd := rand.New(rand.NewPCG(1, 2))
				x, y, z := randomData(rnd, n*n), randomData(rnd, n*n), make([]float64, n*n)
				b.ReportAllocs()
				switch lib {
				case "rkhs":
					a, bb, c := linalg.NewDense(n, n, x), linalg.NewDense(n, n, y), linalg.NewDense(n, n, z)
					for b.Loop() {
						linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, a, bb, 0, c)
					}
				case "gonum":
					a := blas64.General{Rows: n, Cols: n, Stride: n, Data: x}
					bb := blas64.General{Rows: n, Cols: n, Stride: n, Data: y}
					c := blas64.General{Rows: n, Cols: n, Stride: n, Data: z}
					for b.Loop() {
						blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, a, bb, 0, c)
					}
				}
				gflops(b, 2*float64(n)*float64(n)*float64(n))
			})
		}
	}
}

func BenchmarkCholesky(b *testing.B) {
	for _, lib := range []string{"rkhs", "gonum"} {
		for _, n := range sizes {
			b.Run(fmt.Sprintf("%s/n=%d", lib, n), func(b *testing.B) {
				data := spdData(n)
				b.ReportAllocs()
				switch lib {
				case "rkhs":
					a := linalg.NewDense(n, n, data)
					var ch linalg.Cholesky
					for b.Loop() {
						if err := ch.Factorize(a); err != nil {
							b.Fatal(err)
						}
					}
				case "gonum":
					a := mat.NewSymDense(n, data)
					var ch mat.Cholesky
					for b.Loop() {
						if !ch.Factorize(a) {
							b.Fatal("gonum: not positive definite")
						}
					}
				}
				gflops(b, float64(n)*float64(n)*float64(n)/3)
			})
		}
	}
}
