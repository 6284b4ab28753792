package kernels

import (
	"errors"
	"math"
	"testing"

	"rkhs/linalg"
)

// TestCheckDegenerate: verdicts with known answers — Gaussian widths far
// below and far above the distances, the two thresholds straddled by a
// pair at a chosen distance, equal rows left out, kernels without a width
// through the normalized entries.
func TestCheckDegenerate(t *testing.T) {
	line := linalg.NewDense(3, 1, []float64{0, 1, 3}) // distances 1, 2, 3
	pair := linalg.NewDense(2, 1, []float64{0, 1})    // distance 1
	// σ at which exp(−1/(2σ²)) is exactly the threshold t: 1/√(−2 ln t).
	at := func(t float64) float64 { return 1 / math.Sqrt(-2*math.Log(t)) }
	for _, c := range []struct {
		name     string
		k        Kernel
		x        *linalg.Dense
		kind     Degeneracy // 0: not degenerate
		pairs    int
		min, max float64 // the extreme normalized entries, checked to 1e-12 relative
		skip     int     // points not judged (k(x, x) = 0)
	}{
		{"gaussian σ = 1", Gaussian{Sigma: 1}, line, 0, 0, 0, 0, 0},
		{"gaussian σ = 0.01", Gaussian{Sigma: 0.01}, line, NearIdentity, 3, 0, 0, 0},
		{"gaussian σ = 1e4", Gaussian{Sigma: 1e4}, line, NearOnes, 3, math.Exp(-9 / 2e8), math.Exp(-1 / 2e8), 0},
		{"laplacian σ = 0.01", Laplacian{Sigma: 0.01}, line, NearIdentity, 3, 0, math.Exp(-100), 0},
		{"laplacian σ = 1e8", Laplacian{Sigma: 1e8}, line, NearOnes, 3, math.Exp(-3e-8), math.Exp(-1e-8), 0},
		{"just below 1e-6", Gaussian{Sigma: at(1e-6) * 0.999}, pair, NearIdentity, 1, 0, math.Exp(-1 / (2 * math.Pow(at(1e-6)*0.999, 2))), 0},
		{"just above 1e-6", Gaussian{Sigma: at(1e-6) * 1.001}, pair, 0, 0, 0, 0, 0},
		{"just above 1 − 1e-6", Gaussian{Sigma: at(1-1e-6) * 1.001}, pair, NearOnes, 1, math.Exp(-1 / (2 * math.Pow(at(1-1e-6)*1.001, 2))), 0, 0},
		{"just below 1 − 1e-6", Gaussian{Sigma: at(1-1e-6) * 0.999}, pair, 0, 0, 0, 0, 0},
		// The equal rows 0 and 0 would give an entry 1 at any σ.
		{"equal rows left out", Gaussian{Sigma: 0.01}, linalg.NewDense(3, 1, []float64{0, 5, 0}), NearIdentity, 2, 0, 0, 0},
		{"linear, orthogonal", Linear{}, linalg.NewDense(3, 3, []float64{2, 0, 0, 0, 3, 0, 0, 0, 1}), NearIdentity, 3, 0, 0, 0},
		{"linear, parallel", Linear{}, linalg.NewDense(3, 2, []float64{1, 2, 2, 4, -0.5, -1 + 1e-9}), 0, 0, 0, 0, 0},
		{"linear, parallel and the zero row", Linear{}, linalg.NewDense(3, 2, []float64{1, 2, 0, 0, 3, 6}), NearOnes, 1, 1, 1, 1},
		{"linear, general", Linear{}, linalg.NewDense(2, 2, []float64{1, 0, 1, 1}), 0, 0, 0, 0, 0},
	} {
		err := CheckDegenerate(c.k, c.x)
		var de *DegenerateError
		switch {
		case c.kind == 0 && err != nil:
			t.Errorf("%s: %v, want nil", c.name, err)
		case c.kind == 0:
		case !errors.Is(err, ErrDegenerate) || !errors.As(err, &de):
			t.Errorf("%s: %v, want a *DegenerateError wrapping ErrDegenerate", c.name, err)
		case de.Kind != c.kind || de.Pairs != c.pairs || de.Points != c.x.Rows-c.skip:
			t.Errorf("%s: %v with %d pairs of %d points, want %v with %d pairs of %d", c.name, de.Kind, de.Pairs, de.Points, c.kind, c.pairs, c.x.Rows-c.skip)
		case c.kind == NearIdentity && !close(de.Max, c.max):
			t.Errorf("%s: largest entry %.17g, want %.17g", c.name, de.Max, c.max)
		case c.kind == NearOnes && (!close(de.Min, c.min) || c.max != 0 && !close(de.Max, c.max)):
			t.Errorf("%s: entries in [%.17g, %.17g], want [%.17g, %.17g]", c.name, de.Min, de.Max, c.min, c.max)
		}
	}
}

