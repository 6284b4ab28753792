package loo

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

func laplacianOf(s float64) kernels.Kernel { return kernels.Laplacian{Sigma: s} }

// sameSelection reports where two selections differ: the tables, the
// choice and the predictions of the fits on x, bit for bit; "" if nowhere.
func sameSelection(a, b *NystromSelection, x *linalg.Dense) string {
	if a.Choice != b.Choice || a.LOORows != b.LOORows {
		return "choice"
	}
	for s := range a.Scores.Scores {
		if !sameBits(a.Scores.Scores[s], b.Scores.Scores[s]) || !sameBits(a.GCV[s], b.GCV[s]) ||
			!sameBits(a.DF[s], b.DF[s]) || !sameBits(a.LOO[s], b.LOO[s]) {
			return "table"
		}
	}
	pa, _ := a.Fit.Predict(x)
	pb, _ := b.Fit.Predict(x)
	if !sameBits(pa.Data, pb.Data) {
		return "fit"
	}
	return ""
}

// TestSelectNystromSharedMatchesEach: the passes for all σ together give,
// bit for bit, the tables, choice and fit of the passes one σ at a time,
// for both radial kernels, every intercept mode and criterion, a subset,
// two outputs, blocks of a few rows (many blocks and groups of the
// statistics that straddle them) and a λ grid from near interpolation
// (1e-300) up.
func TestSelectNystromSharedMatchesEach(t *testing.T) {
	defer func(e int) { passElems = e }(passElems)
	x, y := housing(150)
	y2 := linalg.NewDense(y.Rows, 2, nil) // one against all of two classes: the price above 22
	for i := range y.Rows {
		c := 0
		if y.At(i, 0) > 22 {
			c = 1
		}
		y2.Set(i, c, 1)
		y2.Set(i, 1-c, -1)
	}
	c := x.Slice(0, 30, 0, x.Cols).Clone()
	type tc struct {
		name   string
		kernel func(float64) kernels.Kernel
		sigmas []float64
		ic     regress.Intercept
		crit   Criterion
		subset int
		y      *linalg.Dense
	}
	var cases []tc
	for _, ic := range intercepts {
		cases = append(cases,
			tc{"gaussian " + ic.String(), gaussianOf, []float64{0.7, 1.5, 4}, ic, LOOMSE, 0, y},
			tc{"laplacian " + ic.String(), laplacianOf, []float64{2, 6}, ic, LOOMSE, 0, y})
	}
	cases = append(cases,
		tc{"gcv", gaussianOf, []float64{1, 3}, regress.FreeIntercept, GCV, 0, y},
		tc{"error rate, two outputs", gaussianOf, []float64{1, 3}, regress.FreeIntercept, LOOErrorRate, 0, y2},
		tc{"subset", laplacianOf, []float64{1, 3}, regress.PenalizedIntercept, LOOMSE, 70, y})
	lambdas := append([]float64{1e-300}, Geometric(1e-6, 1e-1, 6)...)
	for _, rows := range []int{1 << 20, 7 * c.Rows} { // one block; blocks of 7 rows
		passElems = rows
		for _, tc := range cases {
			sn := SelectNystrom{Kernel: tc.kernel, Centers: c, Sigmas: tc.sigmas, Lambdas: lambdas, Intercept: tc.ic,
				Criterion: tc.crit, Subset: tc.subset, Seed: 3}
			shareWidths = true
			var passes []int
			sn.Progress = func(pass, total int, s float64) {
				if !math.IsNaN(s) {
					t.Errorf("%s: pass %d of %d for σ = %g, want NaN (every σ)", tc.name, pass, total, s)
				}
				passes = append(passes, pass, total)
			}
			shared, err := sn.Fit(x, tc.y)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			want := []int{1, 2, 2, 2}
			if tc.crit == GCV {
				want = []int{1, 1}
			}
			if len(passes) != len(want) || passes[0] != want[0] || passes[len(passes)-1] != want[len(want)-1] {
				t.Errorf("%s: progress %v, want %v", tc.name, passes, want)
			}
			shareWidths = false
			sn.Progress = nil
			each, err := sn.Fit(x, tc.y)
			shareWidths = true
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if d := sameSelection(shared, each, x); d != "" {
				t.Errorf("%s, blocks of %d values: the shared passes' %s differs from the passes of one σ at a time", tc.name, rows, d)
			}
		}
	}
}

