package kernels

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"rkhs/linalg"
)

// scaledProblem returns rows x (n×d), centres z (m×d), length scales and an
// adjoint N (n×m), all seeded.
func scaledProblem(n, m, d int, seed uint64) (x, z *linalg.Dense, sigma []float64, adj *linalg.Dense) {
	r := rand.New(rand.NewPCG(seed, 2))
	x, z, adj = linalg.NewDense(n, d, nil), linalg.NewDense(m, d, nil), linalg.NewDense(n, m, nil)
	for i := range x.Data {
		x.Data[i] = r.NormFloat64()
	}
	for i := range z.Data {
		z.Data[i] = r.NormFloat64()
	}
	for i := range adj.Data {
		adj.Data[i] = r.NormFloat64()
	}
	sigma = make([]float64, d)
	for j := range sigma {
		sigma[j] = 0.5 + 2*r.Float64()
	}
	return x, z, sigma, adj
}

// scaledKernels are the kernels Scaled takes, with their values from the
// formulas: exp(−Σ_j (x_j − z_j)²/(2σ_j²)) and exp(−Σ_j |x_j − z_j|/σ_j).
var scaledKernels = []struct {
	name  string
	k     Kernel
	value func(x, z, sigma []float64) float64
	delta func(t float64) float64 // ∂log k/∂log σ_j as a function of t = x̃_j − z̃_j
}{
	{"gaussian", Gaussian{Sigma: 3}, func(x, z, sigma []float64) float64 {
		var s float64
		for j := range x {
			t := (x[j] - z[j]) / sigma[j]
			s += t * t
		}
		return math.Exp(-s / 2)
	}, func(t float64) float64 { return t * t }},
	{"laplacian", Laplacian{Sigma: 3}, func(x, z, sigma []float64) float64 {
		var s float64
		for j := range x {
			s += math.Abs(x[j]-z[j]) / sigma[j]
		}
		return math.Exp(-s)
	}, math.Abs},
}

func TestScaledBlocksAreTheKernelOfTheScaledRows(t *testing.T) {
	for _, kc := range scaledKernels {
		scaledBlocks(t, kc.name, kc.k, kc.value)
	}
}

func scaledBlocks(t *testing.T, name string, kern Kernel, scaledValue func(x, z, sigma []float64) float64) {
	x, z, sigma, _ := scaledProblem(37, 6, 3, 1)
	s, err := NewScaled(kern, z, sigma)
	if err != nil {
		t.Fatal(err)
	}
	for _, rows := range []int{1, 8, 37, 100} {
		seen := 0
		for b, err := range s.Blocks(x, rows, nil) {
			if err != nil {
				t.Fatal(err)
			}
			if b.I0 != seen {
				t.Fatalf("rows %d: block at %d, want %d", rows, b.I0, seen)
			}
			for i := 0; i < b.K.Rows; i++ {
				for k := 0; k < z.Rows; k++ {
					got, want := b.K.At(i, k), scaledValue(x.Row(b.I0+i), z.Row(k), sigma)
					if math.Abs(got-want) > 1e-14 {
						t.Fatalf("%s, rows %d: K[%d][%d] = %g, want %g", name, rows, b.I0+i, k, got, want)
					}
				}
				for j := range sigma {
					if got, want := b.X.At(i, j), x.At(b.I0+i, j)/sigma[j]; got != want {
						t.Fatalf("rows %d: x̃[%d][%d] = %g, want %g", rows, b.I0+i, j, got, want)
					}
				}
			}
			seen += b.K.Rows
		}
		if seen != x.Rows {
			t.Fatalf("rows %d: %d rows in the blocks, want %d", rows, seen, x.Rows)
		}
	}
}

// contract returns Σ_ik N_ik·∂K_ik/∂log σ_j by AddGradient and EndGradient
// over blocks of rows rows.
func contract(t *testing.T, s *Scaled, x, adj *linalg.Dense, rows int) []float64 {
	t.Helper()
	d, m := x.Cols, adj.Cols
	g, tk := make([]float64, d), make([]float64, m)
	var work GradientWork
	for b, err := range s.Blocks(x, rows, nil) {
		if err != nil {
			t.Fatal(err)
		}
		nb := adj.Slice(b.I0, b.I0+b.K.Rows, 0, m).Clone()
		s.AddGradient(g, tk, b, nb, &work)
	}
	s.EndGradient(g, tk)
	return g
}

// fivePoint returns the five-point central difference of f in log σ_j at
// step h.
func fivePoint(f func(sigma []float64) float64, sigma []float64, j int, h float64) float64 {
	at := func(u float64) float64 {
		s := append([]float64(nil), sigma...)
		s[j] *= math.Exp(u)
		return f(s)
	}
	return (at(-2*h) - 8*at(-h) + 8*at(h) - at(2*h)) / (12 * h)
}

