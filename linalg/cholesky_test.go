package linalg

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"rkhs/internal/testmat"
)

// cholSizes straddle the block sizes of potrf (cholNB = 128), of the
// triangular solves (trsmNB = 64) and of GEMM (MR, NR, KC).
var cholSizes = []int{0, 1, 2, 3, 4, 5, 17, 63, 64, 65, 127, 128, 129, 255, 257, 300}

// upperPoison fills the strict upper triangle of a with NaN: Cholesky reads
// only the lower triangle, so any use of the upper one shows up in the
// result.
func upperPoison(a testmat.Matrix) {
	for i := 0; i < a.Rows; i++ {
		for j := i + 1; j < a.Cols; j++ {
			a.Set(i, j, math.NaN())
		}
	}
}

// factorResidual returns ‖A − L·Lᵀ‖₁ / (n·ε·‖A‖₁), the LAPACK test ratio of
// a Cholesky factorization.
func factorResidual(a testmat.Matrix, l *Dense) float64 {
	n := a.Rows
	lm := testmat.Matrix(*l)
	llt := testmat.Mul(lm, testmat.T(lm))
	sym := testmat.New(n, n, 0)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			sym.Set(i, j, a.At(i, j))
			sym.Set(j, i, a.At(i, j))
		}
	}
	return testmat.NormOne(testmat.Sub(sym, llt)) / (float64(n) * testmat.Eps * testmat.NormOne(sym))
}

func TestCholeskyFactorize(t *testing.T) {
	rnd := testmat.NewRand(10)
	for _, cond := range []float64{1, 1e3, 1e8, 1e12} {
		for _, n := range cholSizes {
			if n == 0 {
				continue
			}
			t.Run(fmt.Sprintf("cond=%g/n=%d", cond, n), func(t *testing.T) {
				pad := n % 3
				a := testmat.WithSpectrum(rnd, testmat.GeometricSpectrum(n, cond), pad)
				upperPoison(a)
				a0 := a.Clone()
				da := Dense(a)
				var ch Cholesky
				if err := ch.Factorize(&da); err != nil {
					t.Fatalf("Factorize: %v", err)
				}
				if !testmat.Identical(a, a0) {
					t.Fatalf("Factorize modified its input")
				}
				l := ch.LTo(nil)
				if r := factorResidual(a, l); r > 30 {
					t.Errorf("‖A − LLᵀ‖/(nε‖A‖) = %.3g, want < 30", r)
				}
				// Solve with several right-hand sides: scaled residual
				// ‖A·X − B‖ / (n·ε·‖A‖·‖X‖).
				b := testmat.Random(rnd, n, 7, 2)
				db := Dense(b)
				x := ch.SolveTo(nil, &db)
				sym := symmetrize(a)
				ax := testmat.Mul(sym, testmat.Matrix(*x))
				r := testmat.NormOne(testmat.Sub(ax, compact(b))) / (float64(n) * testmat.Eps * testmat.NormOne(sym) * testmat.NormOne(testmat.Matrix(*x)))
				if r > 30 {
					t.Errorf("solve residual ratio %.3g, want < 30", r)
				}
				// One right-hand side: the same as column 0 of X, computed
				// through Trsv instead of Trsm.
				col := make([]float64, n)
				for i := range col {
					col[i] = b.At(i, 0)
				}
				v := ch.SolveVecTo(nil, col)
				for i := range v {
					if d := math.Abs(v[i] - x.At(i, 0)); d > 1e-13*cond*(1+math.Abs(x.At(i, 0))) {
						t.Fatalf("SolveVecTo[%d] = %v, SolveTo gives %v", i, v[i], x.At(i, 0))
					}
				}
				// log det A = Σ log d. A backward error ‖ΔA‖ ≤ c·n·ε·‖A‖ (from
				// forming A and from the factorization) moves each eigenvalue
				// by at most that much (Weyl), so log det moves by at most
				// Σ ‖ΔA‖/dᵢ to first order: the bound is loose for an
				// ill-conditioned A, and still catches a wrong factor or a
				// missing pivot.
				var want, inv float64
				spec := testmat.GeometricSpectrum(n, cond)
				for _, d := range spec {
					want += math.Log(d)
					inv += slices.Max(spec) / d
				}
				if got := ch.LogDet(); math.Abs(got-want) > 30*float64(n)*testmat.Eps*inv {
					t.Errorf("LogDet = %v, want %v (bound %.3g)", got, want, 30*float64(n)*testmat.Eps*inv)
				}
			})
		}
	}
}

