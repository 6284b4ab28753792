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

// BenchmarkNystromCrossover compares, per training row and for m centres
// (d = 10, Gaussian kernel, one output), the direct path — NystromStats.Add,
// one pass, 2m² + 2md flops per row — with one pass of a conjugate-
// gradient solver, kernels.Rows.NormalMulTo (2md + 4m flops and m exps
// per row), which such a solver makes once per iteration. The ratio of the
// two ns/row figures is the number of iterations at which both paths cost
// the same; BENCHMARKS.md ("More than one machine") reports it:
//
//	go test -c ./regress && for p in 1 2; do GOMAXPROCS=$p ./regress.test -test.run XXX -test.bench NystromCrossover; done
//
// (GOMAXPROCS in the environment, one process per value: go test -cpu does
// not reliably set it for b.Loop benchmarks.)
func BenchmarkNystromCrossover(b *testing.B) {
	for _, m := range []int{500, 1000, 2000, 3000, 4000} {
		n := max(512, int(2e9)/(m*m))
		x, y, cen := statsProblem(max(n, m), 10, 1, m)
		x, y = x.Slice(0, n, 0, 10), y.Slice(0, n, 0, 1)
		k := kernels.Gaussian{Sigma: 3}
		b.Run(fmt.Sprintf("add/m=%d", m), func(b *testing.B) {
			st, err := NewNystromStats(k, cen)
			if err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				if err := st.Add(x, y); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/row")
		})
		b.Run(fmt.Sprintf("pass/m=%d", m), func(b *testing.B) {
			rows, err := kernels.NewRows(k, x, cen)
			if err != nil {
				b.Fatal(err)
			}
			v := randDense(4, m, 1)
			out := v.Clone()
			for b.Loop() {
				rows.NormalMulTo(out, v)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/row")
		})
	}
}
