package rkhsbeam

import (
	"context"
	"math"
	"os"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

func prismRun(ctx context.Context, p *beam.Pipeline) error {
	_, err := prism.Execute(ctx, p)
	return err
}

// TestPassOperator: the products and the summary computed by passes over
// the files on Prism equal those of K_nm = k(X, C) formed in memory.
func TestPassOperator(t *testing.T) {
	x, y := readAll(t, "testdata/train-0.csv", "testdata/train-1.csv", "testdata/train-2.csv.gz", "testdata/train-3.csv")
	c := x.Slice(0, 25, 0, 3).Clone()
	spec := kernels.Spec{Type: "gaussian", Sigma: 1}
	k, _ := spec.Kernel()
	knm, err := kernels.CrossTo(nil, k, x, c)
	if err != nil {
		t.Fatal(err)
	}
	ones := linalg.NewDense(x.Rows, 1, nil)
	for i := range ones.Data {
		ones.Data[i] = 1
	}
	wkty, wkt1 := linalg.NewDense(25, 1, nil), linalg.NewDense(25, 1, nil)
	linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, knm, y, 0, wkty)
	linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, knm, ones, 0, wkt1)
	wsumY := linalg.NewDense(1, 1, nil)
	linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, ones, y, 0, wsumY)
	op := &PassOperator{Ctx: context.Background(), Input: Input{Patterns: []string{"testdata/train-*"}, Format: "csv"},
		Kernel: spec, Centers: c, Scratch: t.TempDir(), Run: prismRun}
	n, kty, kt1, sumY, err := op.Summary()
	if err != nil {
		t.Fatal(err)
	}
	if n != x.Rows || relDiff(kty, wkty) > 1e-12 || relDiff(linalg.NewDense(25, 1, kt1), wkt1) > 1e-12 ||
		relDiff(linalg.NewDense(1, 1, sumY), wsumY) > 1e-12 {
		t.Errorf("Summary: n = %d (want %d), KᵀY off by %.2g, 1ᵀY %v (want %v)", n, x.Rows, relDiff(kty, wkty), sumY, wsumY.Data)
	}
	v := linalg.NewDense(25, 2, nil)
	for i := range v.Data {
		v.Data[i] = float64(i%7) - 3
	}
	got, want := linalg.NewDense(25, 2, nil), linalg.NewDense(25, 2, nil)
	if err := op.NormalMul(got, v); err != nil {
		t.Fatal(err)
	}
	kv := linalg.NewDense(x.Rows, 2, nil)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, knm, v, 0, kv)
	linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, knm, kv, 0, want)
	if e := relDiff(got, want); e > 1e-12 {
		t.Errorf("NormalMul differs from K_nmᵀ(K_nm·V) by %.2g relative", e)
	}
	if op.Passes() != 2 {
		t.Errorf("%d passes, want 2", op.Passes())
	}
}

// TestFitCG: the conjugate-gradient fit on Prism, every product a pass
// over the files, reaches the direct Nyström solution with the centres it
// drew (Falkon penalizes with K_mm plus a tiny jitter, hence 1e-6, not
// bit for bit), with and without a free intercept. The two fits share a
// scratch directory: each works in a directory of its own there, and
// leaves nothing behind.
func TestFitCG(t *testing.T) {
	x, y := readAll(t, "testdata/train-0.csv", "testdata/train-1.csv", "testdata/train-2.csv.gz", "testdata/train-3.csv")
	spec := kernels.Spec{Type: "gaussian", Sigma: 1}
	k, _ := spec.Kernel()
	const lambda = 1e-2
	scratch := t.TempDir()
	used := map[string]bool{}  // the run directories seen in scratch
	loose := map[string]bool{} // files seen in scratch itself
	runAndLook := func(ctx context.Context, p *beam.Pipeline) error {
		err := prismRun(ctx, p)
		entries, _ := os.ReadDir(scratch)
		for _, e := range entries {
			if e.IsDir() {
				used[e.Name()] = true
			} else {
				loose[e.Name()] = true
			}
		}
		return err
	}
	for _, ic := range []regress.Intercept{regress.NoIntercept, regress.FreeIntercept} {
		dir := t.TempDir()
		got, err := FitCG(context.Background(), FitOptions{Input: Input{Patterns: []string{"testdata/train-*"}, Format: "csv"},
			Kernel: spec, Lambda: lambda, Intercept: ic, Centers: 10, Model: dir + "/m.json"}, scratch, runAndLook)
		if err != nil {
			t.Fatalf("%v: %v", ic, err)
		}
		if left, _ := os.ReadDir(scratch); len(left) != 0 {
			t.Errorf("%v: the fit left %d entries in the scratch directory", ic, len(left))
		}
		want, err := regress.Nystrom{Kernel: k, Lambda: lambda, Intercept: ic, Given: got.Centers}.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		scale := 0.0
		for _, v := range want.Coef.Data {
			scale = max(scale, math.Abs(v))
		}
		for i, v := range got.Coef.Data {
			if d := math.Abs(v - want.Coef.Data[i]); d > 1e-6*scale {
				t.Errorf("%v: coefficient %d is %v, want %v", ic, i, v, want.Coef.Data[i])
			}
		}
		if d := math.Abs(got.Intercept[0] - want.Intercept[0]); d > 1e-6*(1+math.Abs(want.Intercept[0])) {
			t.Errorf("%v: intercept %v, want %v", ic, got.Intercept[0], want.Intercept[0])
		}
	}
	if len(loose) > 0 {
		t.Errorf("the fits wrote %d files in the scratch directory itself, outside a run's own", len(loose))
	}
	if len(used) != 2 {
		t.Errorf("two fits worked in %d directories of the scratch, want 2 (one each)", len(used))
	}
}

