package linalg

import (
	"fmt"
	"testing"

	"rkhs/internal/testmat"
)

// benchSizes is the one list of square sizes the dense benchmarks use; the
// largest needs 3·4096²·8 B = 400 MB, well inside the 24 GiB machine.
var benchSizes = []int{512, 1024, 2048, 4096}

func BenchmarkGemm(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			rnd := testmat.NewRand(1)
			x := Dense(testmat.Random(rnd, n, n, 0))
			y := Dense(testmat.Random(rnd, n, n, 0))
			z := NewDense(n, n, nil)
			b.ReportAllocs()
			for b.Loop() {
				Gemm(NoTrans, NoTrans, 1, &x, &y, 0, z)
			}
			reportGFLOPs(b, 2*float64(n)*float64(n)*float64(n))
		})
	}
}

func BenchmarkSyrk(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			rnd := testmat.NewRand(1)
			x := Dense(testmat.Random(rnd, n, n, 0))
			z := NewDense(n, n, nil)
			b.ReportAllocs()
			for b.Loop() {
				Syrk(Lower, NoTrans, 1, &x, 0, z)
			}
			reportGFLOPs(b, float64(n)*float64(n+1)*float64(n))
		})
	}
}

// BenchmarkGemv measures Gemm with one or two columns in C (K·v, Kᵀ·v) at
// n = 8192, where A is 512 MB, through the matrix–vector path Gemm takes
// (path=gemv) and through the packed blocked product it used before
// (path=packed), in one run; GB/s counts the bytes of A read once.
func BenchmarkGemv(b *testing.B) {
	const n = 8192
	a := Dense(testmat.Random(testmat.NewRand(1), n, n, 0))
	for _, q := range []int{1, 2} {
		v := Dense(testmat.Random(testmat.NewRand(2), n, q, 0))
		c := NewDense(n, q, nil)
		for _, tA := range []Op{NoTrans, Trans} {
			for _, path := range []string{"gemv", "packed"} {
				b.Run(fmt.Sprintf("n=%d/q=%d/%sN/path=%s", n, q, opName(tA), path), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						if path == "gemv" {
							Gemm(tA, NoTrans, 1, &a, &v, 0, c)
						} else {
							blockedProduct(tA, NoTrans, 1, a, v, 0, *c, full, false)
						}
					}
					b.ReportMetric(8*n*n*float64(b.N)/b.Elapsed().Seconds()/1e9, "GB/s")
				})
			}
		}
	}
}

// BenchmarkMicroKernel measures the micro-kernel in use alone on packed
// panels that stay in cache (kc = KC): the ceiling of GEMM on one core.
func BenchmarkMicroKernel(b *testing.B) {
	kc, mr, nr := gemmKC, kern.mr, kern.nr
	a := testmat.Random(testmat.NewRand(1), 1, kc*mr, 0).Data
	p := testmat.Random(testmat.NewRand(2), 1, kc*nr, 0).Data
	c := make([]float64, mr*nr)
	b.Logf("kernel %s", kern.name)
	for b.Loop() {
		kern.micro(kc, a, p, 1, 1, c, nr)
	}
	reportGFLOPs(b, 2*float64(kc*mr*nr))
}

func reportGFLOPs(b *testing.B, flops float64) {
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

func BenchmarkCholesky(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			a := benchSPD(n)
			var ch Cholesky
			b.ReportAllocs()
			for b.Loop() {
				if err := ch.Factorize(a); err != nil {
					b.Fatal(err)
				}
			}
			reportGFLOPs(b, float64(n)*float64(n)*float64(n)/3)
		})
	}
}

// BenchmarkTrsm solves L·X = B for a lower triangular L of order n (the
// Cholesky factor of benchSPD) and k right-hand sides: k = 1048 is the
// shape of the statistics pass of Nyström's selection (m = 1000 centres,
// a block of 1048 rows), k = 8 a few outputs.
func BenchmarkTrsm(b *testing.B) {
	for _, c := range []struct{ n, k int }{{1000, 1048}, {2048, 8}} {
		b.Run(fmt.Sprintf("n=%d/k=%d", c.n, c.k), func(b *testing.B) {
			var ch Cholesky
			if err := ch.Factorize(benchSPD(c.n)); err != nil {
				b.Fatal(err)
			}
			l := ch.LTo(nil)
			rhs := Dense(testmat.Random(testmat.NewRand(2), c.n, c.k, 0))
			x := NewDense(c.n, c.k, nil)
			b.ReportAllocs()
			for b.Loop() {
				copy(x.Data, rhs.Data)
				Trsm(Lower, NoTrans, l, x)
			}
			reportGFLOPs(b, float64(c.n)*float64(c.n)*float64(c.k))
		})
	}
}

// BenchmarkTrsv solves L·x = b and Lᵀx = b for the lower triangular
// Cholesky factor L of order n, one right-hand side: n = 4000 is the
// preconditioner of Falkon with m = 4000 centres, four such solves per
// conjugate gradient iteration.
func BenchmarkTrsv(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var ch Cholesky
			if err := ch.Factorize(benchSPD(n)); err != nil {
				b.Fatal(err)
			}
			l := ch.LTo(nil)
			rhs := testmat.Random(testmat.NewRand(2), n, 1, 0).Data
			x := make([]float64, n)
			for _, op := range []Op{NoTrans, Trans} {
				b.Run(opName(op), func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						copy(x, rhs)
						Trsv(Lower, op, l, x)
					}
					reportGFLOPs(b, float64(n)*float64(n))
				})
			}
		})
	}
}

// benchSPD returns the well-conditioned SPD matrix B·Bᵀ/n + I for a random
// B, built with Syrk (the naive testmat.RandomSPD is too slow at these
// sizes); both triangles are filled.
func benchSPD(n int) *Dense {
	x := Dense(testmat.Random(testmat.NewRand(1), n, n, 0))
	a := NewDense(n, n, nil)
	Syrk(Lower, NoTrans, 1/float64(n), &x, 0, a)
	for i := 0; i < n; i++ {
		a.Set(i, i, a.At(i, i)+1)
		for j := 0; j < i; j++ {
			a.Set(j, i, a.At(i, j))
		}
	}
	return a
}
