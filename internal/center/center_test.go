package center

import (
	"math"
	"testing"

	"rkhs/linalg"
)

// TestMeansOverflow: a column whose plain sum overflows gets the mean of
// its values, finite, to rounding; the other columns are the plain sums
// divided by n, bit for bit.
func TestMeansOverflow(t *testing.T) {
	const n = 37
	m := linalg.NewDense(n, 2, nil)
	var plain float64
	for i := range n {
		v := 1.7e308 * (1 - float64(i%3)/4) // 1.7e308, 1.275e308, 0.85e308
		m.Set(i, 0, v)
		m.Set(i, 1, float64(i)/7)
		plain += float64(i) / 7
	}
	want0 := 0.0
	for i := range n {
		want0 += m.At(i, 0) / n // no overflow: each term below MaxFloat64/37
	}
	got := Means(m)
	if math.IsInf(got[0], 0) || math.Abs(got[0]-want0) > 1e-14*want0 {
		t.Errorf("mean of the large column = %v, want %v", got[0], want0)
	}
	if got[1] != plain/n {
		t.Errorf("mean of the ordinary column = %v, want the plain %v", got[1], plain/n)
	}
}