// symmetrize returns the full symmetric matrix whose lower triangle is that
// of a.
func symmetrize(a testmat.Matrix) testmat.Matrix {
	s := testmat.New(a.Rows, a.Rows, 0)
	for i := 0; i < a.Rows; i++ {
		for j := 0; j <= i; j++ {
			s.Set(i, j, a.At(i, j))
			s.Set(j, i, a.At(i, j))
		}
	}
	return s
}

func compact(a testmat.Matrix) testmat.Matrix {
	c := testmat.New(a.Rows, a.Cols, 0)
	for i := 0; i < a.Rows; i++ {
		for j := 0; j < a.Cols; j++ {
			c.Set(i, j, a.At(i, j))
		}
	}
	return c
}

func TestCholeskyInverseDiag(t *testing.T) {
	rnd := testmat.NewRand(11)
	for _, n := range []int{1, 2, 5, 63, 64, 65, 129, 200} {
		d := testmat.GeometricSpectrum(n, 1e4)
		a := testmat.WithSpectrum(rnd, d, 1)
		da := Dense(a)
		var ch Cholesky
		if err := ch.Factorize(&da); err != nil {
			t.Fatal(err)
		}
		got := ch.InverseDiagTo(nil)
		// Reference: column i of A⁻¹ by a solve with e_i.
		e := make([]float64, n)
		for i := 0; i < n; i++ {
			clear(e)
			e[i] = 1
			col := ch.SolveVecTo(nil, e)
			if r := math.Abs(got[i]-col[i]) / (col[i] * float64(n) * testmat.Eps * 1e4); r > 30 {
				t.Errorf("n=%d: (A⁻¹)_%d%d = %v, solve gives %v (ratio %.3g)", n, i, i, got[i], col[i], r)
			}
		}
	}
}

// TestCholeskyNotPositiveDefinite builds A = L·Lᵀ and lowers a_jj by
// l_jj² + δ, so that the leading j×j block is positive definite and the
// pivot at column j is −δ (up to rounding): the factorization must fail at
// j. L has off-diagonal entries of size at most 1/n and a diagonal in [1, 2),
// so it is diagonally dominant and A is well conditioned.
func TestCholeskyNotPositiveDefinite(t *testing.T) {
	rnd := testmat.NewRand(12)
	for _, tc := range []struct{ n, j int }{{1, 0}, {5, 0}, {5, 4}, {200, 63}, {200, 64}, {300, 127}, {300, 128}, {300, 129}, {300, 299}} {
		l := testmat.New(tc.n, tc.n, 0)
		for i := 0; i < tc.n; i++ {
			for k := 0; k < i; k++ {
				l.Set(i, k, (2*rnd.Float64()-1)/float64(tc.n))
			}
			l.Set(i, i, 1+rnd.Float64())
		}
		a := testmat.Mul(l, testmat.T(l))
		const delta = 0.25
		a.Set(tc.j, tc.j, a.At(tc.j, tc.j)-l.At(tc.j, tc.j)*l.At(tc.j, tc.j)-delta)
		for _, inPlace := range []bool{false, true} {
			da := Dense(a.Clone())
			var ch Cholesky
			var err error
			if inPlace {
				err = ch.FactorizeInPlace(&da)
			} else {
				err = ch.Factorize(&da)
			}
			var pe *PivotError
			if !errors.Is(err, ErrNotPositiveDefinite) || !errors.As(err, &pe) {
				t.Fatalf("n=%d j=%d: err = %v, want a *PivotError", tc.n, tc.j, err)
			}
			if pe.Col != tc.j || math.Abs(pe.Value+delta) > 1e-8 {
				t.Errorf("n=%d: failure at column %d with pivot %v, want column %d, pivot %v", tc.n, pe.Col, pe.Value, tc.j, -delta)
			}
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("solve after a failed factorization did not panic")
					}
				}()
				ch.SolveVecTo(nil, make([]float64, tc.n))
			}()
		}
	}
}

