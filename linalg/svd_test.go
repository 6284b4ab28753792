package linalg

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"rkhs/internal/testmat"
)

// svdRoutes are the two routes of SVD.Factorize, which every general test
// runs.
var svdRoutes = []SVDKind{SVDJacobi, SVDBidiagonal}

// routeName names a route for subtest names.
func routeName(kind SVDKind) string {
	switch kind & (SVDJacobi | SVDBidiagonal) {
	case SVDJacobi:
		return "jacobi"
	case SVDBidiagonal:
		return "bidiagonal"
	}
	return "default"
}

// svdRatios factors a with the given kind (SVDThin or SVDFull, with a
// route) and returns the LAPACK test ratios of the result:
// ‖A − UΣVᵀ‖/(max(m,n)·ε·‖A‖) over the first k columns, ‖UᵀU − I‖/(m·ε)
// and ‖VᵀV − I‖/(n·ε) over all of them. It fails the test if Factorize
// fails, a is modified, the shapes are wrong or the values are not
// descending and non-negative.
func svdRatios(t *testing.T, a testmat.Matrix, kind SVDKind) (res, orthU, orthV float64, s *SVD) {
	t.Helper()
	m, n := a.Rows, a.Cols
	k := min(m, n)
	a0 := a.Clone()
	da := Dense(a)
	s = new(SVD)
	if err := s.Factorize(&da, kind); err != nil {
		t.Fatalf("Factorize: %v", err)
	}
	if !testmat.Identical(a, a0) {
		t.Fatalf("Factorize modified its input (or its padding)")
	}
	uc, vc := k, k
	if kind&^(SVDJacobi|SVDBidiagonal) == SVDFull {
		uc, vc = m, n
	}
	ud := Dense(testmat.New(m, uc, 1)) // padded: To must not write past Cols
	vd := Dense(testmat.New(n, vc, 2))
	u := testmat.Matrix(*s.UTo(&ud))
	v := testmat.Matrix(*s.VTo(&vd))
	if !testmat.PaddingIntact(u) || !testmat.PaddingIntact(v) {
		t.Errorf("UTo or VTo wrote into the padding of dst")
	}
	sv := s.Values(nil)
	if len(sv) != k {
		t.Fatalf("%d singular values, want %d", len(sv), k)
	}
	for i, x := range sv {
		if x < 0 || (i > 0 && x > sv[i-1]) || math.IsNaN(x) {
			t.Fatalf("values not descending and non-negative: σ[%d] = %v after %v", i, x, sv[max(i-1, 0)])
		}
	}
	uk, vk := u, v
	uk.Cols, vk.Cols = k, k
	return testmat.SVDResidual(a, uk, sv, vk), testmat.Orthogonality(u), testmat.Orthogonality(v), s
}

// svdShapes cover 1×1, single rows and columns, square sizes around the
// Jacobi block (16) and the QR's single-panel limit (96), tall (m = 10n)
// and wide (n = 3m) matrices, and the chunked QR of very tall ones (the
// 100000×50 benchmark shape at a smaller m).
var svdShapes = []struct {
	m, n  int
	short bool // run with -short
}{
	{1, 1, true}, {1, 7, true}, {7, 1, true}, {2, 2, true}, {5, 3, true}, {3, 5, true},
	{15, 15, true}, {16, 16, true}, {17, 17, true}, {33, 31, true}, {40, 40, true},
	{96, 96, true}, {97, 97, true}, {130, 129, true},
	{200, 20, true}, {20, 200, true}, {30, 90, true}, {300, 30, true},
	{4100, 40, true}, {40, 4100, true}, {5000, 50, false}, {260, 250, false},
}

