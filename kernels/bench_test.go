package kernels

import (
	"fmt"
	"testing"
	"time"

	"rkhs/internal/avx"
	"rkhs/internal/parallel"
	"rkhs/internal/testmat"
	"rkhs/linalg"
)

// The Gaussian kernel at small d, where the exp pass weighs most: points
// uniform in [−1, 1)^10, σ = 1 (kernel values e^−3.3 on average).

const benchD = 10

func benchData(seed uint64, n int) *linalg.Dense {
	return dense(testmat.Random(testmat.NewRand(seed), n, benchD, 0))
}

// BenchmarkGaussianGram is GramTo (both triangles) of n points.
func BenchmarkGaussianGram(b *testing.B) {
	for _, n := range []int{2000, 4000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			x, k := benchData(1, n), linalg.NewDense(n, n, nil)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := GramTo(k, Gaussian{Sigma: 1}, x, linalg.All); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGaussianCross is CrossTo between two sets of n points.
func BenchmarkGaussianCross(b *testing.B) {
	for _, n := range []int{2000, 4000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			x, z, k := benchData(1, n), benchData(2, n), linalg.NewDense(n, n, nil)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := CrossTo(k, Gaussian{Sigma: 1}, x, z); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRowsMulTo is K·V with K = K(X, C) for n points and m = 4000
// centres, V with q columns: MulVecTo for q = 1 (a prediction, or one
// conjugate gradient step on K) and MulTo for q = 1 and 8.
func BenchmarkRowsMulTo(b *testing.B) {
	const m = 4000
	n := 20000
	if testing.Short() {
		n = 4000
	}
	x, c := benchData(1, n), benchData(2, m)
	r, err := NewRows(Gaussian{Sigma: 1}, x, c)
	if err != nil {
		b.Fatal(err)
	}
	for _, q := range []int{1, 8} {
		v := benchData(3, m).Slice(0, m, 0, q)
		flops := float64(n) * m * (2*benchD + 2*float64(q))
		if q == 1 {
			vec, out := make([]float64, m), make([]float64, n)
			for i := range vec {
				vec[i] = v.At(i, 0)
			}
			b.Run(fmt.Sprintf("vec/n=%d", n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					r.MulVecTo(out, vec)
				}
				b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
		out := linalg.NewDense(n, q, nil)
		b.Run(fmt.Sprintf("q=%d/n=%d", q, n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r.MulTo(out, v)
			}
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkNormalMulTo is one product Kᵀ(K·v) with K = K(X, C) for n
// points and m = 4000 centres, q = 1: the work of one iteration of a
// Nyström conjugate gradient solver. The split sub-benchmark runs the
// same blocks with timers around the three phases (distance Gemm, exp
// pass, the two products) and reports the seconds of each per call,
// summed over the goroutines and divided by their number.
func BenchmarkNormalMulTo(b *testing.B) {
	const m, q = 4000, 1
	ns := []int{100000}
	if testing.Short() {
		ns = []int{10000}
	}
	for _, n := range ns {
		x, c, v := benchData(1, n), benchData(2, m), benchData(3, m).Slice(0, m, 0, q)
		r, err := NewRows(Gaussian{Sigma: 1}, x, c)
		if err != nil {
			b.Fatal(err)
		}
		out := linalg.NewDense(m, q, nil)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r.NormalMulTo(out, v)
			}
			flops := float64(n) * m * (2*benchD + 4*q)
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
		b.Run(fmt.Sprintf("split/n=%d", n), func(b *testing.B) {
			var sum [3]time.Duration
			for b.Loop() {
				t := splitNormalMul(r, v)
				for i := range sum {
					sum[i] += t[i]
				}
			}
			for i, name := range []string{"dist-s", "exp-s", "prod-s"} {
				b.ReportMetric(sum[i].Seconds()/float64(b.N), name)
			}
		})
	}
}

// splitNormalMul is NormalMulTo's pass over the blocks (streamJob.Run with
// opNormal, partials discarded) with each phase timed: inner products,
// elementwise pass, the two products. It returns the time of each phase
// summed over the goroutines and divided by their number.
func splitNormalMul(r *Rows, v *linalg.Dense) [3]time.Duration {
	_, m := r.Dims()
	q := v.Cols
	chunks := min(maxStreamChunks, max(1, streamPartialElems/(m*q)), r.blocks())
	plan := r.plan(chunks)
	vt := make([]float64, m*q)
	for i := range m {
		for c, x := range v.Row(i) {
			vt[c*m+i] = x
		}
	}
	p := parallel.Team(chunks, float64(plan.n)*float64(m), minParallelWork)
	times := make([][3]time.Duration, p)
	parallel.Claim(p, chunks, parallel.Func(func(w, c int) {
		var kbuf, xbuf linalg.Dense
		part, wb := make([]float64, m*q), make([]float64, plan.b*q)
		lo, hi := plan.rows(c)
		for i0 := lo; i0 < hi; i0 += plan.b {
			i1 := min(i0+plan.b, hi)
			b := i1 - i0
			t0 := time.Now()
			kb := kbuf.Reuse(b, m)
			x := r.x.Slice(i0, i1, 0, r.x.Cols)
			r.p.product(kb, x, xbuf.Reuse(b, r.x.Cols))
			t1 := time.Now()
			for i := range b {
				avx.ClearUpper()
				r.p.finishRow(kb.Row(i), x.Row(i), r.nx[i0:i1], i)
			}
			t2 := time.Now()
			mulRows(wb[:b*q], kb.Data, vt, b, m, q)
			addRows(part, kb.Data, wb[:b*q], b, m, q)
			t3 := time.Now()
			times[w][0] += t1.Sub(t0)
			times[w][1] += t2.Sub(t1)
			times[w][2] += t3.Sub(t2)
		}
	}))
	var sum [3]time.Duration
	for _, t := range times {
		for i := range sum {
			sum[i] += t[i] / time.Duration(p)
		}
	}
	return sum
}
