package classify

import (
	"slices"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// perceptronNaive is Igel's Algorithm 1 written literally, with the bias as
// the kernel k + 1: every test recomputes yᵢΣⱼαⱼyⱼk(xⱼ, xᵢ) pair by pair.
func perceptronNaive(k kernels.Kernel, x *linalg.Dense, y []float64, bias bool, maxPasses int) (alpha []int, passes int, converged bool) {
	n := x.Rows
	alpha = make([]int, n)
	for passes < maxPasses {
		passes++
		mistakes := 0
		for i := 0; i < n; i++ {
			var f float64
			for j := 0; j < n; j++ {
				kij := k.Eval(x.Row(j), x.Row(i))
				if bias {
					kij++
				}
				f += float64(alpha[j]) * y[j] * kij
			}
			if y[i]*f <= 0 {
				alpha[i]++
				mistakes++
			}
		}
		if mistakes == 0 {
			return alpha, passes, true
		}
	}
	return alpha, passes, false
}

// TestPerceptronMatchesAlgorithm: on small integer data, where every
// kernel value and sum is exact, the fitted mistake counts are exactly
// those of the literal algorithm in index order.
func TestPerceptronMatchesAlgorithm(t *testing.T) {
	rnd := newRand(1)
	for _, bias := range []bool{false, true} {
		for trial := 0; trial < 5; trial++ {
			n := 30
			x := linalg.NewDense(n, 2, nil)
			y := make([]float64, n)
			for i := 0; i < n; i++ {
				a, b := float64(rnd.IntN(9)-4), float64(rnd.IntN(9)-4)
				x.Set(i, 0, a)
				x.Set(i, 1, b)
				y[i] = -1
				if 2*a+b+1 > 0 { // separable by a line not through the origin
					y[i] = 1
				}
			}
			m, err := Perceptron{Kernel: kernels.Linear{}, Intercept: intercept(bias), MaxPasses: 50}.Fit(x, y)
			if err != nil {
				t.Fatal(err)
			}
			alpha, passes, conv := perceptronNaive(kernels.Linear{}, x, y, bias, 50)
			if !slices.Equal(m.Alpha, alpha) || m.Passes != passes || m.Converged != conv {
				t.Fatalf("bias %v trial %d: α %v passes %d converged %v, literal algorithm α %v passes %d converged %v",
					bias, trial, m.Alpha, m.Passes, m.Converged, alpha, passes, conv)
			}
			if got := mustPredict(t, m, x); conv && !slices.Equal(got, y) {
				t.Fatalf("bias %v trial %d: converged, but training predictions %v, want %v", bias, trial, got, y)
			}
		}
	}
}

// TestPerceptronSeparable: linearly separable blobs (linear kernel with
// bias) and the XOR pattern (Gaussian kernel) are separated: Converged,
// every training point classified correctly, fewer passes than the limit.
func TestPerceptronSeparable(t *testing.T) {
	xb, yb := blobs(2, 120, 3, 6, 0, 1)
	xor := linalg.NewDense(4, 2, []float64{0, 0, 0, 1, 1, 0, 1, 1})
	yxor := []float64{-1, 1, 1, -1}
	for _, tc := range []struct {
		name string
		p    Perceptron
		x    *linalg.Dense
		y    []float64
	}{
		{"linear blobs", Perceptron{Kernel: kernels.Linear{}, Intercept: regress.FreeIntercept}, xb, yb},
		{"linear blobs shuffled", Perceptron{Kernel: kernels.Linear{}, Intercept: regress.FreeIntercept, Shuffle: true, Seed: 7}, xb, yb},
		{"gaussian xor", Perceptron{Kernel: kernels.Gaussian{Sigma: 0.5}}, xor, yxor},
	} {
		s := snap(tc.x, tc.y)
		m, err := tc.p.Fit(tc.x, tc.y)
		if err != nil {
			t.Fatal(err)
		}
		s.unchanged(t, tc.x, tc.y)
		if !m.Converged || m.Passes >= defaultMaxPasses {
			t.Fatalf("%s: Converged %v after %d passes, want true", tc.name, m.Converged, m.Passes)
		}
		if got := mustPredict(t, m, tc.x); !slices.Equal(got, tc.y) {
			t.Errorf("%s: training predictions %v, want %v", tc.name, got, tc.y)
		}
		sum := 0
		for _, a := range m.Alpha {
			sum += a
		}
		if sum != m.Mistakes || len(m.Coef) > m.Mistakes {
			t.Errorf("%s: Σα = %d, Mistakes = %d, %d centres", tc.name, sum, m.Mistakes, len(m.Coef))
		}
	}
}

// TestPerceptronNonSeparable: a point repeated with both labels can never
// be classified correctly, so fitting must stop at MaxPasses.
func TestPerceptronNonSeparable(t *testing.T) {
	x, y := blobs(3, 40, 2, 3, -1, 1)
	x.Set(1, 0, x.At(0, 0))
	x.Set(1, 1, x.At(0, 1)) // rows 0 and 1 coincide, labels −1 and +1
	for _, maxPasses := range []int{1, 7, 0} {
		m, err := Perceptron{Kernel: kernels.Gaussian{Sigma: 1}, MaxPasses: maxPasses}.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		want := maxPasses
		if want == 0 {
			want = defaultMaxPasses
		}
		if m.Converged || m.Passes != want {
			t.Errorf("MaxPasses %d: Converged %v after %d passes, want false after %d", maxPasses, m.Converged, m.Passes, want)
		}
	}
}

// TestPerceptronShuffle: the shuffled order is a function of the seed.
func TestPerceptronShuffle(t *testing.T) {
	x, y := blobs(4, 60, 2, 1.5, 1, 2)
	fit := func(seed uint64) *PerceptronModel {
		m, err := Perceptron{Kernel: kernels.Gaussian{Sigma: 1}, Shuffle: true, Seed: seed, MaxPasses: 5}.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	a, b, c := fit(1), fit(1), fit(2)
	if !slices.Equal(a.Alpha, b.Alpha) {
		t.Errorf("same seed, different α")
	}
	if slices.Equal(a.Alpha, c.Alpha) {
		t.Errorf("seeds 1 and 2 gave the same α %v: is the order shuffled?", a.Alpha)
	}
	plain, _ := Perceptron{Kernel: kernels.Gaussian{Sigma: 1}, MaxPasses: 5}.Fit(x, y)
	if slices.Equal(a.Alpha, plain.Alpha) {
		t.Errorf("shuffled and index order gave the same α")
	}
}
