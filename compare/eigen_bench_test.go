package compare

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"

	"rkhs/linalg"
)

// symmetricData returns a random symmetric n×n matrix, row-major.
func symmetricData(n int) []float64 {
	rnd := rand.New(rand.NewPCG(1, 2))
	a := randomData(rnd, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < i; j++ {
			a[j*n+i] = a[i*n+j]
		}
	}
	return a
}

// eigenSizes are the sizes compared for the symmetric eigensolver; gonum
// takes about 40 s at n = 2000 with vectors, so the list stops there.
var eigenSizes = []int{500, 1000, 2000}

// BenchmarkEigenSym: eigenvalues and eigenvectors of a random symmetric
// matrix (rkhs: Householder reduction, divide and conquer, WY
// back-transformation; gonum: Dsyev, implicit QL/QR with accumulated
// rotations).
func BenchmarkEigenSym(b *testing.B) { benchEigen(b, true) }

// BenchmarkEigenSymValues: eigenvalues only.
func BenchmarkEigenSymValues(b *testing.B) { benchEigen(b, false) }

func benchEigen(b *testing.B, vectors bool) {
	for _, lib := range []string{"rkhs", "gonum"} {
		for _, n := range eigenSizes {
			b.Run(fmt.Sprintf("%s/n=%d", lib, n), func(b *testing.B) {
				data := symmetricData(n)
				b.ReportAllocs()
				switch lib {
				case "rkhs":
					a := linalg.NewDense(n, n, data)
					var es linalg.EigenSym
					for b.Loop() {
						if err := es.Factorize(a, vectors); err != nil {
							b.Fatal(err)
						}
					}
				case "gonum":
					a := mat.NewSymDense(n, data)
					var es mat.EigenSym
					for b.Loop() {
						if !es.Factorize(a, vectors) {
							b.Fatal("gonum: EigenSym did not converge")
						}
					}
				}
			})
		}
	}
}