func TestScaledGradientMatchesFiniteDifferences(t *testing.T) {
	for _, kc := range scaledKernels {
		scaledValue := kc.value
		for _, tc := range []struct {
			n, m, d, rows int
		}{{30, 7, 3, 8}, {50, 12, 5, 50}, {9, 4, 1, 2}} {
			x, z, sigma, adj := scaledProblem(tc.n, tc.m, tc.d, uint64(tc.n))
			s, err := NewScaled(kc.k, z, sigma)
			if err != nil {
				t.Fatal(err)
			}
			got := contract(t, s, x, adj, tc.rows)
			f := func(sg []float64) float64 {
				var v float64
				for i := 0; i < x.Rows; i++ {
					for k := 0; k < z.Rows; k++ {
						v += adj.At(i, k) * scaledValue(x.Row(i), z.Row(k), sg)
					}
				}
				return v
			}
			var big float64
			for _, v := range got {
				big = max(big, math.Abs(v))
			}
			for j := range sigma {
				want := fivePoint(f, sigma, j, 2e-3)
				if math.Abs(got[j]-want) > 1e-8*big {
					t.Errorf("%s, n=%d d=%d: ∂/∂log σ_%d = %.12g, finite difference %.12g", kc.name, tc.n, tc.d, j, got[j], want)
				}
			}
		}
	}
}

func TestScaledGradientEqualsTheTripleSum(t *testing.T) {
	for _, kc := range scaledKernels {
		scaledTripleSum(t, kc.name, kc.k, kc.value, kc.delta)
	}
}

func scaledTripleSum(t *testing.T, name string, kern Kernel, scaledValue func(x, z, sigma []float64) float64, delta func(float64) float64) {
	x, z, sigma, adj := scaledProblem(25, 6, 4, 3)
	// A row equal to a centre in one feature: the Laplacian's |t| at t = 0.
	x.Set(0, 1, z.At(2, 1))
	s, err := NewScaled(kern, z, sigma)
	if err != nil {
		t.Fatal(err)
	}
	got := contract(t, s, x, adj, 7)
	for j := range sigma {
		var want, big float64
		for i := 0; i < x.Rows; i++ {
			for k := 0; k < z.Rows; k++ {
				dx := (x.At(i, j) - z.At(k, j)) / sigma[j]
				e := adj.At(i, k) * scaledValue(x.Row(i), z.Row(k), sigma) * delta(dx)
				want += e
				big = max(big, math.Abs(e))
			}
		}
		if math.Abs(got[j]-want) > 1e-12*big*float64(x.Rows*z.Rows) {
			t.Errorf("%s, feature %d: contraction %.15g, triple sum %.15g", name, j, got[j], want)
		}
	}
}

func TestScaledCentersGradientMatchesFiniteDifferences(t *testing.T) {
	for _, kc := range scaledKernels {
		scaledCenters(t, kc.name, kc.k, kc.value)
	}
}

func scaledCenters(t *testing.T, name string, kern Kernel, scaledValue func(x, z, sigma []float64) float64) {
	_, z, sigma, _ := scaledProblem(1, 9, 3, 4)
	r := rand.New(rand.NewPCG(5, 6))
	p := linalg.NewDense(z.Rows, z.Rows, nil)
	for k := 0; k < z.Rows; k++ {
		for l := 0; l <= k; l++ {
			v := r.NormFloat64()
			p.Set(k, l, v)
			p.Set(l, k, v)
		}
	}
	before := p.Clone()
	s, err := NewScaled(kern, z, sigma)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.CentersGradient(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !equalDense(p, before) {
		t.Fatal("CentersGradient modified P")
	}
	f := func(sg []float64) float64 {
		var v float64
		for k := 0; k < z.Rows; k++ {
			for l := 0; l < z.Rows; l++ {
				v += p.At(k, l) * scaledValue(z.Row(k), z.Row(l), sg)
			}
		}
		return v
	}
	var big float64
	for _, v := range got {
		big = max(big, math.Abs(v))
	}
	for j := range sigma {
		if want := fivePoint(f, sigma, j, 2e-3); math.Abs(got[j]-want) > 1e-8*big {
			t.Errorf("%s: ∂/∂log σ_%d of the centres' part = %.12g, finite difference %.12g", name, j, got[j], want)
		}
	}
}

func TestNewScaledRefusals(t *testing.T) {
	z := linalg.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	for _, tc := range []struct {
		name  string
		k     Kernel
		z     *linalg.Dense
		sigma []float64
		want  error
	}{
		{"polynomial", Polynomial{Degree: 2, Offset: 1}, z, []float64{1, 1}, ErrParameter},
		{"nil kernel", nil, z, []float64{1, 1}, ErrParameter},
		{"nil centres", Gaussian{Sigma: 1}, nil, []float64{1, 1}, ErrData},
		{"too few scales", Gaussian{Sigma: 1}, z, []float64{1}, ErrParameter},
		{"zero scale", Laplacian{Sigma: 1}, z, []float64{1, 0}, ErrParameter},
		{"NaN scale", Gaussian{Sigma: 1}, z, []float64{math.NaN(), 1}, linalg.ErrNotFinite},
		{"overflow", Gaussian{Sigma: 1}, linalg.NewDense(1, 2, []float64{1e308, 1}), []float64{1e-300, 1}, ErrData},
	} {
		if _, err := NewScaled(tc.k, tc.z, tc.sigma); !errors.Is(err, tc.want) {
			t.Errorf("%s: error %v, want %v", tc.name, err, tc.want)
		}
	}
}

func equalDense(a, b *linalg.Dense) bool {
	for i := 0; i < a.Rows; i++ {
		for j := 0; j < a.Cols; j++ {
			if math.Float64bits(a.At(i, j)) != math.Float64bits(b.At(i, j)) {
				return false
			}
		}
	}
	return true
}