// TestPassOperatorCG: a plain conjugate gradient loop on
// (K_nmᵀK_nm + nλK_mm)c = K_nmᵀy, every product a pass over the files on
// Prism, reaches the coefficients of regress.Nystrom (no intercept): the
// driver loop a conjugate-gradient solver runs, with a stand-in solver
// independent of regress.Falkon.
func TestPassOperatorCG(t *testing.T) {
	x, y := readAll(t, "testdata/train-0.csv", "testdata/train-1.csv", "testdata/train-2.csv.gz", "testdata/train-3.csv")
	c := x.Slice(0, 8, 0, 3).Clone()
	spec := kernels.Spec{Type: "gaussian", Sigma: 1}
	k, _ := spec.Kernel()
	const lambda = 1e-2
	want, err := regress.Nystrom{Kernel: k, Lambda: lambda, Given: c}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	op := &PassOperator{Ctx: context.Background(), Input: Input{Patterns: []string{"testdata/train-*"}, Format: "csv"},
		Kernel: spec, Centers: c, Scratch: t.TempDir(), Run: prismRun}
	n, b, _, _, err := op.Summary()
	if err != nil {
		t.Fatal(err)
	}
	kmm, _ := kernels.GramTo(nil, k, c, linalg.All)
	m := c.Rows
	apply := func(dst, v *linalg.Dense) {
		if err := op.NormalMul(dst, v); err != nil {
			t.Fatal(err)
		}
		linalg.Gemm(linalg.NoTrans, linalg.NoTrans, float64(n)*lambda, kmm, v, 1, dst)
	}
	dot := func(a, b *linalg.Dense) float64 { return linalg.Dot(a.Data, b.Data) }
	cc := linalg.NewDense(m, 1, nil)
	r, p, ap := b.Clone(), b.Clone(), linalg.NewDense(m, 1, nil)
	rr := dot(r, r)
	for it := 0; it < 3*m && rr > 1e-24*dot(b, b); it++ {
		apply(ap, p)
		alpha := rr / dot(p, ap)
		for i := range cc.Data {
			cc.Data[i] += alpha * p.Data[i]
			r.Data[i] -= alpha * ap.Data[i]
		}
		rr2 := dot(r, r)
		for i := range p.Data {
			p.Data[i] = r.Data[i] + rr2/rr*p.Data[i]
		}
		rr = rr2
	}
	if e := relDiff(cc, want.Coef); e > 1e-8 {
		t.Errorf("after %d passes the coefficients differ from Nystrom.Fit by %.2g relative", op.Passes(), e)
	}
}

// TestFitCGRefuses: options the conjugate-gradient fit cannot honour, and
// LIBSVM input without a feature count (with or without a centres file),
// are errors before any pipeline runs.
func TestFitCGRefuses(t *testing.T) {
	base := FitOptions{Input: Input{Patterns: []string{"testdata/train-*"}, Format: "csv"},
		Kernel: kernels.Spec{Type: "gaussian", Sigma: 1}, Lambda: 1e-3, Centers: 10, Model: t.TempDir() + "/m.json"}
	stats, dead, libsvm := base, base, base
	stats.Stats = t.TempDir() + "/s.bin"
	dead.DeadLetter = t.TempDir() + "/bad.txt"
	libsvm.Input.Format, libsvm.Centers, libsvm.CentersFile = "libsvm", 0, "testdata/centres.txt"
	for name, o := range map[string]FitOptions{"stats": stats, "dead letter": dead, "libsvm without features": libsvm} {
		if _, err := FitCG(context.Background(), o, t.TempDir(), func(context.Context, *beam.Pipeline) error {
			t.Fatalf("%s: a pipeline ran", name)
			return nil
		}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
