package linalg

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"rkhs/internal/testmat"
)

// TestSVD2x2 checks svd2x2 and singular2x2 on 2×2 upper triangular
// matrices of every scale and shape (zeros, equal diagonals, a dominant g,
// entries near underflow and overflow): both singular values against the
// exact ones (relative error of a few ulps), and the rotations by the
// residual of L·B·R = diag(smax, smin) relative to the largest entry.
func TestSVD2x2(t *testing.T) {
	rnd := testmat.NewRand(7)
	cases := [][3]float64{
		{1, 0, 1}, {0, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0, 1, 1}, {2, 1e-20, 1}, {1, 1e20, 1},
		{1, 1e300, 1e-300}, {1e-300, 1, 1e300}, {-3, 4, 5}, {3, -4, -5}, {1e-310, 1e-310, 1e-310},
		{1e307, 1e307, 1e307}, {1, 1, 1}, {1, 2, 1}, {5, 1e-17, 5 * (1 + 2e-16)},
	}
	for range 400 {
		var c [3]float64
		for i := range c {
			c[i] = math.Ldexp(2*rnd.Float64()-1, rnd.IntN(200)-100)
		}
		cases = append(cases, c)
	}
	for _, c := range cases {
		f, g, h := c[0], c[1], c[2]
		want := testmat.BidiagonalSingularValues([]float64{f, h}, []float64{g})
		smin, smax, cl, sl, cr, sr := svd2x2(f, g, h)
		vmin, vmax := singular2x2(f, g, h)
		for _, p := range []struct {
			name      string
			got, want float64
		}{{"|smax|", math.Abs(smax), want[0]}, {"|smin|", math.Abs(smin), want[1]}, {"σmax", vmax, want[0]}, {"σmin", vmin, want[1]}} {
			if err := testmat.RelErr(p.got, p.want); err > 8*testmat.Eps && math.Abs(p.got-p.want) > 0x1p-1070 {
				t.Errorf("f, g, h = %v, %v, %v: %s = %v, want %v (relative error %.3g)", f, g, h, p.name, p.got, p.want, err)
			}
		}
		// L·B·R with L = [cl sl; −sl cl], R = [cr −sr; sr cr], in a
		// scale where nothing overflows.
		sc := math.Ldexp(1, -exponentOf(math.Max(math.Abs(f), math.Max(math.Abs(g), math.Abs(h)))+0x1p-1074))
		fs, gs, hs := f*sc, g*sc, h*sc
		b00, b01 := cl*fs, cl*gs+sl*hs
		b10, b11 := -sl*fs, -sl*gs+cl*hs
		r := [4]float64{b00*cr + b01*sr - smax*sc, -b00*sr + b01*cr, b10*cr + b11*sr, -b10*sr + b11*cr - smin*sc}
		for i, v := range r {
			if math.Abs(v) > 8*testmat.Eps {
				t.Errorf("f, g, h = %v, %v, %v: (L·B·R − Σ)[%d] = %.3g (scaled to 1), want ≤ 8ε", f, g, h, i, v)
			}
		}
		if math.Abs(cl*cl+sl*sl-1) > 4*testmat.Eps || math.Abs(cr*cr+sr*sr-1) > 4*testmat.Eps {
			t.Errorf("f, g, h = %v, %v, %v: rotations not orthogonal: cl²+sl² = %v, cr²+sr² = %v", f, g, h, cl*cl+sl*sl, cr*cr+sr*sr)
		}
	}
}

// bidiagCase is an upper bidiagonal test matrix (diagonal d, superdiagonal
// e).
type bidiagCase struct {
	name string
	d, e []float64
}

