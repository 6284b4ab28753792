package linalg

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"testing"

	"rkhs/internal/testmat"
)

// svdSuiteSpectra are the singular values of TestSVDSuite's matrices
// U₀·diag(s)·V₀ᵀ, as functions of k = min(m, n).
var svdSuiteSpectra = []struct {
	name string
	s    func(k int) []float64
}{
	{"geometric-1e14", func(k int) []float64 { return testmat.GeometricSpectrum(k, 1e14) }},
	{"arithmetic-1e14", func(k int) []float64 { return testmat.ArithmeticSpectrum(k, 1e14) }},
	{"geometric-1e4", func(k int) []float64 { return testmat.GeometricSpectrum(k, 1e4) }},
	{"clustered", func(k int) []float64 {
		s := make([]float64, k)
		for i := range s {
			s[i] = 1 + 1e-13*float64(k-i) // within 1e-10 of 1
		}
		s[0], s[k-1] = 100, 1e-6
		return s
	}},
	{"repeated", func(k int) []float64 {
		s := make([]float64, k)
		for i := range s {
			s[i] = float64(1 + (k-1-i)/8) // groups of eight equal values
		}
		return s
	}},
	{"rank-deficient", func(k int) []float64 {
		s := testmat.GeometricSpectrum(k, 1e3)
		for i := (2 * k) / 3; i < k; i++ {
			s[i] = 0
		}
		return s
	}},
}

// svdSuiteShapes straddle the block sizes of the bidiagonal route: its
// panels (bidiagNB = 32), the leaves of the divide and conquer
// (bdsdcCutoff = 32), the WY blocks of the back-transformation
// (householderNB = 64: 64×64 and 65×65 have 64 and 65 reflectors in Q,
// 65×65 and 66×66 the same in P), the default switch to the Jacobi route
// (svdJacobiMax = 64), the QR's single panel (qrWide = 96) and the QR
// before the bidiagonalization (svdQRRatio = 2); tall and wide.
var svdSuiteShapes = []struct {
	m, n  int
	short bool
}{
	{1, 1, true}, {2, 2, true}, {31, 31, true}, {33, 33, true}, {64, 64, false}, {65, 65, true}, {66, 66, false},
	{97, 97, false}, {127, 127, false}, {129, 129, true}, {160, 33, true}, {33, 160, true},
	{130, 97, false}, {97, 130, true}, {300, 129, false}, {129, 300, false}, {257, 256, false},
}

// TestSVDSuite is the LAPACK-style accuracy matrix of the SVD: for every
// spectrum of svdSuiteSpectra and shape of svdSuiteShapes (with a stride
// wider than the width), the bidiagonal route, the default route and the
// Jacobi route must give residual and orthogonality ratios below 30; the
// values must match the chosen spectrum and each other to the normwise
// bound 30·max(m,n)·ε·σ₁ (the accuracy both routes guarantee), and the
// values alone (bdsqr after the reduction) must match those computed with
// vectors (divide and conquer) to the same bound. The worst ratios are
// logged (go test -run SVDSuite -v).
func TestSVDSuite(t *testing.T) {
	rnd := testmat.NewRand(70)
	var worst struct{ res, orth, val float64 }
	for _, sh := range svdSuiteShapes {
		if testing.Short() && !sh.short {
			continue
		}
		k := min(sh.m, sh.n)
		for _, sp := range svdSuiteSpectra {
			want := sp.s(k)
			a := testmat.WithSingularValues(rnd, sh.m, sh.n, want, 3)
			slices.SortFunc(want, func(x, y float64) int { return cmp.Compare(y, x) }) // descending
			bound := 30 * float64(max(sh.m, sh.n)) * testmat.Eps * want[0]
			if bound == 0 {
				bound = math.SmallestNonzeroFloat64 // A = 0: σ must be exactly 0
			}
			var jac []float64
			for _, kind := range []SVDKind{SVDJacobi, SVDBidiagonal, SVDThin, SVDFull | SVDBidiagonal} {
				if kind == SVDFull|SVDBidiagonal && max(sh.m, sh.n) > 160 {
					continue
				}
				name := fmt.Sprintf("%dx%d/%s/%s", sh.m, sh.n, sp.name, routeName(kind))
				if kind&SVDFull != 0 {
					name += "/full"
				}
				t.Run(name, func(t *testing.T) {
					res, ou, ov, s := svdRatios(t, a, kind)
					if res > 30 || ou > 30 || ov > 30 {
						t.Errorf("residual %.3g, ‖UᵀU−I‖ %.3g, ‖VᵀV−I‖ %.3g (ratios), want < 30", res, ou, ov)
					}
					worst.res = math.Max(worst.res, res)
					worst.orth = math.Max(worst.orth, math.Max(ou, ov))
					got := s.Values(nil)
					if kind == SVDJacobi {
						jac = got
					}
					for i := range got {
						d := math.Max(math.Abs(got[i]-want[i]), math.Abs(got[i]-jac[i]))
						worst.val = math.Max(worst.val, d/bound*30)
						if d > bound {
							t.Errorf("σ[%d] = %v, want %v (Jacobi route: %v)", i, got[i], want[i], jac[i])
						}
					}
					if kind == SVDBidiagonal {
						da := Dense(a)
						var v SVD
						if err := v.Factorize(&da, SVDValues|SVDBidiagonal); err != nil {
							t.Fatal(err)
						}
						for i, x := range v.Values(nil) {
							if math.Abs(x-got[i]) > bound {
								t.Errorf("values only: σ[%d] = %v, with vectors %v", i, x, got[i])
							}
						}
					}
				})
			}
		}
	}
	t.Logf("worst ratios: residual %.2f, orthogonality %.2f, |σ − σ(exact or Jacobi)|/(max(m,n)·ε·σ₁) %.2f", worst.res, worst.orth, worst.val)
}

// TestSVDGradedRelative: on a graded matrix A = Q·B, B bidiagonal with a
// diagonal falling by 2⁻⁸ per row and much smaller superdiagonal entries
// (so that B·D⁻¹, D its column norms, is well conditioned), the singular
// values span about 10²⁶, and the Jacobi route (explicitly requested, and
// the default for this size) must find every one to a few hundred ulps
// relative: the guarantee of Demmel and Veselić (which the Jacobi route
// keeps down to about ε²·σ₁; smaller values are returned as 0). The exact
// values come from testmat.BidiagonalSingularValues.
func TestSVDGradedRelative(t *testing.T) {
	rnd := testmat.NewRand(71)
	n := 12
	d, e := make([]float64, n), make([]float64, n-1)
	for i := range d {
		d[i] = math.Ldexp(1+rnd.Float64(), -8*i)
	}
	for i := range e {
		e[i] = math.Ldexp(2*rnd.Float64()-1, -8*i-16)
	}
	want := testmat.BidiagonalSingularValues(d, e)
	a := testmat.Mul(testmat.Orthogonal(rnd, n), testmat.Bidiagonal(d, e))
	for _, kind := range []SVDKind{SVDJacobi, SVDThin} {
		da := Dense(a)
		var s SVD
		if err := s.Factorize(&da, kind); err != nil {
			t.Fatal(err)
		}
		for i, x := range s.Values(nil) {
			if err := testmat.RelErr(x, want[i]); err > 300*testmat.Eps {
				t.Errorf("%s: σ[%d] = %v, want %v (relative error %.3g)", routeName(kind), i, x, want[i], err)
			}
		}
	}
}
