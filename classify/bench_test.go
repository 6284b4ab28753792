package classify

import (
	"fmt"
	"testing"

	"rkhs/kernels"
	"rkhs/regress"
)

// benchSizes are the training-set sizes of the benchmarks; small enough
// for two shared cores.
var benchSizes = []int{256, 1024}

// BenchmarkKNN: predicting n points against n training points (d = 16):
// the n×n cross-kernel matrix by blocks plus the selection.
func BenchmarkKNN(b *testing.B) {
	for _, n := range benchSizes {
		x, y := blobs(60, n, 16, 0.5, 0, 1)
		q, _ := blobs(61, n, 16, 0.5, 0, 1)
		m, err := KNN{Kernel: kernels.Gaussian{Sigma: 4}, K: 5}.Fit(x, y)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := m.Predict(q); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPerceptron: fitting on overlapping blobs (d = 16), which do not
// separate, so every fit runs the full 20 passes.
func BenchmarkPerceptron(b *testing.B) {
	for _, n := range benchSizes {
		x, y := blobs(62, n, 16, 0.3, 0, 1)
		p := Perceptron{Kernel: kernels.Gaussian{Sigma: 4}, MaxPasses: 20}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Fit(x, y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLogistic: 100 gradient steps (d = 16), one K·v product each.
func BenchmarkLogistic(b *testing.B) {
	for _, n := range benchSizes {
		x, y := blobs(63, n, 16, 0.3, 0, 1)
		lg := Logistic{Kernel: kernels.Gaussian{Sigma: 4}, Lambda: 1e-3, Intercept: regress.FreeIntercept, MaxIter: 100, Tol: 1e-300}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := lg.Fit(x, y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
