package linalg

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"rkhs/internal/testmat"
)

// jacobiSolver adapts EigenSymJacobi to the shared suite.
func jacobiSolver(a *Dense, wantVectors bool) ([]float64, *Dense, error) {
	var e EigenSymJacobi
	if err := e.Factorize(a, wantVectors); err != nil {
		return nil, nil, err
	}
	var v *Dense
	if wantVectors {
		v = e.VectorsTo(nil)
	}
	return e.Values(nil), v, nil
}

func TestEigenSymJacobi(t *testing.T) { testEigenSolver(t, jacobiSolver) }

// TestEigenSymJacobiGraded: on graded positive definite matrices D·B·D, with
// D = diag(1, g, …, gⁿ⁻¹) and B well conditioned, every eigenvalue, down to
// 1e-70, must be found to a small multiple of ε relative.
//
// The reference is testmat.ExactEigenvalues: bisection whose Sturm counts
// are exact (the inertia of A − σI computed in rational arithmetic), so each
// true eigenvalue λ is known to lie between a float w and the next one, w⁺,
// with no error analysis of the reference to trust. (Computing it in float64
// by any method would be circular; building matrices with known eigenvalues
// exactly is not possible for graded ones, whose entries must be rounded.)
// The error of a computed x is measured as max(|x − w|, |x − w⁺|)/w, which
// overstates it by at most an ulp.
//
// For comparison the test logs ε·‖A‖/λ_min, the relative error that a
// backward-stable tridiagonal method (QR, divide and conquer) may leave in
// the smallest eigenvalue: up to 1e54 here, no correct digit at all.
func TestEigenSymJacobiGraded(t *testing.T) {
	rnd := testmat.NewRand(50)
	var worstAll, absAll float64
	for _, n := range []int{3, 5, 8} {
		for _, g := range []float64{1e-1, 1e-3, 1e-5} {
			for _, permute := range []bool{false, true} {
				a := testmat.Graded(testmat.RandomSPD(rnd, n, 0), g)
				if permute {
					// The grading need not follow the order of
					// the rows.
					a = permuteSym(a, rnd.Perm(n))
				}
				want := testmat.ExactEigenvalues(a)
				da := Dense(a)
				var e EigenSymJacobi
				if err := e.Factorize(&da, true); err != nil {
					t.Fatal(err)
				}
				got := e.Values(nil)
				var worst float64
				at := 0
				for k, w := range want {
					wp := math.Nextafter(w, math.Inf(1))
					if d := max(math.Abs(got[k]-w), math.Abs(got[k]-wp)) / w; d > worst {
						worst, at = d, k
					}
				}
				abs := testmat.Eps * testmat.NormOne(a) / want[0]
				name := fmt.Sprintf("n=%d g=%g permuted=%t", n, g, permute)
				if r := worst / (float64(n) * testmat.Eps); !(r < 10) {
					t.Errorf("%s: λ%d = %v, want %v: relative error %.3g = %.3g·nε, want < 10·nε",
						name, at, got[at], want[at], worst, r)
				}
				// The vectors are those of a backward-stable method.
				v := testmat.Matrix(*e.VectorsTo(nil))
				if r := testmat.EigenResidual(a, v, got); !(r < 30) {
					t.Errorf("%s: ‖AV − VΛ‖/(nε‖A‖) = %.3g, want < 30", name, r)
				}
				if r := testmat.Orthogonality(v); !(r < 30) {
					t.Errorf("%s: ‖VᵀV − I‖/(nε) = %.3g, want < 30", name, r)
				}
				t.Logf("%s: λ_min %.3g, relative error %.2g (%.2f·nε) in %d sweeps; ε‖A‖/λ_min = %.3g",
					name, want[0], worst, worst/(float64(n)*testmat.Eps), e.sweeps, abs)
				worstAll, absAll = max(worstAll, worst), max(absAll, abs)
			}
		}
	}
	t.Logf("worst relative error %.3g; an absolutely accurate method is only bound to %.3g", worstAll, absAll)
}

// permuteSym returns P·A·Pᵀ: element (i, j) is a(perm[i], perm[j]).
func permuteSym(a testmat.Matrix, perm []int) testmat.Matrix {
	n := a.Rows
	b := testmat.New(n, n, 0)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			b.Set(i, j, a.At(perm[i], perm[j]))
		}
	}
	return b
}

