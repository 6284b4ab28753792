package avx

import (
	"math"
	"testing"
)

// TestClearUpper checks that ClearUpper can be called on any CPU and
// leaves scalar arithmetic correct (it must not touch the low halves of
// the registers that hold live float64 values).
func TestClearUpper(t *testing.T) {
	x := 0.5
	for i := 0; i < 100; i++ {
		y := x * 1.5
		ClearUpper()
		x = math.Exp(-y)
	}
	// The iteration x ← exp(−1.5x) converges to its fixed point.
	if r := x - math.Exp(-1.5*x); math.Abs(r) > 1e-15 {
		t.Fatalf("fixed point residual %g", r)
	}
}
