package loo

import (
	"errors"
	"math"
	"testing"

	"rkhs/linalg"
	"rkhs/regress"
)

// TestSelectNystromFitStats: the selection from statistics summed in two
// parts and merged has Fit's table to 1e-9, Fit's choice, and Fit's model
// to 1e-9, for GCV (no rows) and the leave-one-out MSE (one pass), in each
// intercept mode; the statistics are not modified.
func TestSelectNystromFitStats(t *testing.T) {
	x, y := housing(150)
	c := x.Slice(0, 30, 0, x.Cols).Clone()
	sigmas := []float64{0.8, 1.5, 3}
	lambdas := Geometric(1e-5, 1e-1, 5)
	for _, crit := range []Criterion{GCV, LOOMSE} {
		for _, ic := range intercepts {
			sn := SelectNystrom{Kernel: gaussianOf, Centers: c, Sigmas: sigmas, Lambdas: lambdas, Intercept: ic, Criterion: crit}
			want, err := sn.Fit(x, y)
			if err != nil {
				t.Fatal(err)
			}
			stats := make([]*regress.NystromStats, len(sigmas))
			for s, sg := range sigmas {
				a, _ := regress.NewNystromStats(gaussianOf(sg), c)
				b, _ := regress.NewNystromStats(gaussianOf(sg), c)
				if err := a.Add(x.Slice(0, 70, 0, x.Cols), y.Slice(0, 70, 0, y.Cols)); err != nil {
					t.Fatal(err)
				}
				if err := b.Add(x.Slice(70, x.Rows, 0, x.Cols), y.Slice(70, y.Rows, 0, y.Cols)); err != nil {
					t.Fatal(err)
				}
				if err := a.Merge(b); err != nil {
					t.Fatal(err)
				}
				stats[s] = a
			}
			before, _ := stats[0].MarshalBinary()
			rx, ry := x, y
			if crit == GCV {
				rx, ry = nil, nil
			}
			got, err := sn.FitStats(stats, rx, ry)
			if err != nil {
				t.Fatal(err)
			}
			if after, _ := stats[0].MarshalBinary(); string(after) != string(before) {
				t.Errorf("%v %v: FitStats modified the statistics", crit, ic)
			}
			for a := range sigmas {
				for j, v := range want.Scores.Scores[a] {
					if r := math.Abs(got.Scores.Scores[a][j]-v) / v; r > 1e-9 {
						t.Errorf("%v %v σ=%g λ=%g: from statistics %.12g, Fit %.12g", crit, ic, sigmas[a], lambdas[j], got.Scores.Scores[a][j], v)
					}
				}
			}
			if got.Sigma != want.Sigma || got.Lambda != want.Lambda {
				t.Errorf("%v %v: chose σ=%g λ=%g, Fit σ=%g λ=%g", crit, ic, got.Sigma, got.Lambda, want.Sigma, want.Lambda)
			}
			pg, _ := got.Fit.Predict(x)
			pw, _ := want.Fit.Predict(x)
			if r := maxRel(pg, pw); r > 1e-9 {
				t.Errorf("%v %v: the fits differ by %.2g", crit, ic, r)
			}
		}
	}
}

// TestSelectNystromFitStatsErrors: statistics that do not match Sigmas,
// nil statistics, and a leave-one-out criterion without rows are input
// errors.
func TestSelectNystromFitStatsErrors(t *testing.T) {
	x, y := housing(40)
	c := x.Slice(0, 10, 0, x.Cols).Clone()
	s, _ := regress.NewNystromStats(gaussianOf(1), c)
	if err := s.Add(x, y); err != nil {
		t.Fatal(err)
	}
	empty, _ := regress.NewNystromStats(gaussianOf(1), c)
	for name, tc := range map[string]struct {
		sn    SelectNystrom
		stats []*regress.NystromStats
		x, y  *linalg.Dense
	}{
		"no sigmas":    {SelectNystrom{Criterion: GCV}, []*regress.NystromStats{s}, nil, nil},
		"too few":      {SelectNystrom{Sigmas: []float64{1, 2}, Criterion: GCV}, []*regress.NystromStats{s}, nil, nil},
		"nil":          {SelectNystrom{Sigmas: []float64{1}, Criterion: GCV}, []*regress.NystromStats{nil}, nil, nil},
		"no rows":      {SelectNystrom{Sigmas: []float64{1}, Criterion: GCV}, []*regress.NystromStats{empty}, nil, nil},
		"loo, no rows": {SelectNystrom{Sigmas: []float64{1}}, []*regress.NystromStats{s}, nil, nil},
		"loo, bad Y":   {SelectNystrom{Sigmas: []float64{1}}, []*regress.NystromStats{s}, x, linalg.NewDense(40, 3, nil)},
	} {
		if _, err := tc.sn.FitStats(tc.stats, tc.x, tc.y); !errors.Is(err, ErrInput) {
			t.Errorf("%s: %v, want ErrInput", name, err)
		}
	}
}
