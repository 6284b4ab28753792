package linalg

import (
	"fmt"
	"testing"

	"rkhs/internal/testmat"
)

// svdBenchShapes are the shapes of the QR and SVD benchmarks: the square
// size compared with gonum and the tall, thin shape of a kernel method's
// feature matrix (n samples of 50 features).
var svdBenchShapes = []struct {
	name string
	m, n int
}{
	{"n=1000", 1000, 1000},
	{"100000x50", 100000, 50},
}

func BenchmarkQR(b *testing.B) {
	for _, sh := range svdBenchShapes {
		b.Run(sh.name, func(b *testing.B) {
			a := Dense(testmat.Random(testmat.NewRand(1), sh.m, sh.n, 0))
			var qr QR
			b.ReportAllocs()
			for b.Loop() {
				if err := qr.Factorize(&a); err != nil {
					b.Fatal(err)
				}
			}
			m, n := float64(sh.m), float64(sh.n)
			reportGFLOPs(b, 2*m*n*n-2*n*n*n/3)
		})
	}
}

func BenchmarkQRTo(b *testing.B) {
	for _, sh := range svdBenchShapes {
		b.Run(sh.name, func(b *testing.B) {
			a := Dense(testmat.Random(testmat.NewRand(1), sh.m, sh.n, 0))
			var qr QR
			if err := qr.Factorize(&a); err != nil {
				b.Fatal(err)
			}
			q := NewDense(sh.m, sh.n, nil)
			b.ReportAllocs()
			for b.Loop() {
				qr.QTo(q)
			}
		})
	}
}

func BenchmarkSVD(b *testing.B) {
	for _, sh := range svdBenchShapes {
		b.Run(sh.name, func(b *testing.B) {
			a := Dense(testmat.Random(testmat.NewRand(1), sh.m, sh.n, 0))
			var svd SVD
			u := NewDense(sh.m, sh.n, nil)
			v := NewDense(sh.n, sh.n, nil)
			b.ReportAllocs()
			for b.Loop() {
				if err := svd.Factorize(&a); err != nil {
					b.Fatal(err)
				}
				svd.UTo(u)
				svd.VTo(v)
			}
		})
	}
}

func BenchmarkTranspose(b *testing.B) {
	for _, sh := range svdBenchShapes {
		b.Run(fmt.Sprintf("%dx%d", sh.m, sh.n), func(b *testing.B) {
			a := Dense(testmat.Random(testmat.NewRand(1), sh.m, sh.n, 0))
			t := NewDense(sh.n, sh.m, nil)
			for b.Loop() {
				copyScan(*t, a, true)
			}
		})
	}
}