func TestSVDFactorize(t *testing.T) {
	rnd := testmat.NewRand(50)
	for _, sz := range svdShapes {
		if testing.Short() && !sz.short {
			continue
		}
		pad := (sz.m + 2*sz.n) % 3
		a := testmat.Random(rnd, sz.m, sz.n, pad)
		kinds := []SVDKind{SVDThin}
		if max(sz.m, sz.n) <= 300 {
			kinds = append(kinds, SVDFull)
		}
		for _, route := range svdRoutes {
			for _, kind := range kinds {
				t.Run(fmt.Sprintf("m=%d/n=%d/pad=%d/%s/full=%v", sz.m, sz.n, pad, routeName(route), kind == SVDFull), func(t *testing.T) {
					res, ou, ov, s := svdRatios(t, a, kind|route)
					if res > 30 || ou > 30 || ov > 30 {
						t.Errorf("residual %.3g, ‖UᵀU−I‖ %.3g, ‖VᵀV−I‖ %.3g (ratios), want < 30", res, ou, ov)
					}
					if r := s.Rank(0); r != min(sz.m, sz.n) {
						t.Errorf("Rank(0) = %d, want %d for a random matrix", r, min(sz.m, sz.n))
					}
				})
			}
		}
	}
}

// TestSVDPaths forces each way of forming U — accumulated rotations
// (U = Q·[J; 0]) and the QR of B·V — on the same matrices, tall, square and
// wide, well and badly conditioned and rank deficient.
func TestSVDPaths(t *testing.T) {
	defer func(r int) { svdTallRatio = r }(svdTallRatio)
	rnd := testmat.NewRand(58)
	for _, tc := range []struct {
		name string
		a    testmat.Matrix
	}{
		{"square", testmat.Random(rnd, 70, 70, 1)},
		{"tall", testmat.Random(rnd, 300, 40, 0)},
		{"wide", testmat.Random(rnd, 30, 90, 2)},
		{"cond=1e12", testmat.WithSingularValues(rnd, 60, 45, testmat.GeometricSpectrum(45, 1e12), 0)},
		{"rank 9", testmat.Mul(testmat.Random(rnd, 50, 9, 0), testmat.Random(rnd, 9, 40, 0))},
		// A zero column makes one row of R die away during a sweep, after
		// rotations have given it a scale ≠ 1 (see jacobiJob.zero).
		{"rank 13, zero column", func() testmat.Matrix {
			a := testmat.Mul(testmat.Random(rnd, 200, 13, 0), testmat.Random(rnd, 13, 40, 0))
			for i := 0; i < a.Rows; i++ {
				a.Set(i, 3, 0)
			}
			return a
		}()},
		{"chunked", testmat.Random(rnd, 4200, 30, 0)},
	} {
		for _, path := range []struct {
			name  string
			ratio int
		}{{"accumulate", 1}, {"qr of BV", 1 << 30}} {
			t.Run(tc.name+"/"+path.name, func(t *testing.T) {
				svdTallRatio = path.ratio
				for _, kind := range []SVDKind{SVDThin, SVDFull} {
					if kind == SVDFull && tc.a.Rows > 1000 {
						continue // the naive check of a 4200² U would take minutes
					}
					res, ou, ov, _ := svdRatios(t, tc.a, kind|SVDJacobi)
					if res > 30 || ou > 30 || ov > 30 {
						t.Errorf("full=%v: residual %.3g, ‖UᵀU−I‖ %.3g, ‖VᵀV−I‖ %.3g (ratios), want < 30", kind == SVDFull, res, ou, ov)
					}
				}
			})
		}
	}
}

