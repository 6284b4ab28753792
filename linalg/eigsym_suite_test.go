package linalg

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"rkhs/internal/testmat"
)

// The shared test suite of the symmetric eigensolvers of this package. Each
// solver runs it through an adapter to eigenSolver, for example
//
//	func TestEigenSymJacobi(t *testing.T) { testEigenSolver(t, jacobiSolver) }
//
// The thresholds are those of LAPACK's tests (a scaled ratio below 30 for a
// backward-stable method), so the suite asks for absolute accuracy ε·‖A‖
// only; solvers that promise more (relative accuracy) test it on their own.

// eigenSolver factors the symmetric matrix whose lower triangle is in a.
// It returns the eigenvalues in ascending order and, if wantVectors, the
// n×n matrix whose column j is the unit eigenvector of values[j]; vectors
// is nil when not wanted. It must not modify a (nor its padding) and must
// not read its strict upper triangle.
type eigenSolver func(a *Dense, wantVectors bool) (values []float64, vectors *Dense, err error)

// eigenCase is a test matrix, both triangles filled, with its eigenvalues in
// ascending order when they are known (want is nil otherwise).
type eigenCase struct {
	name string
	a    testmat.Matrix
	want []float64
	// positive: the matrix is positive definite and every computed
	// eigenvalue must be > 0 (Hilbert: λ_min ≈ 1.1e-13 ≫ n·ε·‖A‖).
	positive bool
}

