package linalg

// addRowsScalar sets y[i] += rows[0][i] + rows[1][i] + … for i < len(y),
// the rows added one after the other in increasing order, a row taking
// part only where it reaches (i < len(rows[t])): the sum of the partial
// vectors of a product split by row blocks (sumPartialsThen). Every element
// takes its additions in the order written, the order of the axpy(1, row,
// y) calls it replaces (1·x is exact, and a fused multiply-add of 1·x + y
// rounds as x + y does), so the bits are theirs in every build and on every
// architecture. Four elements of y stay in registers while the rows go by:
// one load per term instead of two loads and a store. It is addRows in
// every build but GOEXPERIMENT=simd on an AVX-512 CPU, and that version's
// oracle. Cost: Σ_t min(len(rows[t]), len(y)) adds.
func addRowsScalar(y []float64, rows [][]float64) {
	n := len(y)
	k := 0
	for ; k+4 <= n; k += 4 {
		ys := y[k : k+4 : k+4]
		y0, y1, y2, y3 := ys[0], ys[1], ys[2], ys[3]
		for _, r := range rows {
			if len(r) >= k+4 {
				rs := r[k : k+4 : k+4]
				y0 += rs[0]
				y1 += rs[1]
				y2 += rs[2]
				y3 += rs[3]
				continue
			}
			if len(r) > k {
				// A row that ends inside these four elements.
				y0 += r[k]
				if len(r) > k+1 {
					y1 += r[k+1]
				}
				if len(r) > k+2 {
					y2 += r[k+2]
				}
			}
		}
		ys[0], ys[1], ys[2], ys[3] = y0, y1, y2, y3
	}
	for ; k < n; k++ {
		yk := y[k]
		for _, r := range rows {
			if len(r) > k {
				yk += r[k]
			}
		}
		y[k] = yk
	}
}