func TestCholeskyNotFinite(t *testing.T) {
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		a := testmat.RandomSPD(testmat.NewRand(13), 9, 0)
		a.Set(6, 2, bad)
		a0 := a.Clone()
		da := Dense(a)
		var ch Cholesky
		err := ch.FactorizeInPlace(&da)
		var fe *NotFiniteError
		if !errors.Is(err, ErrNotFinite) || !errors.As(err, &fe) || fe.Row != 6 || fe.Col != 2 {
			t.Errorf("element (6,2) = %v: err = %v, want a *NotFiniteError at (6,2)", bad, err)
		}
		if !testmat.Identical(a, a0) {
			t.Errorf("FactorizeInPlace modified a matrix it rejected")
		}
	}
	// NaN in the upper triangle is not read, so it is not an error.
	a := testmat.RandomSPD(testmat.NewRand(13), 9, 0)
	a.Set(2, 6, math.NaN())
	da := Dense(a)
	var ch Cholesky
	if err := ch.Factorize(&da); err != nil {
		t.Errorf("NaN in the unread upper triangle: %v", err)
	}
}

// TestCholeskyInPlace: FactorizeInPlace gives the same bits as Factorize,
// leaves the upper triangle and the padding alone, and reuses the storage.
func TestCholeskyInPlace(t *testing.T) {
	rnd := testmat.NewRand(14)
	n := 150
	a := testmat.RandomSPD(rnd, n, 3)
	upperPoison(a)
	work := a.Clone()
	da, dw := Dense(a), Dense(work)
	var c1, c2 Cholesky
	if err := c1.Factorize(&da); err != nil {
		t.Fatal(err)
	}
	if err := c2.FactorizeInPlace(&dw); err != nil {
		t.Fatal(err)
	}
	l1, l2 := c1.LTo(nil), c2.LTo(nil)
	if !testmat.Identical(testmat.Matrix(*l1), testmat.Matrix(*l2)) {
		t.Errorf("FactorizeInPlace and Factorize differ")
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if !math.IsNaN(work.At(i, j)) {
				t.Fatalf("upper triangle (%d,%d) was written", i, j)
			}
		}
	}
	if !testmat.PaddingIntact(work) {
		t.Errorf("padding was written")
	}
	if &dw.Data[0] != &c2.l.Data[0] {
		t.Errorf("FactorizeInPlace does not use the caller's storage")
	}
}

func TestCholeskyDeterministic(t *testing.T) {
	n := 700
	a := testmat.RandomSPD(testmat.NewRand(15), n, 1)
	b := testmat.Random(testmat.NewRand(16), n, 40, 0)
	var first, firstX testmat.Matrix
	var firstD []float64
	for _, procs := range []int{1, 2, 8} {
		var l, x testmat.Matrix
		var d []float64
		withProcs(t, procs, func() {
			da, db := Dense(a), Dense(b)
			var ch Cholesky
			if err := ch.Factorize(&da); err != nil {
				t.Fatal(err)
			}
			l = testmat.Matrix(*ch.LTo(nil))
			x = testmat.Matrix(*ch.SolveTo(nil, &db))
			d = ch.InverseDiagTo(nil)
		})
		if procs == 1 {
			first, firstX, firstD = l, x, d
			continue
		}
		if !testmat.Identical(l, first) || !testmat.Identical(x, firstX) {
			t.Errorf("GOMAXPROCS=%d: factor or solution differs from GOMAXPROCS=1", procs)
		}
		for i := range d {
			if math.Float64bits(d[i]) != math.Float64bits(firstD[i]) {
				t.Fatalf("GOMAXPROCS=%d: InverseDiag[%d] differs", procs, i)
			}
		}
	}
}

func TestCholeskyZeroValue(t *testing.T) {
	var ch Cholesky
	if err := ch.Factorize(&Dense{}); err != nil {
		t.Fatalf("0×0 matrix: %v", err)
	}
	if ch.Size() != 0 || ch.LogDet() != 0 {
		t.Errorf("0×0: Size %d, LogDet %v", ch.Size(), ch.LogDet())
	}
	defer func() {
		if recover() == nil {
			t.Errorf("Factorize of a 2×3 matrix did not panic")
		}
	}()
	ch.Factorize(NewDense(2, 3, nil))
}
