package regress

import (
	"testing"

	"rkhs/internal/memlimit"
)

// TestCost: the estimates are their closed forms, and FalkonMaxCenters
// is the largest m whose FalkonMemory fits, by brute force.
func TestCost(t *testing.T) {
	if c := ExactCost(4000, 1, false); c.Flops != 4000*4000+4000.0*4000*4000/3 || c.Bytes != 128_000_000 {
		t.Errorf("Cholesky on 4000 rows: %+v", c)
	}
	if c := ExactCost(100, 2, true); c.Flops != 100*100*2+6e6 || c.Bytes != memlimit.Floats(6, 100, 100) {
		t.Errorf("eigen on 100 rows: %+v", c)
	}
	// m = 10 centres, n = 1000 rows of 3 features, q = 1, the default 20
	// iterations: 10²·3 + 10³ + 21·1000·10·(6 + 10 + 4).
	if c := FalkonCost(1000, 3, 10, 1, 0); c.Flops != 300+1000+21*1000*10*20 || c.Bytes != FalkonMemory(1000, 10, 3, 1) {
		t.Errorf("Falkon: %+v", c)
	}
	for _, limit := range []uint64{0, FalkonMemory(50, 7, 2, 1), FalkonMemory(50, 7, 2, 1) - 1, 1 << 40} {
		want := 0
		for m := 1; m <= 50; m++ {
			if FalkonMemory(50, m, 2, 1) <= limit {
				want = m
			}
		}
		if got := FalkonMaxCenters(50, 2, 1, limit); got != want {
			t.Errorf("limit %d: %d centres, want %d", limit, got, want)
		}
	}
}