// TestSVDKnownValues factors U₀·diag(s)·V₀ᵀ for chosen s and compares the
// computed values with s: singular values are perfectly conditioned in the
// absolute sense, |σᵢ − sᵢ| ≤ ‖δA‖, so the error is measured relative to
// σ₁ in units of max(m,n)·ε.
func TestSVDKnownValues(t *testing.T) {
	rnd := testmat.NewRand(51)
	geometric := func(k int, cond float64) []float64 { return testmat.GeometricSpectrum(k, cond) }
	repeated := func(k int, _ float64) []float64 {
		s := make([]float64, k)
		for i := range s {
			s[i] = 3
		}
		return s
	}
	clustered := func(k int, _ float64) []float64 {
		s := make([]float64, k)
		for i := range s {
			s[i] = 1 + 1e-12*float64(k-i) // all within 1e-10 of 1
		}
		s[0], s[k-1] = 10, 1e-3
		return s
	}
	pairs := func(k int, _ float64) []float64 { // repeated pairs, descending
		s := make([]float64, k)
		for i := range s {
			s[i] = float64(k/2 - i/2)
		}
		return s
	}
	withZeros := func(k int, _ float64) []float64 { // rank k/2
		s := testmat.GeometricSpectrum(k, 1e6)
		for i := k / 2; i < k; i++ {
			s[i] = 0
		}
		return s
	}
	for _, tc := range []struct {
		name     string
		spectrum func(k int, cond float64) []float64
		cond     float64
		rank     func(k int) int
	}{
		{"cond=1e12", geometric, 1e12, nil},
		{"cond=1e3", geometric, 1e3, func(k int) int { return k }},
		{"repeated", repeated, 0, func(k int) int { return k }},
		{"clustered", clustered, 0, func(k int) int { return k }},
		{"pairs", pairs, 0, func(k int) int { return k - k%2 }}, // odd k ends in a 0
		{"zeros", withZeros, 0, func(k int) int { return k / 2 }},
	} {
		for _, sz := range []struct{ m, n int }{{40, 40}, {120, 35}, {35, 120}, {4100, 24}, {150, 150}} {
			k := min(sz.m, sz.n)
			want := tc.spectrum(k, tc.cond)
			a := testmat.WithSingularValues(rnd, sz.m, sz.n, want, 1)
			for _, route := range svdRoutes {
				t.Run(fmt.Sprintf("%s/m=%d/n=%d/%s", tc.name, sz.m, sz.n, routeName(route)), func(t *testing.T) {
					res, ou, ov, s := svdRatios(t, a, route)
					if res > 30 || ou > 30 || ov > 30 {
						t.Errorf("residual %.3g, ‖UᵀU−I‖ %.3g, ‖VᵀV−I‖ %.3g (ratios), want < 30", res, ou, ov)
					}
					got := s.Values(nil)
					scale := float64(max(sz.m, sz.n)) * testmat.Eps * want[0]
					for i := range got {
						if d := math.Abs(got[i] - want[i]); d > 30*scale {
							t.Errorf("σ[%d] = %v, want %v (error %.3g units)", i, got[i], want[i], d/scale)
						}
					}
					if tc.rank != nil {
						if r := s.Rank(0); r != tc.rank(k) {
							t.Errorf("Rank(0) = %d, want %d", r, tc.rank(k))
						}
					}
				})
			}
		}
	}
}

// TestSVDRankDeficient: products B·C of rank r < k, with exact zero rows or
// columns mixed in, must give Rank(0) = r and still orthonormal U and V
// (the columns belonging to zero singular values are completed).
func TestSVDRankDeficient(t *testing.T) {
	rnd := testmat.NewRand(52)
	for _, tc := range []struct{ m, n, r int }{
		{30, 30, 1}, {30, 30, 17}, {50, 20, 5}, {20, 50, 19}, {200, 40, 13}, {4100, 30, 7}, {64, 64, 0},
	} {
		for _, route := range svdRoutes {
			t.Run(fmt.Sprintf("m=%d/n=%d/r=%d/%s", tc.m, tc.n, tc.r, routeName(route)), func(t *testing.T) {
				b := testmat.Random(rnd, tc.m, tc.r, 0)
				c := testmat.Random(rnd, tc.r, tc.n, 0)
				a := testmat.Mul(b, c)
				if tc.r == 0 {
					a = testmat.New(tc.m, tc.n, 0)
				}
				// Zero a row and a column: the rank stays r (or drops, which
				// the random factors make unlikely for r well below k).
				if tc.m > 3 && tc.n > 3 && tc.r < min(tc.m, tc.n)-2 {
					for j := 0; j < tc.n; j++ {
						a.Set(2, j, 0)
					}
					for i := 0; i < tc.m; i++ {
						a.Set(i, 3, 0)
					}
				}
				res, ou, ov, s := svdRatios(t, a, route)
				if res > 30 || ou > 30 || ov > 30 {
					t.Errorf("residual %.3g, ‖UᵀU−I‖ %.3g, ‖VᵀV−I‖ %.3g (ratios), want < 30", res, ou, ov)
				}
				if got := s.Rank(0); got != tc.r {
					t.Errorf("Rank(0) = %d, want %d (values %.3g)", got, tc.r, s.Values(nil))
				}
			})
		}
	}
}