// TestCheckDegenerateShare: the verdict is about most points — a close
// pair among far-apart points (the raw features of real data with σ = 1)
// or an outlier among points a σ sees as one does not hide it, and a
// width under which most points see a neighbour passes.
func TestCheckDegenerateShare(t *testing.T) {
	spread := func(n int, step float64, extra ...float64) *linalg.Dense {
		x := linalg.NewDense(n+len(extra), 1, nil)
		for i := 0; i < n; i++ {
			x.Set(i, 0, float64(i)*step)
		}
		for i, v := range extra {
			x.Set(n+i, 0, v)
		}
		return x
	}
	for _, c := range []struct {
		name  string
		x     *linalg.Dense
		sigma float64
		kind  Degeneracy
		alike int
	}{
		// 20 points 100 apart and one 0.5 from the first: 19 of 21 isolated.
		{"a close pair among isolated points", spread(20, 100, 0.5), 1, NearIdentity, 19},
		// Pairs 0.5 apart, the pairs 100 apart: no point is isolated.
		{"every point has a neighbour", linalg.NewDense(6, 1, []float64{0, 0.5, 100, 100.5, 200, 200.5}), 1, 0, 0},
		// 20 points 10⁻⁶ apart and one 10³ away, σ = 10⁴: 20 of 21 merged.
		{"an outlier among merged points", spread(20, 1e-6, 1e3), 1e4, NearOnes, 20},
		// Half isolated exactly: at the share.
		{"half isolated", linalg.NewDense(4, 1, []float64{0, 0.5, 100, 200}), 1, NearIdentity, 2},
	} {
		err := CheckDegenerate(Gaussian{Sigma: c.sigma}, c.x)
		var de *DegenerateError
		switch {
		case c.kind == 0 && err != nil:
			t.Errorf("%s: %v, want nil", c.name, err)
		case c.kind == 0:
		case !errors.As(err, &de) || de.Kind != c.kind || de.Alike != c.alike:
			t.Errorf("%s: %v, want %v with %d alike", c.name, err, c.kind, c.alike)
		}
	}
}

// close reports |a − b| ≤ 1e-12·max(|b|, 1e-300).
func close(a, b float64) bool { return math.Abs(a-b) <= 1e-12*max(math.Abs(b), 1e-300) }

// TestCheckDegenerateErrors: bad input is an error naming what, and the
// points are not modified.
func TestCheckDegenerateErrors(t *testing.T) {
	x := linalg.NewDense(3, 1, []float64{0, 1, 3})
	nan := linalg.NewDense(2, 1, []float64{0, math.NaN()})
	same := linalg.NewDense(3, 2, []float64{1, 2, 1, 2, 1, 2})
	for _, c := range []struct {
		name string
		k    Kernel
		x    *linalg.Dense
		want []error
	}{
		{"nil kernel", nil, x, []error{ErrParameter}},
		{"σ = 0", Gaussian{}, x, []error{ErrParameter}},
		{"nil points", Gaussian{Sigma: 1}, nil, []error{ErrData}},
		{"NaN", Gaussian{Sigma: 1}, nan, []error{ErrData, linalg.ErrNotFinite}},
		{"one point", Gaussian{Sigma: 1}, linalg.NewDense(1, 1, []float64{2}), []error{ErrData}},
		{"all equal", Gaussian{Sigma: 1}, same, []error{ErrData}},
		{"only zero rows", Linear{}, linalg.NewDense(2, 2, nil), []error{ErrData}},
	} {
		err := CheckDegenerate(c.k, c.x)
		var ie *linalg.InputError
		if !errors.As(err, &ie) {
			t.Errorf("%s: %v, want a *linalg.InputError", c.name, err)
			continue
		}
		for _, w := range c.want {
			if !errors.Is(err, w) {
				t.Errorf("%s: %v, want it to wrap %v", c.name, err, w)
			}
		}
		if errors.Is(err, ErrDegenerate) {
			t.Errorf("%s: %v wraps ErrDegenerate", c.name, err)
		}
	}
	if x.Data[0] != 0 || x.Data[1] != 1 || x.Data[2] != 3 {
		t.Errorf("points modified: %v", x.Data)
	}
}