// eigenCases returns the table the suite runs: sizes from 0 to 150 with
// closed-form, chosen or exactly computed spectra, and shapes that are hard
// for one method or another (repeated and clustered eigenvalues, zeros, a
// condition of 1e12, close pairs, extreme scaling).
func eigenCases() []eigenCase {
	rnd := testmat.NewRand(40)
	var cs []eigenCase
	add := func(name string, a testmat.Matrix, want []float64) {
		cs = append(cs, eigenCase{name: name, a: a, want: want})
	}

	add("n=0", testmat.New(0, 0, 0), []float64{})
	add("1×1", testmat.Diagonal([]float64{-3.5}), []float64{-3.5})
	add("2×2", fullSym(2, 2, 1, 2), []float64{1, 3})
	add("2×2 negative", fullSym(2, -1, 4, 2), []float64{(1 - math.Sqrt(73)) / 2, (1 + math.Sqrt(73)) / 2})
	add("2×2 close", fullSym(2, 1, 1e-9, 1), []float64{1 - 1e-9, 1 + 1e-9})
	add("2×2 zero diagonal", fullSym(2, 0, 1, 0), []float64{-1, 1})
	for _, n := range []int{1, 5, 40} {
		add(fmt.Sprintf("zero n=%d", n), testmat.New(n, n, 0), make([]float64, n))
	}
	for _, n := range []int{1, 7, 64} {
		add(fmt.Sprintf("identity n=%d", n), testmat.Identity(n), repeat(1, n))
	}
	add("diagonal", testmat.Diagonal([]float64{3, -1, 0, 2.5, -7, 0, 1e-3, 3}), []float64{-7, -1, 0, 0, 1e-3, 2.5, 3, 3})
	for _, n := range []int{3, 10, 33, 64, 65, 150} {
		a, w := testmat.SecondDifference(n)
		add(fmt.Sprintf("second difference n=%d", n), a, w)
	}
	for _, n := range []int{2, 7, 8, 31, 64} {
		a, w := testmat.Clement(n)
		add(fmt.Sprintf("Clement n=%d", n), a, w)
	}
	{
		// Tridiagonal and split in two by a zero off-diagonal: the
		// spectra of second-difference matrices of orders 12 and 9.
		a, _ := testmat.SecondDifference(21)
		a.Set(12, 11, 0)
		a.Set(11, 12, 0)
		_, w1 := testmat.SecondDifference(12)
		_, w2 := testmat.SecondDifference(9)
		add("split tridiagonal n=21", a, sorted(append(w1, w2...)))
	}
	// Chosen spectra Q·diag(d)·Qᵀ.
	spectrum := func(name string, d []float64) {
		add(name, testmat.WithSpectrum(rnd, d, 0), sorted(d))
	}
	for _, n := range []int{5, 40, 100} {
		spectrum(fmt.Sprintf("geometric cond=1e12 n=%d", n), testmat.GeometricSpectrum(n, 1e12))
	}
	for _, n := range []int{9, 50} {
		d := make([]float64, n) // −1, 0 and 1, each about n/3 times
		for i := range d {
			d[i] = float64(i%3 - 1)
		}
		spectrum(fmt.Sprintf("repeated n=%d", n), d)
	}
	for _, n := range []int{20, 100} {
		spectrum(fmt.Sprintf("clustered n=%d", n), testmat.Clustered(n))
	}
	zn := make([]float64, 30) // from −5 to 5, with zeros and tiny values of both signs
	for i := range zn {
		zn[i] = -5 + 10*float64(i)/29
	}
	zn[3], zn[17], zn[18], zn[25], zn[26] = 0, 0, 1e-8, -1e-8, 0
	spectrum("zeros and negatives n=30", zn)
	uni := make([]float64, 97)
	for i := range uni {
		uni[i] = 2*rnd.Float64() - 1
	}
	spectrum("uniform n=97", uni)
	// No closed form: the exact oracle (bisection with rational Sturm
	// counts) gives every eigenvalue to an ulp. Hilbert's λ_min is
	// 1.09325e-13 for the stored (rounded) matrix; the exact Hilbert
	// matrix has 1.09315e-13.
	h := testmat.Hilbert(10)
	cs = append(cs, eigenCase{name: "Hilbert n=10", a: h, want: testmat.ExactEigenvalues(h), positive: true})
	w21 := testmat.WilkinsonPlus(21)
	add("Wilkinson W21+", w21, testmat.ExactEigenvalues(w21))
	// Extreme scaling: the solver must neither overflow nor lose the
	// values to underflow (LAPACK scales such matrices). By powers of ten
	// (not exact) to the edges of the normal range, and by powers of two
	// (exact) into the subnormals; near overflow, a 2×2 whose diagonal
	// difference a₁₁ − a₀₀ alone overflows.
	for _, s := range []float64{1e300, 1e-300, 0x1p-1060} {
		a, w := testmat.SecondDifference(20)
		for i := range a.Data {
			a.Data[i] *= s
		}
		for i := range w {
			w[i] *= s
		}
		add(fmt.Sprintf("second difference ×%g n=20", s), a, w)
	}
	big0, big1 := -0.6*math.MaxFloat64, 0.1*math.MaxFloat64
	add("2×2 near overflow", fullSym(2, big0, big1, -big0), []float64{-math.Hypot(big0, big1), math.Hypot(big0, big1)})
	return cs
}

// testEigenSolver runs the whole table of eigenCases against solve, then
// the checks of rejected input and of determinism.
func testEigenSolver(t *testing.T, solve eigenSolver) {
	for _, tc := range eigenCases() {
		t.Run(tc.name, func(t *testing.T) { checkEigenCase(t, solve, tc) })
	}
	t.Run("not finite", func(t *testing.T) { checkEigenNotFinite(t, solve) })
	t.Run("deterministic", func(t *testing.T) { checkEigenDeterministic(t, solve) })
}

