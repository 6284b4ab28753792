package linalg

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"rkhs/internal/testmat"
)

// tridiagSolvers are the two symmetric tridiagonal eigensolvers, which share
// one contract.
var tridiagSolvers = []struct {
	name  string
	solve func(d, e []float64, z Dense) error
}{
	{"steqr", steqr},
	{"stedc", stedc},
}

// tridiagCase is a symmetric tridiagonal test problem; want, when not nil,
// is its spectrum in ascending order.
type tridiagCase struct {
	name string
	d, e []float64
	want []float64
}

func tridiagFromFull(name string, a testmat.Matrix, want []float64) tridiagCase {
	d, e := testmat.TridiagonalParts(a)
	return tridiagCase{name, d, e, want}
}

// tridiagCases returns the problems every solver must pass: closed-form
// spectra, the hard cases of deflation and clustering, splits, extreme
// scales, and random matrices of orders around the divide-and-conquer
// cut-off.
func tridiagCases() []tridiagCase {
	rnd := testmat.NewRand(20)
	var cs []tridiagCase
	add := func(name string, d, e, want []float64) { cs = append(cs, tridiagCase{name, d, e, want}) }

	add("1x1", []float64{-3}, nil, []float64{-3})
	add("2x2", []float64{1, 2}, []float64{3}, []float64{1.5 - math.Sqrt(9.25), 1.5 + math.Sqrt(9.25)})
	add("2x2/diagonal", []float64{2, 1}, []float64{0}, []float64{1, 2})
	add("3x3", []float64{2, 2, 2}, []float64{1, 1}, []float64{2 - math.Sqrt2, 2, 2 + math.Sqrt2})
	add("zero/n=40", make([]float64, 40), make([]float64, 39), make([]float64, 40))
	ones := func(n int, v float64) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = v
		}
		return x
	}
	add("identity/n=70", ones(70, 1), make([]float64, 69), ones(70, 1))
	for _, n := range []int{10, 150} {
		a, w := testmat.SecondDifference(n)
		cs = append(cs, tridiagFromFull(fmt.Sprintf("second difference/n=%d", n), a, w))
	}
	for _, n := range []int{9, 101} {
		a, w := testmat.Clement(n)
		cs = append(cs, tridiagFromFull(fmt.Sprintf("Clement/n=%d", n), a, w))
	}
	cs = append(cs, tridiagFromFull("W21+", testmat.WilkinsonPlus(21), nil))
	cs = append(cs, tridiagFromFull("W101+", testmat.WilkinsonPlus(101), nil))
	d, e := testmat.GluedWilkinson(21, 4, 1e-10)
	add("glued W21+/4 blocks", d, e, nil)
	d, e = testmat.GluedWilkinson(21, 12, 1e-10)
	add("glued W21+/12 blocks", d, e, nil)
	d, e = testmat.GluedWilkinson(21, 12, 1e-14)
	add("glued W21+/glue 1e-14", d, e, nil)

	// Exact zeros on the off-diagonal split T into blocks of sizes 7, 60, 1,
	// 80, …, whose spectra interleave.
	d, e = testmat.RandomTridiagonal(rnd, 200)
	for _, k := range []int{6, 66, 67, 147} {
		e[k] = 0
	}
	add("splits", d, e, nil)
	// Constant diagonal with tiny off-diagonals: all eigenvalues in a
	// cluster of width 4e-12 around 1.
	d, e = testmat.RandomTridiagonal(rnd, 120)
	for i := range d {
		d[i] = 1
	}
	for i := range e {
		e[i] *= 1e-12
	}
	add("cluster", d, e, nil)
	// Graded: entries from 1 down to 2⁻¹⁰⁰.
	d, e = testmat.RandomTridiagonal(rnd, 100)
	for i := range d {
		d[i] = math.Ldexp(d[i], -i)
		if i < len(e) {
			e[i] = math.Ldexp(e[i], -i)
		}
	}
	add("graded", d, e, nil)
	// Strongly graded: from 1 down to 2⁻⁹⁹⁰, near underflow.
	d, e = testmat.RandomTridiagonal(rnd, 100)
	for i := range d {
		d[i] = math.Ldexp(d[i], -10*i)
		if i < len(e) {
			e[i] = math.Ldexp(e[i], -10*i-5)
		}
	}
	add("graded to 2⁻⁹⁹⁰", d, e, nil)
	for _, s := range []float64{0x1p-1000, 0x1p+1000} {
		d, e = testmat.RandomTridiagonal(rnd, 90)
		scaleExp(d, exponentOf(s)-1)
		scaleExp(e, exponentOf(s)-1)
		add(fmt.Sprintf("random×%g", s), d, e, nil)
	}
	c := stedcCutoff
	for _, n := range []int{4, c - 1, c, c + 1, 2*c + 1, 200, 333} {
		d, e = testmat.RandomTridiagonal(rnd, n)
		add(fmt.Sprintf("random/n=%d", n), d, e, nil)
	}
	return cs
}

