package testmat

import (
	"math"
	"testing"
)

// TestBidiagonalSingularValues checks the oracle on closed forms: the
// bidiagonal matrix of ones, σ_k = 2·cos(kπ/(2n+1)), k = 1…n; a diagonal matrix; a
// graded one whose tiny singular value is known to first order; and zero
// diagonal entries (a zero singular value).
func TestBidiagonalSingularValues(t *testing.T) {
	for _, n := range []int{1, 2, 5, 12} {
		d, e := make([]float64, n), make([]float64, n-1)
		for i := range d {
			d[i] = 1
		}
		for i := range e {
			e[i] = 1
		}
		got := BidiagonalSingularValues(d, e)
		for k := 1; k <= n; k++ {
			// 2·cos(kπ/(2n+1)) as a sine of a small argument, so that
			// want is accurate to a few ulps relative for every k.
			want := 2 * math.Sin(float64(2*n+1-2*k)*math.Pi/float64(4*n+2))
			if RelErr(got[k-1], want) > 4e-16 {
				t.Errorf("ones n=%d: σ_%d = %v, want %v", n, k, got[k-1], want)
			}
		}
	}
	got := BidiagonalSingularValues([]float64{-3, 0.5, 7}, []float64{0, 0})
	if want := []float64{7, 3, 0.5}; !equal(got, want) {
		t.Errorf("diagonal: got %v, want %v", got, want)
	}
	// [1 1; 0 δ]: σmin = δ/√2 to relative O(δ²).
	got = BidiagonalSingularValues([]float64{1, 1e-200}, []float64{1})
	if RelErr(got[1], 1e-200/math.Sqrt2) > 1e-15 || RelErr(got[0], math.Sqrt2) > 1e-15 {
		t.Errorf("graded 2×2: got %v, want [√2, 1e-200/√2]", got)
	}
	got = BidiagonalSingularValues([]float64{1, 0, 2}, []float64{1, 1})
	if got[2] != 0 {
		t.Errorf("zero diagonal entry: σmin = %v, want 0", got[2])
	}
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