// checkEigenCase runs solve on tc.a given as a strided matrix whose strict
// upper triangle is NaN, with and without vectors, and checks:
//
//   - the input, padding included, is unchanged bit for bit;
//   - the eigenvalues are ascending;
//   - ‖A·V − V·Λ‖₁/(n·ε·‖A‖₁) < 30 and ‖VᵀV − I‖₁/(n·ε) < 30;
//   - the values computed without vectors agree with those computed with
//     them: max|Δλ|/(ε·max|λ|) < 30 (LAPACK's test of xSYEV);
//   - known eigenvalues are matched: max|λ − λ*|/(n·ε·‖A‖₁) < 30 (with a
//     floor on the denominator for matrices scaled into the subnormals).
func checkEigenCase(t *testing.T, solve eigenSolver, tc eigenCase) {
	n := tc.a.Rows
	pad := 1 + n%3
	in := testmat.New(n, n, pad)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			in.Set(i, j, tc.a.At(i, j))
		}
	}
	upperPoison(in)
	in0 := in.Clone()
	sym := symmetrize(in)
	// Ratios are computed for A·2^-e and Λ·2^-e (exact), with e the
	// exponent of ‖A‖₁ if it is outside [2⁻⁵⁰⁰, 2⁵⁰⁰]: n·ε·‖A‖ would
	// underflow for a matrix scaled into the subnormals.
	normA := testmat.NormOne(sym)
	e := 0
	if normA > 0x1p500 || (normA < 0x1p-500 && normA > 0) {
		_, e = math.Frexp(normA)
		for i := range sym.Data {
			sym.Data[i] = math.Ldexp(sym.Data[i], -e)
		}
		normA = testmat.NormOne(sym)
	}
	// unit is the smallest error that can be asked of an eigenvalue:
	// ε·‖A‖₁, or the spacing sub of the subnormals if that is larger (the
	// values of a matrix scaled into them cannot be more accurate).
	sub := math.Ldexp(math.SmallestNonzeroFloat64, -e)
	unit := max(testmat.Eps*normA, sub)
	scaled := func(w []float64) []float64 {
		s := make([]float64, len(w))
		for k, v := range w {
			s[k] = math.Ldexp(v, -e)
		}
		return s
	}

	da := Dense(in)
	values, vectors, err := solve(&da, true)
	if err != nil {
		t.Fatalf("with vectors: %v", err)
	}
	if !testmat.Identical(in, in0) {
		t.Fatalf("the input was modified (padding or triangles)")
	}
	if len(values) != n {
		t.Fatalf("%d eigenvalues, want %d", len(values), n)
	}
	for k := 1; k < n; k++ {
		if !(values[k-1] <= values[k]) {
			t.Fatalf("eigenvalues not ascending: λ%d = %v, λ%d = %v", k-1, values[k-1], k, values[k])
		}
	}
	if vectors == nil || vectors.Rows != n || vectors.Cols != n {
		t.Fatalf("vectors are %v, want %d×%d", vectors, n, n)
	}
	v := testmat.Matrix(*vectors)
	res, orth := testmat.EigenResidual(sym, v, scaled(values)), testmat.Orthogonality(v)
	if normA > 0 {
		res *= testmat.Eps * normA / unit
	}
	if !(res < 30) {
		t.Errorf("‖AV − VΛ‖/(nε‖A‖) = %.3g, want < 30", res)
	}
	if !(orth < 30) {
		t.Errorf("‖VᵀV − I‖/(nε) = %.3g, want < 30", orth)
	}

	only, nov, err := solve(&da, false)
	if err != nil {
		t.Fatalf("values only: %v", err)
	}
	if nov != nil {
		t.Errorf("values only: vectors are %v, want nil", nov)
	}
	if !testmat.Identical(in, in0) {
		t.Fatalf("values only: the input was modified")
	}
	if len(only) != n {
		t.Fatalf("values only: %d eigenvalues, want %d", len(only), n)
	}
	var scale, diff float64
	for k, v := range scaled(only) {
		w := math.Ldexp(values[k], -e)
		scale = max(scale, math.Abs(w))
		diff = max(diff, math.Abs(v-w))
	}
	var same float64 // 0 when identical, even for the zero matrix
	if diff > 0 {
		same = diff / max(testmat.Eps*scale, sub)
	}
	if !(same < 30) {
		t.Errorf("values only differ from values with vectors by %.3g, max|λ| = %.3g: ratio %.3g, want < 30", diff, scale, same)
	}

	var known float64
	if tc.want != nil && n > 0 {
		var worst float64
		at := 0
		got, want := scaled(values), scaled(tc.want)
		for k := range want {
			if d := math.Abs(got[k] - want[k]); d > worst {
				worst, at = d, k
			}
		}
		den := float64(n) * unit
		if normA == 0 {
			den = float64(n) * testmat.Eps
		}
		known = worst / den
		if !(known < 30) {
			t.Errorf("λ%d = %v, want %v: |Δλ|/(nε‖A‖) = %.3g, want < 30", at, values[at], tc.want[at], known)
		}
	}
	if tc.positive && n > 0 && !(values[0] > 0) {
		t.Errorf("λ_min = %v of a positive definite matrix, want > 0", values[0])
	}
	t.Logf("ratios: residual %.3g, orthogonality %.3g, values only %.3g, known values %.3g", res, orth, same, known)
}

