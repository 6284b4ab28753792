package testmat

import (
	"fmt"
	"math"
	"testing"
)

// TestExactEigenvalues checks the oracle on matrices whose eigenvalues are
// floats (so the answer must be exact), on zero pivots of every kind, and
// against closed forms.
func TestExactEigenvalues(t *testing.T) {
	for _, tc := range []struct {
		name string
		a    Matrix
		want []float64
	}{
		{"empty", New(0, 0, 0), []float64{}},
		{"1×1", Diagonal([]float64{-2.5}), []float64{-2.5}},
		// Zero diagonal: the first pivot at σ = 0 needs the congruence
		// that adds a row.
		{"[0 1; 1 0]", sym(2, 0, 1, 0), []float64{-1, 1}},
		{"[2 1; 1 2]", sym(2, 2, 1, 2), []float64{1, 3}},
		// A zero row: a zero eigenvalue at every shift.
		{"zero", New(3, 3, 0), []float64{0, 0, 0}},
		// Repeated values give zero pivots in the middle of the
		// elimination, which need a swap.
		{"diagonal", Diagonal([]float64{3, 0, -1, 3, 0, 1e-300, -1e300}), []float64{-1e300, -1, 0, 0, 1e-300, 3, 3}},
		{"identity", Identity(5), []float64{1, 1, 1, 1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ExactEigenvalues(tc.a)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}

	// The closed form 2 − 2cos(kπ/(n+1)) of the (exact) second-difference
	// matrix, evaluated in float64, is only accurate to a few ε absolute:
	// the subtraction cancels.
	for n := 1; n <= 7; n++ {
		a, want := SecondDifference(n)
		got := ExactEigenvalues(a)
		for k := range want {
			if d := math.Abs(got[k] - want[k]); d > 4*Eps {
				t.Errorf("second difference n=%d: λ%d = %v, want %v (error %.2g)", n, k, got[k], want[k], d)
			}
		}
	}

	// Rounded toward −∞: the exact count puts λₖ in [w[k], w[k]⁺).
	a := Graded(RandomSPD(NewRand(3), 5, 0), 1e-4)
	w := ExactEigenvalues(a)
	for k, x := range w {
		if countBelow(a, x) > k || countBelow(a, math.Nextafter(x, math.Inf(1))) <= k {
			t.Errorf("λ%d is not in [%v, next float)", k, x)
		}
	}
	// The exact bisection alone (the fallback) gives the same bits.
	lo, hi := orderedKey(-10), orderedKey(10)
	for k, x := range w {
		if y := fromOrderedKey(bisect(lo, hi, k, func(s float64) int { return countBelow(a, s) })); y != x {
			t.Errorf("exact bisection gives λ%d = %v, ExactEigenvalues %v", k, y, x)
		}
	}
}

func sym(n int, lower ...float64) Matrix {
	a := New(n, n, 0)
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

func TestOrderedKey(t *testing.T) {
	xs := []float64{math.Inf(-1), -math.MaxFloat64, -1, -math.SmallestNonzeroFloat64, 0, math.SmallestNonzeroFloat64, 1, math.MaxFloat64, math.Inf(1)}
	for i, x := range xs {
		if y := fromOrderedKey(orderedKey(x)); y != x {
			t.Errorf("round trip of %v gives %v", x, y)
		}
		if i > 0 && orderedKey(xs[i-1]) >= orderedKey(x) {
			t.Errorf("key(%v) ≥ key(%v)", xs[i-1], x)
		}
	}
	negZero := math.Copysign(0, -1)
	if orderedKey(math.Nextafter(1, 2))-orderedKey(1) != 1 || orderedKey(0)-orderedKey(negZero) != 1 || orderedKey(negZero)-orderedKey(-math.SmallestNonzeroFloat64) != 1 {
		t.Errorf("neighbouring floats do not have neighbouring keys")
	}
}

// TestCountBelow checks the exact counts at shifts that make pivots zero:
// a zero diagonal (congruence), a zero row (zero eigenvalue) and repeated
// eigenvalues equal to the shift (swaps).
func TestCountBelow(t *testing.T) {
	d := Diagonal([]float64{3, 0, -1, 3, 0, 2})
	for _, tc := range []struct {
		name  string
		a     Matrix
		sigma float64
		want  int
	}{
		{"[0 1; 1 0] at 0", sym(2, 0, 1, 0), 0, 1},
		{"[0 1; 1 0] at 1", sym(2, 0, 1, 0), 1, 1},
		{"[0 1; 1 0] at next(1)", sym(2, 0, 1, 0), math.Nextafter(1, 2), 2},
		{"[0 2 0; 2 0 0; 0 0 0] at 0", sym(3, 0, 2, 0, 0, 0, 0), 0, 1},
		{"zero at 0", New(3, 3, 0), 0, 0},
		{"zero at 1e-300", New(3, 3, 0), 1e-300, 3},
		{"diagonal at 0", d, 0, 1},
		{"diagonal at 3", d, 3, 4},
		{"diagonal at next(3)", d, math.Nextafter(3, 4), 6},
	} {
		if got := countBelow(tc.a, tc.sigma); got != tc.want {
			t.Errorf("%s: %d eigenvalues below, want %d", tc.name, got, tc.want)
		}
	}
}
