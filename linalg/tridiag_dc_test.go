package linalg

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"rkhs/internal/testmat"
)

// TestStedcDeterministic: d and Z from stedc are bit-identical whatever the
// number of goroutines, for an input with heavy deflation (random) and one
// with little (Clement), large enough that leaves, merges, roots, row
// passes and GEMMs all run in parallel.
func TestStedcDeterministic(t *testing.T) {
	const n = 600
	rd, re := testmat.RandomTridiagonal(testmat.NewRand(31), n)
	cm, _ := testmat.Clement(n)
	cd, ce := testmat.TridiagonalParts(cm)
	for _, in := range []struct {
		name string
		d, e []float64
	}{{"random", rd, re}, {"Clement", cd, ce}} {
		var d0 []float64
		var z0 *Dense
		for _, procs := range []int{1, 2, 8} {
			d, e := slices.Clone(in.d), slices.Clone(in.e)
			z := NewDense(n, n, nil)
			withProcs(t, procs, func() {
				if err := stedc(d, e, *z); err != nil {
					t.Fatal(err)
				}
			})
			if z0 == nil {
				d0, z0 = d, z
				continue
			}
			if !testmat.Identical(testmat.Matrix(*z), testmat.Matrix(*z0)) ||
				!testmat.Identical(testmat.Matrix{Rows: 1, Cols: n, Stride: n, Data: d}, testmat.Matrix{Rows: 1, Cols: n, Stride: n, Data: d0}) {
				t.Errorf("%s: GOMAXPROCS=%d gives a different result from GOMAXPROCS=1", in.name, procs)
			}
		}
	}
}

// TestCalibrateTridiagDC times stedc with vectors for a sweep of cut-offs
// (the largest subproblem handed to steqr), on the tridiagonal form of a
// random dense symmetric matrix (little deflation) and on a random
// tridiagonal matrix (much), so that stedcCutoff can be re-derived:
//
//	go test ./linalg -run CalibrateTridiagDC -calibrate -v
func TestCalibrateTridiagDC(t *testing.T) {
	if !*calibrate {
		t.Skip("cut-off calibration runs only with -calibrate")
	}
	defer func(c int) { stedcCutoff = c }(stedcCutoff)
	for _, n := range []int{500, 2000} {
		for _, in := range []string{"dense", "random"} {
			var d0, e0 []float64
			if in == "dense" {
				d0, e0 = denseTridiagonal(testmat.NewRand(1), n)
			} else {
				d0, e0 = testmat.RandomTridiagonal(testmat.NewRand(1), n)
			}
			z := NewDense(n, n, nil)
			for _, c := range []int{16, 24, 32, 48, 64, 96, 128} {
				stedcCutoff = c
				best := time.Duration(math.MaxInt64)
				for range 5 {
					d, e := slices.Clone(d0), slices.Clone(e0)
					start := time.Now()
					if err := stedc(d, e, *z); err != nil {
						t.Fatal(err)
					}
					best = min(best, time.Since(start))
				}
				t.Logf("%s n=%d cut-off %3d: %v", in, n, c, best)
			}
		}
	}
}

// denseTridiagonal returns a tridiagonal matrix distributed as the
// Householder tridiagonal form of a random dense symmetric matrix with
// N(0, 1) entries (the Gaussian orthogonal ensemble, after Dumitriu and
// Edelman): d_i ~ N(0, 2) and e_i ~ χ with n−1−i degrees of freedom. Its
// eigenvectors are spread out, so divide and conquer deflates little: the
// slow case, and the one the dense eigensolver hands to stedc.
func denseTridiagonal(rnd *rand.Rand, n int) (d, e []float64) {
	d = make([]float64, n)
	e = make([]float64, max(n-1, 0))
	for i := range d {
		d[i] = math.Sqrt2 * rnd.NormFloat64()
	}
	for i := range e {
		var s float64
		for range n - 1 - i {
			g := rnd.NormFloat64()
			s += g * g
		}
		e[i] = math.Sqrt(s)
	}
	return d, e
}

func TestDenseTridiagonalHelper(t *testing.T) {
	// The spectrum of the GOE model fills [−2√n, 2√n] (the semicircle).
	const n = 400
	d, e := denseTridiagonal(testmat.NewRand(32), n)
	if err := steqr(d, e, Dense{}); err != nil {
		t.Fatal(err)
	}
	if lo, hi := d[0]/math.Sqrt(n), d[n-1]/math.Sqrt(n); math.Abs(lo+2) > 0.2 || math.Abs(hi-2) > 0.2 {
		t.Errorf("spectrum/√n spans [%.3g, %.3g], want about [−2, 2]", lo, hi)
	}
}