// checkEigenNotFinite: NaN or ±Inf in the lower triangle is reported as a
// *NotFiniteError naming the element, and the input is left alone.
func checkEigenNotFinite(t *testing.T, solve eigenSolver) {
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		for _, at := range [][2]int{{4, 1}, {3, 3}} {
			a := testmat.RandomSPD(testmat.NewRand(41), 6, 2)
			upperPoison(a)
			a.Set(at[0], at[1], bad)
			a0 := a.Clone()
			for _, wantVectors := range []bool{false, true} {
				da := Dense(a)
				_, _, err := solve(&da, wantVectors)
				var fe *NotFiniteError
				if !errors.Is(err, ErrNotFinite) || !errors.As(err, &fe) || fe.Row != at[0] || fe.Col != at[1] {
					t.Errorf("element %v = %v: err = %v, want a *NotFiniteError at %v", at, bad, err, at)
				}
				if !testmat.Identical(a, a0) {
					t.Errorf("element %v = %v: the rejected input was modified", at, bad)
				}
			}
		}
	}
}

// checkEigenDeterministic: the same bits for 1, 2 and 8 goroutines, on a
// matrix large enough (n = 150) that a parallel solver splits its work.
func checkEigenDeterministic(t *testing.T, solve eigenSolver) {
	n := 150
	d := make([]float64, n)
	rnd := testmat.NewRand(42)
	for i := range d {
		d[i] = rnd.NormFloat64()
	}
	a := testmat.WithSpectrum(rnd, d, 1)
	var values []float64
	var vectors testmat.Matrix
	for _, procs := range []int{1, 2, 8} {
		withProcs(t, procs, func() {
			da := Dense(a)
			w, v, err := solve(&da, true)
			if err != nil {
				t.Fatalf("GOMAXPROCS=%d: %v", procs, err)
			}
			if values == nil {
				values, vectors = w, testmat.Matrix(*v)
				return
			}
			if !sameBits(w, values) {
				t.Errorf("GOMAXPROCS=%d: the eigenvalues differ from those with GOMAXPROCS=1", procs)
			}
			if !testmat.Identical(compact(testmat.Matrix(*v)), compact(vectors)) {
				t.Errorf("GOMAXPROCS=%d: the eigenvectors differ from those with GOMAXPROCS=1", procs)
			}
		})
	}
}

// fullSym returns the n×n symmetric matrix with the given lower triangle,
// row by row.
func fullSym(n int, lower ...float64) testmat.Matrix {
	a := testmat.New(n, n, 0)
	k := 0
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			a.Set(i, j, lower[k])
			a.Set(j, i, lower[k])
			k++
		}
	}
	return a
}

func repeat(v float64, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}

func sorted(d []float64) []float64 {
	s := append([]float64(nil), d...)
	slices.Sort(s)
	return s
}

// sameBits reports whether x and y hold the same float64 bit patterns.
func sameBits(x, y []float64) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if math.Float64bits(x[i]) != math.Float64bits(y[i]) {
			return false
		}
	}
	return true
}