// TestSelectNystromSharedDeterministic: the shared passes give the same
// bits for GOMAXPROCS 1, 2 and 8, with one block and with several.
func TestSelectNystromSharedDeterministic(t *testing.T) {
	defer func(e int) { passElems = e }(passElems)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	rnd := rand.New(rand.NewPCG(1, 2))
	x, y := linalg.NewDense(600, 4, nil), linalg.NewDense(600, 1, nil)
	for i := range x.Rows {
		r := x.Row(i)
		for j := range r {
			r[j] = rnd.NormFloat64()
		}
		y.Set(i, 0, math.Sin(r[0])+r[1]*r[2]+0.1*rnd.NormFloat64())
	}
	c := x.Slice(0, 60, 0, x.Cols).Clone()
	sn := SelectNystrom{Kernel: gaussianOf, Centers: c, Sigmas: []float64{0.8, 2}, Lambdas: Geometric(1e-6, 1e-1, 8),
		Intercept: regress.FreeIntercept}
	for _, e := range []int{1 << 20, 250 * 60} {
		passElems = e
		var ref *NystromSelection
		for _, p := range []int{1, 2, 8} {
			runtime.GOMAXPROCS(p)
			sel, err := sn.Fit(x, y)
			if err != nil {
				t.Fatal(err)
			}
			if ref == nil {
				ref = sel
			} else if d := sameSelection(ref, sel, x); d != "" {
				t.Errorf("blocks of %d values: GOMAXPROCS=%d changes the %s", e, p, d)
			}
		}
	}
}

// TestSelectNystromSharedMemory: when the statistics and paths of every σ
// do not fit together the selection runs one σ at a time (the same
// result); when not even one fits, a *linalg.MemoryError comes before
// anything is allocated.
func TestSelectNystromSharedMemory(t *testing.T) {
	x, y := housing(100)
	c := x.Slice(0, 40, 0, x.Cols).Clone()
	sigmas := make([]float64, 40)
	for i := range sigmas {
		sigmas[i] = 0.5 + float64(i)/8
	}
	sn := SelectNystrom{Kernel: gaussianOf, Centers: c, Sigmas: sigmas, Lambdas: Geometric(1e-4, 1e-1, 4),
		Intercept: regress.FreeIntercept}
	want, err := sn.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	limit := sn.sharedBytes(x.Rows, x.Cols, y.Cols) / 2
	var sigmaPasses int
	sn.Progress = func(_, _ int, s float64) {
		if !math.IsNaN(s) {
			sigmaPasses++
		}
	}
	old := debug.SetMemoryLimit(int64(limit))
	got, err := sn.Fit(x, y)
	sn.Progress = nil
	debug.SetMemoryLimit(1 << 10)
	_, tiny := sn.Fit(x, y)
	debug.SetMemoryLimit(old)
	if err != nil {
		t.Fatal(err)
	}
	if d := sameSelection(want, got, x); d != "" || sigmaPasses != 2*len(sigmas) {
		t.Errorf("under a limit of %d bytes: %d passes of one σ (want %d), %q differs", limit, sigmaPasses, 2*len(sigmas), d)
	}
	var me *linalg.MemoryError
	if !errors.As(tiny, &me) || !errors.Is(tiny, linalg.ErrTooLarge) {
		t.Errorf("under a limit of 1 KiB: error %v, want a *linalg.MemoryError", tiny)
	}
}
