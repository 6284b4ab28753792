package loo

import "testing"

// TestSelectNystromCost: the work of the largest grid, 10⁴ σ × 10⁴ λ on
// 200 rows of 3 features with 20 centres and every row left out, is
// 10⁴ × (2·200·20·3 + 10·200·20 + 200·20² + 6·20³ + 200·10⁴·10·(20 +
// 20)) = 8.00192e12 flops; GCV has no leave-one-out term.
func TestSelectNystromCost(t *testing.T) {
	if c := SelectNystromCost(200, 3, 1, 20, 10000, 10000, 200); c.Flops != 8.00192e12 {
		t.Errorf("the largest grid: %g flops, want 8.00192e12", c.Flops)
	}
	if c := SelectNystromCost(200, 3, 1, 20, 1, 5, 0); c.Flops != 2*200*20*3+10*200*20+200*20*20+6*20*20*20 || c.Bytes != 8*(20*(40+10+2+3+3)+20*100) {
		t.Errorf("one σ by GCV: %+v", c)
	}
}