// TestSVDSpecial: matrices at the edges of the floating-point range, a
// badly conditioned classic, graded columns and an orthogonal matrix.
func TestSVDSpecial(t *testing.T) {
	rnd := testmat.NewRand(53)
	scaled := func(m, n int, f float64) testmat.Matrix {
		a := testmat.Random(rnd, m, n, 0)
		for i := range a.Data {
			a.Data[i] *= f
		}
		return a
	}
	graded := testmat.Random(rnd, 60, 25, 0)
	for i := 0; i < graded.Rows; i++ {
		for j := 0; j < graded.Cols; j++ {
			graded.Set(i, j, graded.At(i, j)*math.Pow(1e-8, float64(j)))
		}
	}
	// The last two columns are tiny and nearly parallel, so the last two
	// rows of R are tiny too and their cosine needs the scaled dot product.
	tinyCol := testmat.Random(rnd, 30, 20, 0)
	for i := 0; i < tinyCol.Rows; i++ {
		tinyCol.Set(i, 18, 1e-300*tinyCol.At(i, 18))
		tinyCol.Set(i, 19, tinyCol.At(i, 18)*(1+1e-3*tinyCol.At(i, 19)))
	}
	for _, tc := range []struct {
		name string
		a    testmat.Matrix
	}{
		{"huge", scaled(40, 30, 1e300)},
		{"tiny", scaled(30, 40, 1e-300)},
		{"near underflow", scaled(20, 20, 1e-305)},
		{"hilbert", testmat.Hilbert(12)},
		{"graded columns", graded},
		{"tiny columns", tinyCol},
		{"orthogonal", testmat.Orthogonal(rnd, 33)},
		{"identity", testmat.Identity(20)},
	} {
		for _, route := range svdRoutes {
			t.Run(tc.name+"/"+routeName(route), func(t *testing.T) {
				res, ou, ov, _ := svdRatios(t, tc.a, route)
				if res > 30 || ou > 30 || ov > 30 || math.IsNaN(res+ou+ov) {
					t.Errorf("residual %.3g, ‖UᵀU−I‖ %.3g, ‖VᵀV−I‖ %.3g (ratios), want < 30", res, ou, ov)
				}
			})
		}
	}
}

// TestSVDSubnormal: a matrix of subnormal numbers is factored after an
// exact scaling, but σ and the product U·Σ·Vᵀ that checks it are rounded to
// the subnormal grid (spacing 2⁻¹⁰⁷⁴, far coarser than ε·‖A‖), so the
// residual is measured against both.
func TestSVDSubnormal(t *testing.T) {
	rnd := testmat.NewRand(59)
	a := testmat.Random(rnd, 20, 20, 0)
	for i := range a.Data {
		a.Data[i] *= 1e-310
	}
	for _, route := range svdRoutes {
		res, ou, ov, _ := svdRatios(t, a, route)
		n := float64(a.Rows)
		na := testmat.NormOne(a)
		abs := res * n * testmat.Eps * na
		if bound := 30 * n * (testmat.Eps*na + n*0x1p-1074); abs > bound || ou > 30 || ov > 30 {
			t.Errorf("%s: ‖A − UΣVᵀ‖ = %.3g (bound %.3g), ‖UᵀU−I‖ %.3g, ‖VᵀV−I‖ %.3g (ratios)", routeName(route), abs, bound, ou, ov)
		}
	}
}

