package regress

import "rkhs/linalg"

// statsOperator is a NystromOperator computed from NystromStats instead
// of a pass over the data, the oracle of the tests of both: n, K_nmᵀY =
// L(C + nμȳᵀ), K_nmᵀ1 = nLμ and 1ᵀY = nȳ, and K_nmᵀ(K_nm·V) =
// L·BᵀB·LᵀV with BᵀB = M + nμμᵀ (formed once, both triangles).
type statsOperator struct {
	s   *NystromStats
	btb *linalg.Dense
}

var _ NystromOperator = (*statsOperator)(nil)

// newStatsOperator returns the operator of statistics with rows and L.
func newStatsOperator(s *NystromStats) *statsOperator {
	g, _ := s.moments(NoIntercept, nil, nil)
	m := g.Rows
	for i := range m {
		for j := i + 1; j < m; j++ {
			g.Set(i, j, g.At(j, i))
		}
	}
	return &statsOperator{s: s, btb: g}
}

func (o *statsOperator) Summary() (int, *linalg.Dense, []float64, []float64, error) {
	s := o.s
	nf := float64(s.n)
	_, bty := s.moments(NoIntercept, nil, nil)
	kty := linalg.NewDense(s.l.Rows, s.q, nil)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, s.l, bty, 0, kty)
	mu := linalg.NewDense(len(s.mu), 1, nil)
	for j, v := range s.mu {
		mu.Data[j] = nf * v
	}
	kt1 := linalg.NewDense(len(s.mu), 1, nil)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, s.l, mu, 0, kt1)
	sumY := make([]float64, s.q)
	for k, v := range s.ybar {
		sumY[k] = nf * v
	}
	return s.n, kty, kt1.Data, sumY, nil
}

func (o *statsOperator) NormalMul(dst, v *linalg.Dense) error {
	l := o.s.l
	t := linalg.NewDense(l.Rows, v.Cols, nil)
	linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, l, v, 0, t)
	u := linalg.NewDense(l.Rows, v.Cols, nil)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, o.btb, t, 0, u)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, l, u, 0, dst)
	return nil
}