// TestTridiagEigen checks both solvers on every case: the scaled residual
// and orthogonality of the eigenvectors (< 30), ascending order, the known
// spectra, the agreement of the eigenvalues with and without vectors, and
// that the padding of a strided z is not touched.
func TestTridiagEigen(t *testing.T) {
	var worstRes, worstOrth, worstVal float64
	for _, tc := range tridiagCases() {
		n := len(tc.d)
		a := testmat.Tridiagonal(tc.d, tc.e)
		norm := testmat.NormOne(a)
		var ref []float64 // steqr's eigenvalues, against which stedc's are compared
		for _, s := range tridiagSolvers {
			t.Run(tc.name+"/"+s.name, func(t *testing.T) {
				d, e := slices.Clone(tc.d), slices.Clone(tc.e)
				z := testmat.New(n, n, 3)
				for i := range z.Data {
					if z.Data[i] != testmat.Pad {
						z.Data[i] = math.NaN() // content on entry is ignored
					}
				}
				if err := s.solve(d, e, Dense(z)); err != nil {
					t.Fatalf("with vectors: %v", err)
				}
				if !slices.IsSorted(d) {
					t.Errorf("eigenvalues not ascending: %v", d)
				}
				if !testmat.PaddingIntact(z) {
					t.Errorf("padding of z modified")
				}
				res := testmat.EigenResidual(a, z, d)
				orth := testmat.Orthogonality(z)
				worstRes, worstOrth = math.Max(worstRes, res), math.Max(worstOrth, orth)
				if !(res < 30) {
					t.Errorf("‖TZ − ZΛ‖/(nε‖T‖) = %.3g, want < 30", res)
				}
				if !(orth < 30) {
					t.Errorf("‖ZᵀZ − I‖/(nε) = %.3g, want < 30", orth)
				}
				// Eigenvalue errors of a backward stable method are at most
				// a modest multiple of n·ε·‖T‖.
				bound := 4 * float64(n) * testmat.Eps * norm
				if tc.want != nil {
					for i, w := range tc.want {
						if norm > 0 {
							worstVal = math.Max(worstVal, math.Abs(d[i]-w)/(float64(n)*testmat.Eps*norm))
						}
						if math.Abs(d[i]-w) > bound {
							t.Errorf("λ[%d] = %v, want %v (error %.3g > %.3g)", i, d[i], w, math.Abs(d[i]-w), bound)
						}
					}
				}
				if ref == nil {
					ref = slices.Clone(d)
				} else {
					for i := range ref {
						if math.Abs(d[i]-ref[i]) > bound {
							t.Errorf("λ[%d] = %v, steqr gives %v", i, d[i], ref[i])
						}
					}
				}

				vd, ve := slices.Clone(tc.d), slices.Clone(tc.e)
				if err := s.solve(vd, ve, Dense{}); err != nil {
					t.Fatalf("values only: %v", err)
				}
				for i := range vd {
					if math.Abs(vd[i]-d[i]) > 1e-12*norm {
						t.Errorf("values only: λ[%d] = %v, with vectors %v", i, vd[i], d[i])
					}
				}
			})
		}
	}
	t.Logf("worst ratios: residual %.3g, orthogonality %.3g, known eigenvalues |λ − want|/(nε‖T‖) %.3g", worstRes, worstOrth, worstVal)
}