func TestEigenSymJacobiNoConvergence(t *testing.T) {
	defer func(m int) { jacobiMaxSweeps = m }(jacobiMaxSweeps)
	jacobiMaxSweeps = 2
	a, _ := testmat.SecondDifference(30) // needs about 10 sweeps
	da := Dense(a)
	var e EigenSymJacobi
	err := e.Factorize(&da, true)
	var ce *ConvergenceError
	if !errors.Is(err, ErrNoConvergence) || !errors.As(err, &ce) {
		t.Fatalf("err = %v, want a *ConvergenceError", err)
	}
	if ce.Iterations != 2 || ce.Algorithm != "cyclic Jacobi" {
		t.Errorf("error %+v, want 2 iterations of cyclic Jacobi", *ce)
	}
	mustPanic(t, "Values after no convergence", func() { e.Values(nil) })
}

func TestEigenSymJacobiMisuse(t *testing.T) {
	var zero EigenSymJacobi
	if zero.Size() != 0 {
		t.Errorf("zero value Size = %d, want 0", zero.Size())
	}
	mustPanic(t, "Values of the zero value", func() { zero.Values(nil) })
	mustPanic(t, "VectorsTo of the zero value", func() { zero.VectorsTo(nil) })
	mustPanic(t, "Factorize of a 2×3 matrix", func() { zero.Factorize(NewDense(2, 3, nil), false) })

	a, _ := testmat.SecondDifference(4)
	da := Dense(a)
	var e EigenSymJacobi
	if err := e.Factorize(&da, false); err != nil {
		t.Fatal(err)
	}
	mustPanic(t, "VectorsTo without vectors", func() { e.VectorsTo(nil) })
	mustPanic(t, "Values into 3 elements", func() { e.Values(make([]float64, 3)) })
	if err := e.Factorize(&da, true); err != nil {
		t.Fatal(err)
	}
	mustPanic(t, "VectorsTo into 4×3", func() { e.VectorsTo(NewDense(4, 3, nil)) })

	// A rejected matrix leaves no factorization behind.
	a.Set(2, 1, math.NaN())
	if err := e.Factorize(&da, true); !errors.Is(err, ErrNotFinite) {
		t.Fatalf("err = %v, want ErrNotFinite", err)
	}
	mustPanic(t, "Values after ErrNotFinite", func() { e.Values(nil) })
}

// mustPanic checks that f panics with a message prefixed "linalg:".
func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Errorf("%s: no panic", what)
		} else if s, ok := r.(string); !ok || !strings.HasPrefix(s, "linalg:") {
			t.Errorf("%s: panic %v, want a message starting with linalg:", what, r)
		}
	}()
	f()
}

// TestEigenSymJacobiReuse: one value factors matrices of several sizes, with
// and without vectors, and gives the same bits as a fresh one each time;
// results go into the caller's storage when given (a strided dst keeps its
// padding).
func TestEigenSymJacobiReuse(t *testing.T) {
	rnd := testmat.NewRand(51)
	var e EigenSymJacobi
	for _, tc := range []struct {
		n       int
		vectors bool
	}{{30, true}, {5, false}, {12, true}, {12, true}, {40, false}, {7, true}} {
		a := testmat.RandomSPD(rnd, tc.n, 1)
		da := Dense(a)
		if err := e.Factorize(&da, tc.vectors); err != nil {
			t.Fatal(err)
		}
		var fresh EigenSymJacobi
		if err := fresh.Factorize(&da, tc.vectors); err != nil {
			t.Fatal(err)
		}
		dst := make([]float64, tc.n)
		if got := e.Values(dst); &got[0] != &dst[0] || !sameBits(got, fresh.Values(nil)) {
			t.Errorf("n=%d: reused Values differ from a fresh factorization's, or are not in dst", tc.n)
		}
		if e.Size() != tc.n {
			t.Errorf("Size = %d, want %d", e.Size(), tc.n)
		}
		if !tc.vectors {
			continue
		}
		v := testmat.New(tc.n, tc.n, 2)
		dv := Dense(v)
		e.VectorsTo(&dv)
		if !testmat.Identical(compact(v), testmat.Matrix(*fresh.VectorsTo(nil))) {
			t.Errorf("n=%d: reused VectorsTo differs from a fresh factorization's", tc.n)
		}
		if !testmat.PaddingIntact(v) {
			t.Errorf("n=%d: VectorsTo wrote into the padding of dst", tc.n)
		}
	}
}

// TestEigenSymJacobiAllocs: once its storage exists, Factorize allocates
// nothing.
func TestEigenSymJacobiAllocs(t *testing.T) {
	a := Dense(testmat.RandomSPD(testmat.NewRand(52), 40, 0))
	var e EigenSymJacobi
	for _, vectors := range []bool{true, false} {
		if err := e.Factorize(&a, vectors); err != nil {
			t.Fatal(err)
		}
		if got := testing.AllocsPerRun(5, func() { e.Factorize(&a, vectors) }); got != 0 {
			t.Errorf("vectors=%t: %v allocations per Factorize, want 0", vectors, got)
		}
	}
}