// TestSVDOverflow: elements so close to the largest float64 that column
// norms overflow. σ₁ is then +Inf, but Factorize must not fail, and U and V
// must still be orthonormal (B is scaled before its QR).
func TestSVDOverflow(t *testing.T) {
	rnd := testmat.NewRand(64)
	for _, sz := range [][2]int{{30, 20}, {20, 30}, {2*tsqrChunk + 1, 10}} {
		a := testmat.Random(rnd, sz[0], sz[1], 1)
		for i := 0; i < a.Rows; i++ {
			for j := 0; j < a.Cols; j++ {
				a.Set(i, j, 0.9*math.MaxFloat64*a.At(i, j))
			}
		}
		for _, route := range svdRoutes {
			_, ou, ov, s := svdRatios(t, a, route)
			if ou > 30 || ov > 30 {
				t.Errorf("%v %s: ‖UᵀU−I‖ %.3g, ‖VᵀV−I‖ %.3g (ratios), want < 30", sz, routeName(route), ou, ov)
			}
			if w := s.Values(nil); !math.IsInf(w[0], 1) || math.IsNaN(w[len(w)-1]) {
				t.Errorf("%v %s: σ₁ = %v, σ_k = %v; want +Inf and a number", sz, routeName(route), w[0], w[len(w)-1])
			}
		}
	}
}

func TestSVDEmptyAndZero(t *testing.T) {
	for _, sz := range [][2]int{{0, 0}, {0, 5}, {5, 0}, {5000, 0}, {0, 5000}, {1, 1}, {6, 4}, {4, 6}, {5000, 3}, {70, 70}} {
		for _, kind := range []SVDKind{SVDThin, SVDThin | SVDBidiagonal, SVDFull, SVDFull | SVDBidiagonal} {
			if kind&SVDFull != 0 && max(sz[0], sz[1]) > 100 {
				continue
			}
			var s SVD
			a := NewDense(sz[0], sz[1], nil)
			if err := s.Factorize(a, kind); err != nil {
				t.Fatalf("%d×%d zero matrix: %v", sz[0], sz[1], err)
			}
			k := min(sz[0], sz[1])
			uc, vc := k, k
			if kind&SVDFull != 0 {
				uc, vc = sz[0], sz[1]
			}
			u, v, w := s.UTo(nil), s.VTo(nil), s.Values(nil)
			if u.Rows != sz[0] || u.Cols != uc || v.Rows != sz[1] || v.Cols != vc || len(w) != k {
				t.Errorf("%d×%d: U %d×%d, V %d×%d, %d values", sz[0], sz[1], u.Rows, u.Cols, v.Rows, v.Cols, len(w))
			}
			for _, x := range w {
				if x != 0 {
					t.Errorf("%d×%d zero matrix: σ = %v", sz[0], sz[1], w)
				}
			}
			if o := testmat.Orthogonality(testmat.Matrix(*u)) + testmat.Orthogonality(testmat.Matrix(*v)); o != 0 {
				t.Errorf("%d×%d zero matrix: U, V not orthonormal (%v)", sz[0], sz[1], o)
			}
			if r := s.Rank(0); r != 0 {
				t.Errorf("%d×%d zero matrix: Rank = %d", sz[0], sz[1], r)
			}
			b := NewDense(sz[0], 2, []float64(nil))
			for i := range b.Data {
				b.Data[i] = 1
			}
			x, r := s.SolveTo(nil, b, 0)
			if r != 0 || x.Rows != sz[1] || x.Cols != 2 || testmat.NormMax(testmat.Matrix(*x)) != 0 {
				t.Errorf("%d×%d zero matrix: SolveTo gives rank %d, X %v", sz[0], sz[1], r, x.Data)
			}
		}
	}
}

