package classify

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"rkhs/internal/testmat"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

func newRand(seed uint64) *rand.Rand { return testmat.NewRand(seed) }

// blobs returns n points in d dimensions from two Gaussian clouds centred
// at ±sep·e₁ (unit spread), labelled lo and hi alternately.
func blobs(seed uint64, n, d int, sep, lo, hi float64) (*linalg.Dense, []float64) {
	rnd := newRand(seed)
	x := linalg.NewDense(n, d, nil)
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		row := x.Row(i)
		for j := range row {
			row[j] = rnd.NormFloat64()
		}
		if i%2 == 0 {
			y[i] = lo
			row[0] -= sep
		} else {
			y[i] = hi
			row[0] += sep
		}
	}
	return x, y
}

// gramNaive returns K[i][j] = k.Eval(xᵢ, zⱼ) pair by pair: the oracle.
func gramNaive(k kernels.Kernel, x, z *linalg.Dense) *linalg.Dense {
	g := linalg.NewDense(x.Rows, z.Rows, nil)
	for i := 0; i < x.Rows; i++ {
		for j := 0; j < z.Rows; j++ {
			g.Set(i, j, k.Eval(x.Row(i), z.Row(j)))
		}
	}
	return g
}

func accuracy(pred, want []float64) float64 {
	c := 0
	for i := range pred {
		if pred[i] == want[i] {
			c++
		}
	}
	return float64(c) / float64(len(want))
}

// snapshot records x and labels so that unchanged can verify a call left
// them alone.
type snapshot struct {
	x      testmat.Matrix
	labels []float64
}

func snap(x *linalg.Dense, labels []float64) snapshot {
	return snapshot{testmat.Matrix(*x).Clone(), slices.Clone(labels)}
}

func (s snapshot) unchanged(t *testing.T, x *linalg.Dense, labels []float64) {
	t.Helper()
	if !testmat.Identical(testmat.Matrix(*x), s.x) {
		t.Errorf("X was modified")
	}
	for i := range labels {
		if math.Float64bits(labels[i]) != math.Float64bits(s.labels[i]) {
			t.Fatalf("labels[%d] was modified: %v, was %v", i, labels[i], s.labels[i])
		}
	}
}

func mustPredict(t *testing.T, p interface {
	Predict(*linalg.Dense) ([]float64, error)
}, x *linalg.Dense) []float64 {
	t.Helper()
	out, err := p.Predict(x)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// intercept returns FreeIntercept for free, NoIntercept otherwise.
func intercept(free bool) regress.Intercept {
	if free {
		return regress.FreeIntercept
	}
	return regress.NoIntercept
}
