package classify

import (
	"errors"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// TestTargetsTooLarge: with as many classes as rows, the n×classes matrix
// of one-vs-all targets is refused before it is allocated (a
// *linalg.MemoryError wrapping linalg.ErrTooLarge), by RLS and by Falkon;
// the allocation is measured, so that a check made after it fails the
// test.
func TestTargetsTooLarge(t *testing.T) {
	const n = 2000 // 2000 classes: a 2000×2000 target matrix, 32 MB
	rng := rand.New(rand.NewPCG(1, 2))
	x := linalg.NewDense(n, 1, nil)
	labels := make([]float64, n)
	for i := range labels {
		x.Data[i] = rng.Float64()
		labels[i] = float64(i)
	}
	k := kernels.Gaussian{Sigma: 1}
	for _, c := range []struct {
		name string
		fit  func() error
	}{
		{"RLS", func() error { _, err := RLS{Kernel: k, Lambda: 1e-3}.Fit(x, labels); return err }},
		{"Falkon", func() error {
			_, err := Falkon{Kernel: k, Lambda: 1e-3, Centers: 10, Intercept: regress.FreeIntercept}.Fit(x, labels)
			return err
		}},
	} {
		old := debug.SetMemoryLimit(8 << 20)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err := c.fit()
		runtime.ReadMemStats(&after)
		debug.SetMemoryLimit(old)
		var me *linalg.MemoryError
		if !errors.As(err, &me) || !errors.Is(err, linalg.ErrTooLarge) {
			t.Errorf("%s: err = %v, want a *linalg.MemoryError", c.name, err)
			continue
		}
		if !strings.Contains(me.Op, "2000 classes") {
			t.Errorf("%s: Op %q does not name the classes", c.name, me.Op)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 8*n*n/4 {
			t.Errorf("%s: allocated %d bytes before refusing; the targets are %d", c.name, got, 8*n*n)
		}
	}
}

// TestNestedErrorOnce: an error of regress about an option is reported
// once, under classify's sentinel and name, not wrapped in a second copy
// of itself; the regress sentinel stays reachable.
func TestNestedErrorOnce(t *testing.T) {
	x := linalg.NewDense(4, 1, []float64{0, 1, 2, 3})
	labels := []float64{0, 0, 1, 1}
	k := kernels.Gaussian{Sigma: 1}
	for _, c := range []struct {
		name, arg string
		err       error
	}{
		{"Falkon centres", "Centers", func() error {
			_, err := Falkon{Kernel: k, Lambda: 1e-3, Centers: 50, Intercept: regress.FreeIntercept}.Fit(x, labels)
			return err
		}()},
		{"Falkon intercept", "Intercept", func() error {
			_, err := Falkon{Kernel: k, Lambda: 1e-3, Centers: 2, Intercept: regress.PenalizedIntercept}.Fit(x, labels)
			return err
		}()},
	} {
		wantInputError(t, c.name, c.err, c.arg)
		if !errors.Is(c.err, regress.ErrInput) {
			t.Errorf("%s: %v does not wrap regress.ErrInput", c.name, c.err)
		}
		if msg := c.err.Error(); strings.Count(msg, "invalid input") != 1 || strings.Count(msg, "Falkon.Fit") != 1 {
			t.Errorf("%s: %q says it twice", c.name, msg)
		}
	}
}