// TestSVDSolve compares SolveTo with the QR solution R·x = Qᵀ·b of a
// full-rank least-squares problem, and checks the minimum-norm solution of
// rank-deficient and underdetermined ones: the residual is orthogonal to
// the range of A (normal equations) and X is orthogonal to the null space.
func TestSVDSolve(t *testing.T) {
	rnd := testmat.NewRand(54)
	// Full rank, overdetermined.
	{
		m, n, p := 60, 20, 3
		a := testmat.Random(rnd, m, n, 1)
		b := testmat.Random(rnd, m, p, 2)
		da, db := Dense(a), Dense(b)
		var s SVD
		if err := s.Factorize(&da, SVDThin); err != nil {
			t.Fatal(err)
		}
		b0 := b.Clone()
		x, r := s.SolveTo(nil, &db, 0)
		if r != n {
			t.Errorf("full rank: rank %d, want %d", r, n)
		}
		if !testmat.Identical(b, b0) {
			t.Errorf("SolveTo modified b")
		}
		var qr QR
		if err := qr.Factorize(&da); err != nil {
			t.Fatal(err)
		}
		q := qr.QTo(nil)
		want := NewDense(n, p, nil)
		Gemm(Trans, NoTrans, 1, q, &db, 0, want)
		Trsm(Upper, NoTrans, qr.RTo(nil), want)
		if d := testmat.NormMax(testmat.Sub(testmat.Matrix(*x), testmat.Matrix(*want))); d > 1e-12*testmat.NormMax(testmat.Matrix(*want)) {
			t.Errorf("full rank: SolveTo differs from the QR solution by %v", d)
		}
	}
	// Rank deficient (r = 6 < n) and underdetermined (m < n) problems.
	for _, tc := range []struct{ m, n, r int }{{40, 30, 6}, {12, 30, 12}, {12, 30, 5}} {
		bf := testmat.Random(rnd, tc.m, tc.r, 0)
		cf := testmat.Random(rnd, tc.r, tc.n, 0)
		a := testmat.Mul(bf, cf)
		b := testmat.Random(rnd, tc.m, 2, 0)
		da, db := Dense(a), Dense(b)
		var s SVD
		if err := s.Factorize(&da, SVDFull|SVDBidiagonal); err != nil {
			t.Fatal(err)
		}
		x, r := s.SolveTo(nil, &db, 0)
		if r != tc.r {
			t.Errorf("%v: rank %d, want %d", tc, r, tc.r)
			continue
		}
		xm := testmat.Matrix(*x)
		// Normal equations: Aᵀ(A·X − B) = 0, relative to ‖A‖²·‖X‖ + ‖A‖·‖B‖.
		resid := testmat.Sub(testmat.Mul(a, xm), b)
		ne := testmat.Mul(testmat.T(a), resid)
		na := testmat.NormOne(a)
		if d := testmat.NormMax(ne); d > 1e-12*(na*na*testmat.NormMax(xm)+na*testmat.NormMax(b)) {
			t.Errorf("%v: ‖Aᵀ(AX − B)‖ = %v, not a least-squares solution", tc, d)
		}
		// Minimum norm: X has no component along the null space, spanned by
		// the last n − r columns of the full V, which are orthogonal to the
		// first r.
		v := testmat.Matrix(*s.VTo(nil))
		vr := testmat.New(tc.n, r, 0)
		for i := 0; i < tc.n; i++ {
			for j := 0; j < r; j++ {
				vr.Set(i, j, v.At(i, j))
			}
		}
		// X − V_r·V_rᵀ·X is the null-space component.
		proj := testmat.Mul(vr, testmat.Mul(testmat.T(vr), xm))
		if d := testmat.NormMax(testmat.Sub(xm, proj)); d > 1e-12*testmat.NormMax(xm) {
			t.Errorf("%v: X has a null-space component of size %v", tc, d)
		}
	}
	// dst = b for a square A solves in place.
	a := testmat.Random(rnd, 8, 8, 0)
	b := testmat.Random(rnd, 8, 2, 0)
	da, db := Dense(a), Dense(b.Clone())
	var s SVD
	if err := s.Factorize(&da, SVDBidiagonal); err != nil {
		t.Fatal(err)
	}
	want, _ := s.SolveTo(nil, &db, 0)
	got, _ := s.SolveTo(&db, &db, 0)
	if !testmat.Identical(testmat.Matrix(*got), testmat.Matrix(*want)) || got != &db {
		t.Errorf("SolveTo(b, b) differs from SolveTo(nil, b)")
	}
}

