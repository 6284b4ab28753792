package regress

import (
	"fmt"
	"testing"

	"rkhs/kernels"
)

// BenchmarkNystromStatsAdd measures the accumulation of the statistics of
// n rows (d = 10, one output, Gaussian kernel) for m centres: 2nmd flops
// for the kernel, nm² for the features (linalg.Trsm) and nm(m+1) for M
// (linalg.Syrk); the GFLOP/s counts those three. It is the per-core
// throughput of a shard of a distributed fit (BENCHMARKS.md, "More than
// one machine"):
//
//	go test ./regress -run XXX -bench NystromStatsAdd -benchtime 3x
func BenchmarkNystromStatsAdd(b *testing.B) {
	for _, c := range []struct{ n, m int }{{20000, 250}, {8000, 1000}, {4000, 3000}} {
		b.Run(fmt.Sprintf("n=%d/m=%d", c.n, c.m), func(b *testing.B) {
			x, y, cen := statsProblem(c.n, 10, 1, c.m)
			k := kernels.Gaussian{Sigma: 3}
			st, err := NewNystromStats(k, cen)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if err := st.Add(x, y); err != nil {
					b.Fatal(err)
				}
			}
			n, m := float64(c.n), float64(c.m)
			b.ReportMetric((2*n*m*10+n*m*m+n*m*(m+1))*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