// TestTridiagNoConvergence lowers the iteration limit so that steqr must
// fail, and checks the documented state on failure: a *ConvergenceError, and
// Z·T'·Zᵀ = T for the tridiagonal T' left in d and e.
func TestTridiagNoConvergence(t *testing.T) {
	defer func(m int) { steqrMaxIter = m }(steqrMaxIter)
	steqrMaxIter = 1 // n iterations in total: too few for 60 eigenvalues
	const n = 60
	for _, tc := range []struct {
		scale   int // T is scaled by 2^scale: 2⁷⁰⁰ is beyond steqr's safe range
		vectors bool
	}{{0, false}, {0, true}, {700, true}} {
		vectors := tc.vectors
		name := fmt.Sprintf("vectors=%v, T·2^%d", vectors, tc.scale)
		d0, e0 := testmat.RandomTridiagonal(testmat.NewRand(21), n)
		scaleExp(d0, tc.scale)
		scaleExp(e0, tc.scale)
		a := testmat.Tridiagonal(d0, e0)
		d, e := slices.Clone(d0), slices.Clone(e0)
		var z Dense
		if vectors {
			z = *NewDense(n, n, nil)
		}
		err := steqr(d, e, z)
		var ce *ConvergenceError
		if !errors.Is(err, ErrNoConvergence) || !errors.As(err, &ce) {
			t.Fatalf("%s: err = %v, want a *ConvergenceError", name, err)
		}
		if ce.Iterations != n {
			t.Errorf("%s: %d iterations reported, want %d", name, ce.Iterations, n)
		}
		if !vectors {
			continue
		}
		zm := testmat.Matrix(z)
		back := testmat.Mul(testmat.Mul(zm, testmat.Tridiagonal(d, e)), testmat.T(zm))
		if r := testmat.NormOne(testmat.Sub(back, a)) / (n * testmat.Eps * testmat.NormOne(a)); r > 30 {
			t.Errorf("%s: ‖Z·T'·Zᵀ − T‖/(nε‖T‖) = %.3g after failure, want < 30", name, r)
		}
	}

	// stedc reports the failure of a leaf (steqr) and of the secular
	// equation alike.
	d, e := testmat.RandomTridiagonal(testmat.NewRand(22), 4*stedcCutoff)
	if err := stedc(d, e, *NewDense(len(d), len(d), nil)); !errors.Is(err, ErrNoConvergence) {
		t.Errorf("stedc with a failing leaf: err = %v, want ErrNoConvergence", err)
	}
	steqrMaxIter = 30
	defer func(m int) { secularMaxIter = m }(secularMaxIter)
	secularMaxIter = 1
	d, e = testmat.RandomTridiagonal(testmat.NewRand(22), 4*stedcCutoff)
	if err := stedc(d, e, *NewDense(len(d), len(d), nil)); !errors.Is(err, ErrNoConvergence) {
		t.Errorf("stedc with a failing secular equation: err = %v, want ErrNoConvergence", err)
	}
}

func TestTridiagPanics(t *testing.T) {
	for _, s := range tridiagSolvers {
		for _, tc := range []struct {
			name string
			d, e []float64
			z    Dense
		}{
			{"short e", make([]float64, 3), make([]float64, 1), Dense{}},
			{"long e", make([]float64, 3), make([]float64, 3), Dense{}},
			{"e without d", nil, make([]float64, 1), Dense{}},
			{"z not square", make([]float64, 3), make([]float64, 2), *NewDense(3, 2, nil)},
			{"z too small", make([]float64, 3), make([]float64, 2), *NewDense(2, 2, nil)},
		} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("%s: %s did not panic", s.name, tc.name)
					}
				}()
				s.solve(tc.d, tc.e, tc.z)
			}()
		}
	}
}

// TestTridiagNotFinite: NaN and ±Inf are the caller's to reject, but the
// solvers must still return — with an error or with a non-finite result,
// never a hang or finite garbage.
func TestTridiagNotFinite(t *testing.T) {
	const n = 2*32 + 7 // past stedc's cut-off
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		for _, at := range []int{0, 37, n - 2} {
			for _, inE := range []bool{false, true} {
				d, e := testmat.RandomTridiagonal(testmat.NewRand(23), n)
				if inE {
					e[at] = bad
				} else {
					d[at] = bad
				}
				for _, s := range tridiagSolvers {
					for _, vectors := range []bool{false, true} {
						var z Dense
						if vectors {
							z = *NewDense(n, n, nil)
						}
						dd := slices.Clone(d)
						err := s.solve(dd, slices.Clone(e), z)
						if err == nil && !slices.ContainsFunc(dd, func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }) {
							t.Errorf("%s, vectors=%v, %v at %d (in e: %v): finite eigenvalues and no error", s.name, vectors, bad, at, inE)
						}
					}
				}
			}
		}
	}
}