// TestSVDDeterministic: bit-identical values and vectors with 1, 2 and 8
// goroutines, for shapes whose Jacobi rounds, Gemm calls and chunked QR are
// split over goroutines.
func TestSVDDeterministic(t *testing.T) {
	rnd := testmat.NewRand(55)
	shapes := [][2]int{{300, 300}, {6000, 40}, {70, 400}}
	if testing.Short() {
		shapes = [][2]int{{150, 150}, {4100, 20}, {40, 200}}
	}
	for _, sh := range shapes {
		a := testmat.Random(rnd, sh[0], sh[1], 1)
		for _, route := range svdRoutes {
			var first [3]testmat.Matrix
			for _, procs := range []int{1, 2, 8} {
				var got [3]testmat.Matrix
				withProcs(t, procs, func() {
					da := Dense(a)
					var s SVD
					if err := s.Factorize(&da, route); err != nil {
						t.Fatal(err)
					}
					w := s.Values(nil)
					got = [3]testmat.Matrix{{Rows: 1, Cols: len(w), Stride: len(w), Data: w}, testmat.Matrix(*s.UTo(nil)), testmat.Matrix(*s.VTo(nil))}
				})
				if procs == 1 {
					first = got
					continue
				}
				for i, name := range []string{"values", "U", "V"} {
					if !testmat.Identical(got[i], first[i]) {
						t.Errorf("%v %s: %s with GOMAXPROCS=%d differ from GOMAXPROCS=1", sh, routeName(route), name, procs)
					}
				}
			}
		}
	}
}

// TestJacobiRescale makes the fast rotations fold their scales back into
// the rows after nearly every rotation (in real use only after about a
// hundred large ones), on both the accumulating and the QR of B·V path.
func TestJacobiRescale(t *testing.T) {
	defer func(s float64) { jacobiMinScale = s }(jacobiMinScale)
	jacobiMinScale = 0.999
	rnd := testmat.NewRand(60)
	for _, a := range []testmat.Matrix{testmat.Random(rnd, 300, 30, 0), testmat.Random(rnd, 60, 60, 1)} {
		res, ou, ov, _ := svdRatios(t, a, SVDJacobi)
		if res > 30 || ou > 30 || ov > 30 {
			t.Errorf("%d×%d: residual %.3g, ‖UᵀU−I‖ %.3g, ‖VᵀV−I‖ %.3g (ratios), want < 30", a.Rows, a.Cols, res, ou, ov)
		}
	}
}

