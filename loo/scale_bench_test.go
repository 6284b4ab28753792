package loo

import (
	"flag"
	"fmt"
	"math"
	"testing"
	"time"

	"rkhs/kernels"
	"rkhs/regress"
)

// scaleFlops returns the flops of one evaluation of a ScaleObjective
// (value and gradient) as the passes' documentation counts them: n rows,
// s of them in S, m centres, d features, one output; the kernels'
// exponentials are not counted.
func scaleFlops(n, s, m, d int) float64 {
	nf, sf, mf, df := float64(n), float64(s), float64(m), float64(d)
	return (4*mf*df+8*mf*mf)*nf + (2*mf*df+3*mf*mf)*sf + 14*mf*mf*mf
}

// BenchmarkScaleEvaluate measures one evaluation of the objective of the
// length scales and its gradient (ScaleObjective.Evaluate: pass 0, the
// path, pass A, pass B) on n rows of d = 10 standard normal features and
// one output, with m = 500 centres, the leave-one-out mean over every row
// and over a subset of 2000; GFLOP/s counts the flops of scaleFlops:
//
//	go test ./loo -run XXX -bench ScaleEvaluate -benchtime 3x
func BenchmarkScaleEvaluate(b *testing.B) {
	for _, c := range []struct{ n, m, subset int }{{20000, 500, 0}, {20000, 500, 2000}} {
		s := c.n
		if c.subset > 0 {
			s = c.subset
		}
		b.Run(fmt.Sprintf("n=%d/m=%d/loo=%d", c.n, c.m, s), func(b *testing.B) {
			x, y := relevanceData(c.n, 10)
			o := ScaleObjective{Centers: x.Slice(0, c.m, 0, 10).Clone(), Intercept: regress.FreeIntercept, Subset: c.subset}
			theta := make([]float64, 11)
			for j := range 10 {
				theta[j] = math.Log(3)
			}
			theta[10] = math.Log(1e-5)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := o.Evaluate(x, y, theta); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(scaleFlops(c.n, s, c.m, 10)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// Flags of TestScaleTiming.
var (
	scaleTiming = flag.Bool("scale.timing", false, "time one evaluation of the length scales' objective against SelectNystrom (slow)")
	scaleN      = flag.Int("scale.n", 100000, "rows of TestScaleTiming")
	scaleM      = flag.Int("scale.m", 1000, "centres of TestScaleTiming")
)

// TestScaleTiming times, on one machine in one run, one evaluation of the
// objective of the length scales with its gradient against one isotropic
// selection, SelectNystrom over 5 σ and 20 λ with the same centres, on n
// rows of d = 10 features (flags -scale.n, -scale.m), each with the
// leave-one-out mean over every row and over 20,000 rows:
//
//	go test ./loo -run ScaleTiming -scale.timing -v -timeout 60m
func TestScaleTiming(t *testing.T) {
	if !*scaleTiming {
		t.Skip("timing run: -scale.timing")
	}
	n, m := *scaleN, *scaleM
	x, y := relevanceData(n, 10)
	c := x.Slice(0, m, 0, 10).Clone()
	theta := make([]float64, 11)
	for j := range 10 {
		theta[j] = math.Log(3)
	}
	theta[10] = math.Log(1e-5)
	for _, subset := range []int{0, 20000} {
		sn := SelectNystrom{Kernel: func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }, Centers: c,
			Sigmas: Geometric(1, 10, 5), Lambdas: Geometric(1e-9, 1e-1, 20), Intercept: regress.FreeIntercept, Subset: subset}
		o := ScaleObjective{Centers: c, Intercept: regress.FreeIntercept, Subset: subset}
		// An evaluation before and after the selection, so that a change
		// in the machine's load during the run shows.
		eval := func() float64 {
			start := time.Now()
			if _, err := o.Evaluate(x, y, theta); err != nil {
				t.Fatal(err)
			}
			return time.Since(start).Seconds()
		}
		ev1 := eval()
		start := time.Now()
		if _, err := sn.Fit(x, y); err != nil {
			t.Fatal(err)
		}
		sel := time.Since(start).Seconds()
		ev2 := eval()
		s := n
		if subset > 0 && subset < n {
			s = subset
		}
		ev := (ev1 + ev2) / 2
		t.Logf("n = %d, m = %d, leave-one-out rows %d: SelectNystrom (5 σ, 20 λ, shared passes) %.1f s; one evaluation %.1f and %.1f s (%.1f GFLOP/s); ratio %.2f",
			n, m, s, sel, ev1, ev2, scaleFlops(n, s, m, 10)/ev/1e9, ev/sel)
	}
}

// TestScalePassTiming times each pass of one evaluation through the
// streamed API (n = 20,000 rows, m = 500 centres, d = 10, one output, the
// leave-one-out mean over every row) and reports its speed in the flops
// its documentation counts:
//
//	go test ./loo -run ScalePassTiming -scale.timing -v
func TestScalePassTiming(t *testing.T) {
	if !*scaleTiming {
		t.Skip("timing run: -scale.timing")
	}
	const n, m, d = 20000, 500, 10
	x, y := relevanceData(n, d)
	o := ScaleObjective{Centers: x.Slice(0, m, 0, d).Clone(), Intercept: regress.FreeIntercept}
	theta := make([]float64, d+1)
	for j := range d {
		theta[j] = math.Log(3)
	}
	theta[d] = math.Log(1e-5)
	nf, mf, df := float64(n), float64(m), float64(d)
	step := func(name string, flops float64, f func() error) {
		t.Helper()
		start := time.Now()
		if err := f(); err != nil {
			t.Fatal(err)
		}
		s := time.Since(start).Seconds()
		t.Logf("%-28s %7.2f s  %6.2f GFLOP/s of %.3g flops", name, s, flops/s/1e9, flops)
	}
	var (
		st *ScaleStats
		p  *ScalePath
		a  *ScaleLOO
		ad *ScaleAdjoint
	)
	step("NewStats (m³/3)", mf*mf*mf/3, func() (err error) { st, err = o.NewStats(theta); return err })
	step("pass 0 (2md + 2m²)n", (2*mf*df+2*mf*mf)*nf, func() error { return st.Add(x, y) })
	step("NewScalePath (9m³)", 9*mf*mf*mf, func() (err error) { p, err = NewScalePath(st); return err })
	step("pass A (2md + 3m²)n", (2*mf*df+3*mf*mf)*nf, func() (err error) {
		if a, err = p.NewLOO(); err == nil {
			err = a.Add(x, y)
		}
		return err
	})
	step("NewAdjoint (4m³)", 4*mf*mf*mf, func() (err error) { ad, err = p.NewAdjoint(a); return err })
	step("pass B (4md + 6m²)n", (4*mf*df+6*mf*mf)*nf, func() error { return ad.Add(x, y, nil) })
}