// bidiagCases returns the bidiagonal matrices every bidiagonal SVD must
// handle: random ones, strongly graded ones in both directions (singular
// values over hundreds of orders of magnitude, which only a relatively
// accurate method gets right), zero diagonal entries (exact zero singular
// values) at the ends and inside, negligible off-diagonal entries (splits),
// the matrix of ones (known values), clustered and repeated values, and
// entries near underflow and overflow.
func bidiagCases(sizes []int) []bidiagCase {
	rnd := testmat.NewRand(11)
	var cases []bidiagCase
	fill := func(n int, fd, fe func(i int) float64) ([]float64, []float64) {
		d, e := make([]float64, n), make([]float64, max(n-1, 0))
		for i := range d {
			d[i] = fd(i)
		}
		for i := range e {
			e[i] = fe(i)
		}
		return d, e
	}
	uni := func(int) float64 { return 2*rnd.Float64() - 1 }
	for _, n := range sizes {
		add := func(name string, d, e []float64) {
			cases = append(cases, bidiagCase{fmt.Sprintf("%s/n=%d", name, n), d, e})
		}
		d, e := fill(n, uni, uni)
		add("random", d, e)
		d, e = fill(n, func(i int) float64 { return math.Ldexp(1+rnd.Float64(), -20*i) }, func(i int) float64 { return math.Ldexp(uni(i), -20*i-10) })
		add("graded-down", d, e)
		d, e = fill(n, func(i int) float64 { return math.Ldexp(1+rnd.Float64(), 20*(i-n)) }, func(i int) float64 { return math.Ldexp(uni(i), 20*(i-n)+10) })
		add("graded-up", d, e)
		d, e = fill(n, uni, uni)
		d[0], d[n/2], d[n-1] = 0, 0, 0
		add("zero-diagonal", d, e)
		d, e = fill(n, uni, func(i int) float64 {
			if i%3 == 1 {
				return 1e-30 * uni(i)
			}
			return uni(i)
		})
		add("splits", d, e)
		d, e = fill(n, func(int) float64 { return 1 }, func(int) float64 { return 1 })
		add("ones", d, e)
		d, e = fill(n, func(i int) float64 { return 1 + 1e-14*uni(i) }, func(i int) float64 { return 1e-9 * uni(i) })
		add("clustered", d, e)
		d, e = fill(n, func(i int) float64 { return float64(1 + i%3) }, func(int) float64 { return 0 })
		add("repeated", d, e)
		d, e = fill(n, func(i int) float64 { return 1e-305 * uni(i) }, func(i int) float64 { return 1e-305 * uni(i) })
		add("tiny", d, e)
		d, e = fill(n, func(i int) float64 { return 1e305 * uni(i) }, func(i int) float64 { return 1e305 * uni(i) })
		add("huge", d, e)
	}
	return cases
}

// bidiagRatios returns the residual ‖B − U·Σ·Wᵀ‖/(n·ε·‖B‖) and the
// orthogonality ratios of U and W for the bidiagonal B = (d, e) and the
// computed factors.
func bidiagRatios(d, e, s []float64, u, w testmat.Matrix) (res, ou, ow float64) {
	b := testmat.Bidiagonal(d, e)
	return testmat.SVDResidual(b, u, s, w), testmat.Orthogonality(u), testmat.Orthogonality(w)
}

// TestBdsqr checks bdsqr on bidiagCases: the singular values against the
// exact ones to a few ulps relative (the guarantee of Demmel and Kahan's
// method, which holds for graded matrices too), the vectors by the LAPACK
// ratios, and the values alone bit-identical to those computed with
// vectors.
func TestBdsqr(t *testing.T) {
	sizes := []int{1, 2, 3, 5, 12, 33}
	if testing.Short() {
		sizes = []int{1, 2, 3, 12}
	}
	for _, tc := range bidiagCases(sizes) {
		t.Run(tc.name, func(t *testing.T) {
			n := len(tc.d)
			want := testmat.BidiagonalSingularValues(tc.d, tc.e)
			d, e := slices.Clone(tc.d), slices.Clone(tc.e)
			ut, wt := testmat.Identity(n), testmat.Identity(n)
			if err := bdsqr(d, e, Dense(ut), Dense(wt)); err != nil {
				t.Fatal(err)
			}
			for i := range d {
				if err := testmat.RelErr(d[i], want[i]); err > 4*float64(n)*testmat.Eps {
					t.Errorf("σ[%d] = %v, want %v (relative error %.3g)", i, d[i], want[i], err)
				}
			}
			res, ou, ow := bidiagRatios(tc.d, tc.e, d, testmat.T(ut), testmat.T(wt))
			if res > 30 || ou > 30 || ow > 30 {
				t.Errorf("residual %.3g, ‖UᵀU−I‖ %.3g, ‖WᵀW−I‖ %.3g (ratios), want < 30", res, ou, ow)
			}
			d2, e2 := slices.Clone(tc.d), slices.Clone(tc.e)
			if err := bdsqr(d2, e2, Dense{}, Dense{}); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(d2, d) {
				t.Errorf("values only: %v, with vectors: %v, want the same", d2, d)
			}
		})
	}
}

// TestBdsqrNoConvergence forces the iteration limit.
func TestBdsqrNoConvergence(t *testing.T) {
	defer func(m int) { bdsqrMaxIter = m }(bdsqrMaxIter)
	bdsqrMaxIter = 0
	d, e := []float64{1, 2, 3, 4}, []float64{1, 1, 1}
	err := bdsqr(d, e, Dense{}, Dense{})
	var ce *ConvergenceError
	if !errors.Is(err, ErrNoConvergence) || !errors.As(err, &ce) {
		t.Fatalf("got %v, want a *ConvergenceError", err)
	}
}
