package linalg

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"rkhs/internal/testmat"
)

// bdsdcRun runs bdsdc on copies of d and e with the given cut-off and
// returns the singular values and the vectors as testmat matrices.
func bdsdcRun(t *testing.T, d0, e0 []float64, cutoff int) (s []float64, u, w testmat.Matrix) {
	t.Helper()
	defer func(c int) { bdsdcCutoff = c }(bdsdcCutoff)
	bdsdcCutoff = cutoff
	n := len(d0)
	d, e := slices.Clone(d0), slices.Clone(e0)
	u, w = testmat.New(n, n, 3), testmat.New(n, n, 1) // padded strides
	if err := bdsdc(d, e, Dense(u), Dense(w)); err != nil {
		t.Fatal(err)
	}
	if !testmat.PaddingIntact(u) || !testmat.PaddingIntact(w) {
		t.Errorf("bdsdc wrote into the padding of u or w")
	}
	for i := range d {
		if d[i] < 0 || (i > 0 && d[i] > d[i-1]) || math.IsNaN(d[i]) {
			t.Fatalf("values not descending and non-negative: σ[%d] = %v after %v", i, d[i], d[max(i-1, 0)])
		}
	}
	return d, u, w
}

// TestBdsdc checks the divide and conquer on bidiagCases with cut-offs so
// small that every matrix is merged several times (leaves of one to four
// rows, with and without the extra column): the singular values against
// the exact ones to the normwise bound c·n·ε·σ₁ that the method guarantees,
// and the vectors by the LAPACK ratios.
func TestBdsdc(t *testing.T) {
	sizes := []int{1, 2, 3, 5, 9, 12, 33}
	if testing.Short() {
		sizes = []int{3, 9, 12}
	}
	for _, tc := range bidiagCases(sizes) {
		for _, cutoff := range []int{2, 4} {
			t.Run(fmt.Sprintf("%s/cutoff=%d", tc.name, cutoff), func(t *testing.T) {
				n := len(tc.d)
				want := testmat.BidiagonalSingularValues(tc.d, tc.e)
				s, u, w := bdsdcRun(t, tc.d, tc.e, cutoff)
				for i := range s {
					if d := math.Abs(s[i] - want[i]); d > 4*float64(n)*testmat.Eps*want[0] {
						t.Errorf("σ[%d] = %v, want %v (error %.3g σ₁, bound %d·ε·σ₁)", i, s[i], want[i], d/want[0], 4*n)
					}
				}
				res, ou, ow := bidiagRatios(tc.d, tc.e, s, u, w)
				if res > 30 || ou > 30 || ow > 30 {
					t.Errorf("residual %.3g, ‖UᵀU−I‖ %.3g, ‖WᵀW−I‖ %.3g (ratios), want < 30", res, ou, ow)
				}
			})
		}
	}
}

// TestBdsdcLarge checks bdsdc on larger matrices, with the default cut-off
// and a small one, against bdsqr's values (relatively accurate, so an
// oracle for the normwise bound): random, graded, glued copies of the
// matrix of ones joined by tiny entries (clusters that deflate in bulk),
// and a matrix with many zero diagonal entries (rank deficient).
func TestBdsdcLarge(t *testing.T) {
	sizes := []int{100, 301}
	if testing.Short() {
		sizes = []int{100}
	}
	rnd := testmat.NewRand(5)
	for _, n := range sizes {
		cases := bidiagCases([]int{n})[:4]
		d, e := make([]float64, n), make([]float64, n-1)
		for i := range d {
			d[i] = 1
		}
		for i := range e {
			e[i] = 1
			if i%20 == 19 {
				e[i] = 1e-12
			}
		}
		cases = append(cases, bidiagCase{fmt.Sprintf("glued/n=%d", n), d, e})
		d, e = make([]float64, n), make([]float64, n-1)
		for i := range d {
			if i%3 != 0 {
				d[i] = 2*rnd.Float64() - 1
			}
		}
		for i := range e {
			e[i] = 2*rnd.Float64() - 1
		}
		cases = append(cases, bidiagCase{fmt.Sprintf("rank-deficient/n=%d", n), d, e})
		for _, tc := range cases {
			for _, cutoff := range []int{bdsdcCutoff, 6} {
				t.Run(fmt.Sprintf("%s/cutoff=%d", tc.name, cutoff), func(t *testing.T) {
					want, e := slices.Clone(tc.d), slices.Clone(tc.e)
					if err := bdsqr(want, e, Dense{}, Dense{}); err != nil {
						t.Fatal(err)
					}
					s, u, w := bdsdcRun(t, tc.d, tc.e, cutoff)
					worst := 0.0
					for i := range s {
						worst = math.Max(worst, math.Abs(s[i]-want[i])/want[0])
					}
					if worst > 4*float64(n)*testmat.Eps {
						t.Errorf("max |σ − σ(bdsqr)| = %.3g σ₁, want ≤ %d·ε·σ₁", worst, 4*n)
					}
					res, ou, ow := bidiagRatios(tc.d, tc.e, s, u, w)
					if res > 30 || ou > 30 || ow > 30 {
						t.Errorf("residual %.3g, ‖UᵀU−I‖ %.3g, ‖WᵀW−I‖ %.3g (ratios), want < 30", res, ou, ow)
					}
				})
			}
		}
	}
}

// TestBdsdcDeterministic: d, U and W from bdsdc are bit-identical whatever
// the number of goroutines, on a matrix large enough that leaves, merges,
// roots, row passes and GEMMs all run in parallel.
func TestBdsdcDeterministic(t *testing.T) {
	n := 500
	if testing.Short() {
		n = 200
	}
	d0, e0 := bidiagCases([]int{n})[0].d, bidiagCases([]int{n})[0].e
	var s1 []float64
	var u1, w1 testmat.Matrix
	for _, procs := range []int{1, 2, 8} {
		var s []float64
		var u, w testmat.Matrix
		withProcs(t, procs, func() { s, u, w = bdsdcRun(t, d0, e0, bdsdcCutoff) })
		if procs == 1 {
			s1, u1, w1 = s, u, w
			continue
		}
		if !slices.Equal(s, s1) || !testmat.Identical(u, u1) || !testmat.Identical(w, w1) {
			t.Errorf("GOMAXPROCS=%d gives a different result from GOMAXPROCS=1", procs)
		}
	}
}
