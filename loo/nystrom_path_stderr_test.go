package loo

import (
	"errors"
	"math"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// TestNystromPathStdErr: the standard errors of the leave-one-out MSE
// and error rate of a stream that saw a subset of the rows equal
// √((1 − r/n)·s²/r) computed from the rows' own errors, each read from a
// stream of that row alone (two outputs: a row's error is the mean over
// both); they are the same when the subset is streamed in two parts and
// merged, 0 when every row was added, and an error with fewer than 2 rows.
func TestNystromPathStdErr(t *testing.T) {
	const n = 200
	x, y := housing(n)
	lambdas := Geometric(1e-4, 1, 4)
	s, _ := streamSetup(t, kernels.Gaussian{Sigma: 1.5}, x, y, 60)
	path := func() *NystromPath {
		p, err := NewNystromPath(s, regress.FreeIntercept, lambdas)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	var rows []int // every third row
	for i := 0; i < n; i += 3 {
		rows = append(rows, i)
	}
	r := len(rows)
	sx, sy := linalg.NewDense(r, x.Cols, nil), linalg.NewDense(r, y.Cols, nil)
	for k, i := range rows {
		copy(sx.Row(k), x.Row(i))
		copy(sy.Row(k), y.Row(i))
	}
	// The rows' errors, one stream of one row each.
	mse := make([][]float64, r)
	wrong := make([][]float64, r)
	for k := range rows {
		p := path()
		if err := p.Add(sx.Slice(k, k+1, 0, sx.Cols), sy.Slice(k, k+1, 0, sy.Cols)); err != nil {
			t.Fatal(err)
		}
		mse[k], _ = p.MSE()
		wrong[k], _ = p.ErrorRate()
	}
	want := func(e [][]float64, j int) float64 {
		var mean, ss float64
		for k := range e {
			mean += e[k][j]
		}
		mean /= float64(r)
		for k := range e {
			ss += (e[k][j] - mean) * (e[k][j] - mean)
		}
		return math.Sqrt((1 - float64(r)/n) * ss / float64(r-1) / float64(r))
	}
	whole := path()
	streamAll(t, whole, sx, sy, 16)
	a, b := path(), path()
	streamAll(t, a, sx.Slice(0, 30, 0, sx.Cols), sy.Slice(0, 30, 0, sy.Cols), 16)
	streamAll(t, b, sx.Slice(30, r, 0, sx.Cols), sy.Slice(30, r, 0, sy.Cols), 16)
	if err := a.Merge(b); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		f    func(*NystromPath) ([]float64, error)
		e    [][]float64
	}{
		{"MSEStdErr", (*NystromPath).MSEStdErr, mse},
		{"ErrorRateStdErr", (*NystromPath).ErrorRateStdErr, wrong},
	} {
		got, err := c.f(whole)
		if err != nil {
			t.Fatal(err)
		}
		merged, _ := c.f(a)
		for j, l := range lambdas {
			w := want(c.e, j)
			if w == 0 && c.name == "MSEStdErr" {
				t.Fatalf("λ=%g: the rows' errors are all equal; the test needs a spread", l)
			}
			if d := math.Abs(got[j] - w); d > 1e-10*w {
				t.Errorf("%s λ=%g: %v, from the rows' errors %v", c.name, l, got[j], w)
			}
			if d := math.Abs(merged[j] - w); d > 1e-10*w {
				t.Errorf("%s λ=%g: merged %v, from the rows' errors %v", c.name, l, merged[j], w)
			}
		}
		all := path()
		streamAll(t, all, x, y, 64)
		if se, err := c.f(all); err != nil || se[0] != 0 {
			t.Errorf("%s with every row: %v, %v; want 0", c.name, se, err)
		}
		one := path()
		if err := one.Add(sx.Slice(0, 1, 0, sx.Cols), sy.Slice(0, 1, 0, sy.Cols)); err != nil {
			t.Fatal(err)
		}
		if _, err := c.f(one); !errors.Is(err, ErrInput) {
			t.Errorf("%s of one row: %v, want ErrInput", c.name, err)
		}
	}
}