// TestJacobiZero: a row that is dropped as noise during a sweep has a row
// scale from the fast rotations; its row of X is cleared, but its row of V
// (the accumulated rotations) must keep its true value, scale included.
func TestJacobiZero(t *testing.T) {
	x := Dense(testmat.Random(testmat.NewRand(61), 2, 3, 0))
	v := Dense(testmat.Random(testmat.NewRand(62), 2, 3, 0))
	v0 := testmat.Matrix(v).Clone()
	j := &jacobiJob{x: x, v: v, d: []float64{1, 1}, g: []float64{0.25, 1}}
	j.zero(0)
	for k := 0; k < 3; k++ {
		if got, want := v.At(0, k), 0.25*v0.At(0, k); got != want || x.At(0, k) != 0 {
			t.Errorf("after zero: V[0,%d] = %v, want %v; X[0,%d] = %v, want 0", k, got, want, k, x.At(0, k))
		}
	}
	if j.d[0] != 0 || j.g[0] != 1 {
		t.Errorf("after zero: norm %v, scale %v; want 0 and 1", j.d[0], j.g[0])
	}
}

// TestJacobiSweepLimit: a matrix that needs several sweeps, given one,
// reports a *ConvergenceError with the sweep count; given enough it
// converges with the count it needed.
func TestJacobiSweepLimit(t *testing.T) {
	n := 40
	x := Dense(testmat.Random(testmat.NewRand(56), n, n, 0))
	x2 := Dense(testmat.Random(testmat.NewRand(56), n, n, 0))
	v := Dense(testmat.New(n, n, 0))
	d := make([]float64, n)
	sweeps, err := jacobi(x, v, d, 1)
	var ce *ConvergenceError
	if !errors.Is(err, ErrNoConvergence) || !errors.As(err, &ce) || ce.Iterations != 1 || sweeps != 1 {
		t.Errorf("jacobi with 1 sweep: sweeps %d, err %v, want a *ConvergenceError after 1", sweeps, err)
	}
	sweeps, err = jacobi(x2, v, d, svdMaxSweeps)
	if err != nil || sweeps < 3 {
		t.Errorf("jacobi: %d sweeps, err %v; want convergence after at least 3", sweeps, err)
	}
}

// TestSVDPaddingNaN: NaN in the padding of A is not read, so it is not an
// error, for tall, wide and chunked shapes.
func TestSVDPaddingNaN(t *testing.T) {
	for _, sz := range [][2]int{{40, 30}, {30, 40}, {2*tsqrChunk + 3, 20}} {
		a := testmat.Random(testmat.NewRand(63), sz[0], sz[1], 2)
		for i := 0; i < a.Rows; i++ {
			a.Data[i*a.Stride+a.Cols] = math.NaN()
		}
		da := Dense(a)
		for _, route := range svdRoutes {
			var s SVD
			if err := s.Factorize(&da, route); err != nil {
				t.Errorf("%v %s with NaN padding: %v", sz, routeName(route), err)
			}
		}
	}
}

func TestSVDNotFinite(t *testing.T) {
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		for _, sz := range [][2]int{{9, 4}, {4, 9}, {2*tsqrChunk + 5, 6}, {90, 70}, {70, 200}} {
			for _, kind := range []SVDKind{SVDJacobi, SVDBidiagonal, SVDValues | SVDBidiagonal} {
				a := testmat.Random(testmat.NewRand(57), sz[0], sz[1], 1)
				a.Set(3, 2, bad)
				a0 := a.Clone()
				da := Dense(a)
				var s SVD
				err := s.Factorize(&da, kind)
				var fe *NotFiniteError
				if !errors.Is(err, ErrNotFinite) || !errors.As(err, &fe) || fe.Row != 3 || fe.Col != 2 {
					t.Errorf("%v: element (3,2) = %v: err = %v, want a *NotFiniteError at (3,2)", sz, bad, err)
				}
				if !testmat.Identical(a, a0) {
					t.Errorf("Factorize modified a matrix it rejected")
				}
				for name, f := range map[string]func(){
					"Values": func() { s.Values(nil) },
					"UTo":    func() { s.UTo(nil) },
					"Rank":   func() { s.Rank(0) },
				} {
					func() {
						defer func() {
							if recover() == nil {
								t.Errorf("%s after a failed factorization did not panic", name)
							}
						}()
						f()
					}()
				}
			}
		}
	}
}
