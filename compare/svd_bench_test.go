package compare

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"rkhs/linalg"
)

// svdShapes are the shapes compared: a square SVD, a moderately tall one,
// and the tall, thin matrix of a kernel method's features (100000 samples
// of 50 features).
var svdShapes = []struct {
	name string
	m, n int
}{
	{"n=1000", 1000, 1000},
	{"2000x500", 2000, 500},
	{"100000x50", 100000, 50},
}

// BenchmarkSVD computes the thin SVD with both libraries and extracts U and
// V, so that both do the same work (gonum's mat.SVD with mat.SVDThin is a
// full SVD on a square matrix).
func BenchmarkSVD(b *testing.B) {
	for _, lib := range []string{"rkhs", "gonum"} {
		for _, sh := range svdShapes {
			b.Run(lib+"/"+sh.name, func(b *testing.B) {
				data := randomData(rand.New(rand.NewPCG(1, 2)), sh.m*sh.n)
				k := min(sh.m, sh.n)
				b.ReportAllocs()
				switch lib {
				case "rkhs":
					a := linalg.NewDense(sh.m, sh.n, data)
					u, v := linalg.NewDense(sh.m, k, nil), linalg.NewDense(sh.n, k, nil)
					var s linalg.SVD
					for b.Loop() {
						if err := s.Factorize(a, linalg.SVDThin); err != nil {
							b.Fatal(err)
						}
						s.UTo(u)
						s.VTo(v)
					}
				case "gonum":
					a := mat.NewDense(sh.m, sh.n, data)
					var u, v mat.Dense
					var s mat.SVD
					for b.Loop() {
						if !s.Factorize(a, mat.SVDThin) {
							b.Fatal("gonum: SVD did not converge")
						}
						s.UTo(&u)
						s.VTo(&v)
					}
				}
			})
		}
	}
}

// BenchmarkSVDValues computes the singular values alone, n=2000: rkhs's
// bidiagonal route with the bidiagonal QR iteration, gonum's Dgesvd with
// mat.SVDNone.
func BenchmarkSVDValues(b *testing.B) {
	const n = 2000
	data := randomData(rand.New(rand.NewPCG(1, 2)), n*n)
	b.Run("rkhs/n=2000", func(b *testing.B) {
		a := linalg.NewDense(n, n, data)
		var s linalg.SVD
		b.ReportAllocs()
		for b.Loop() {
			if err := s.Factorize(a, linalg.SVDValues); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("gonum/n=2000", func(b *testing.B) {
		a := mat.NewDense(n, n, data)
		var s mat.SVD
		b.ReportAllocs()
		for b.Loop() {
			if !s.Factorize(a, mat.SVDNone) {
				b.Fatal("gonum: SVD did not converge")
			}
		}
	})
}
