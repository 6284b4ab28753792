package rkhs_test

// The rows of the convention tables for the length scales of packages loo
// (ScaleObjective, its passes, SelectScales) and classify (SelectScales):
// notFiniteRows and
// noPanicRows in vocabulary_test.go and tooLargeRows in memory_test.go
// append these.

import (
	"math"
	"slices"
	"testing"

	"rkhs/classify"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// scaleFixture is an objective of length scales on rows x, y at θ, with
// its three passes run, for the rows of the tables.
type scaleFixture struct {
	obj   loo.ScaleObjective
	theta []float64
	stats *loo.ScaleStats
	path  *loo.ScalePath
	loo   *loo.ScaleLOO
}

// newScaleFixture builds the objective of the first m rows of x as
// centres, with a free intercept, at σ_j = 1 and λ = 10⁻², and runs pass
// 0 and pass A on every row.
func newScaleFixture(t testing.TB, x, y *linalg.Dense, m int) *scaleFixture {
	t.Helper()
	f := &scaleFixture{obj: loo.ScaleObjective{Centers: x.Slice(0, m, 0, x.Cols).Clone(), Intercept: regress.FreeIntercept}}
	f.theta = make([]float64, x.Cols+1)
	f.theta[x.Cols] = math.Log(1e-2)
	var err error
	if f.stats, err = f.obj.NewStats(f.theta); err == nil {
		err = f.stats.Add(x, y)
	}
	if err == nil {
		f.path, err = loo.NewScalePath(f.stats)
	}
	if err == nil {
		f.loo, err = f.path.NewLOO()
	}
	if err == nil {
		err = f.loo.Add(x, y)
	}
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// adjoint returns empty pass-B sums of the fixture.
func (f *scaleFixture) adjoint(t testing.TB) *loo.ScaleAdjoint {
	t.Helper()
	ad, err := f.path.NewAdjoint(f.loo)
	if err != nil {
		t.Fatal(err)
	}
	return ad
}

// scaleNotFiniteRows are the rows of notFiniteRows for the length scales.
func scaleNotFiniteRows(t testing.TB) []apiRow {
	x, y, nan, labels := vocabData()
	nanLabels := append([]float64(nil), labels...)
	nanLabels[5] = math.NaN()
	nanY := y.Clone()
	nanY.Set(2, 0, math.Inf(1))
	f := newScaleFixture(t, x, y, 4)
	nanf := math.NaN()
	bad := append([]float64(nil), f.theta...)
	bad[1] = nanf
	return []apiRow{
		{"kernels.NewScaled", "σ NaN", func() error {
			return errOf(kernels.NewScaled(kernels.Gaussian{Sigma: 1}, x, slices.Repeat([]float64{nanf}, x.Cols)))
		}},
		{"kernels.NewScaled", "Z NaN", func() error { return errOf(kernels.NewScaled(kernels.Laplacian{Sigma: 1}, nan, []float64{1})) }},
		{"loo.ScaleObjective.NewStats", "θ NaN", func() error { return errOf(f.obj.NewStats(bad)) }},
		{"loo.ScaleObjective.Evaluate", "X NaN", func() error { return errOf(f.obj.Evaluate(nan, y, f.theta)) }},
		{"loo.ScaleObjective.Evaluate", "θ NaN", func() error { return errOf(f.obj.Evaluate(x, y, bad)) }},
		{"loo.ScaleStats.Add", "X NaN", func() error {
			s, err := f.obj.NewStats(f.theta)
			if err != nil {
				t.Fatal(err)
			}
			return s.Add(nan, y)
		}},
		{"loo.ScaleLOO.Add", "Y Inf", func() error {
			a, err := f.path.NewLOO()
			if err != nil {
				t.Fatal(err)
			}
			return a.Add(x, nanY)
		}},
		{"loo.ScaleAdjoint.Add", "X NaN", func() error { return f.adjoint(t).Add(nan, y, nil) }},
		{"loo.SelectScales.Fit", "X NaN", func() error {
			return errOf(loo.SelectScales{Objective: f.obj, Sigma: 1, Lambda: 1e-2}.Fit(nan, y))
		}},
		{"loo.SelectScales.Fit", "σ₀ NaN", func() error {
			return errOf(loo.SelectScales{Objective: f.obj, Sigma: nanf, Lambda: 1e-2}.Fit(x, y))
		}},
		{"loo.SelectScales.Descend", "σ₀ NaN", func() error {
			_, _, err := loo.SelectScales{Sigma: nanf, Lambda: 1e-2}.Descend(x.Cols, nil, func(theta []float64) (*loo.ScaleEval, error) {
				return f.obj.Evaluate(x, y, theta)
			})
			return err
		}},
		{"loo.ComposeScales", "σ NaN", func() error { return errOf(loo.ComposeScales(nil, []float64{1, nanf})) }},
		{"classify.SelectScales.Fit", "X NaN", func() error {
			return errOf(classify.SelectScales{Selection: loo.SelectScales{Objective: f.obj, Sigma: 1, Lambda: 1e-2}}.Fit(nan, labels))
		}},
		{"classify.SelectScales.Fit", "labels NaN", func() error {
			return errOf(classify.SelectScales{Selection: loo.SelectScales{Objective: f.obj, Sigma: 1, Lambda: 1e-2}}.Fit(x, nanLabels))
		}},
	}
}

// scaleNoPanicRows are the rows of noPanicRows for the length scales.
func scaleNoPanicRows(t testing.TB) []apiRow {
	x, y, _, labels := vocabData()
	f := newScaleFixture(t, x, y, 4)
	var (
		stats loo.ScaleStats
		path  loo.ScalePath
		sums  loo.ScaleLOO
		adj   loo.ScaleAdjoint
	)
	return []apiRow{
		{"kernels.NewScaled", "k, nil, σ", func() error { return errOf(kernels.NewScaled(kernels.Gaussian{Sigma: 1}, nil, []float64{1})) }},
		{"kernels.NewScaled", "nil, Z, σ", func() error { return errOf(kernels.NewScaled(nil, x, []float64{1})) }},
		{"kernels.NewScaled", "k, Z, nil", func() error { return errOf(kernels.NewScaled(kernels.Gaussian{Sigma: 1}, x, nil)) }},
		{"loo.ScaleObjective.NewStats", "ScaleObjective{}", func() error { return errOf(loo.ScaleObjective{}.NewStats(f.theta)) }},
		{"loo.ScaleObjective.NewStats", "nil θ", func() error { return errOf(f.obj.NewStats(nil)) }},
		{"loo.ScaleObjective.Evaluate", "nil, nil, θ", func() error { return errOf(f.obj.Evaluate(nil, nil, f.theta)) }},
		{"loo.ScaleStats.Add", "zero value", func() error { return stats.Add(x, y) }},
		{"loo.ScaleStats.Add", "nil, nil", func() error { return f.stats.Add(nil, nil) }},
		{"loo.ScaleStats.Merge", "nil", func() error { return f.stats.Merge(nil) }},
		{"loo.ScaleStats.MarshalBinary", "zero value", func() error { return errOf(stats.MarshalBinary()) }},
		{"loo.ScaleStats.UnmarshalBinary", "zero value", func() error { return stats.UnmarshalBinary(nil) }},
		{"loo.ScaleStats.UnmarshalBinary", "nil", func() error { return f.stats.UnmarshalBinary(nil) }},
		{"loo.NewScalePath", "nil", func() error { return errOf(loo.NewScalePath(nil)) }},
		{"loo.NewScalePath", "zero ScaleStats", func() error { return errOf(loo.NewScalePath(&stats)) }},
		{"loo.ScalePath.Fit", "zero value", func() error { return errOf(path.Fit()) }},
		{"loo.ScalePath.NewLOO", "zero value", func() error { return errOf(path.NewLOO()) }},
		{"loo.ScalePath.NewAdjoint", "zero value", func() error { return errOf(path.NewAdjoint(nil)) }},
		{"loo.ScalePath.NewAdjoint", "nil ScaleLOO", func() error { return errOf(f.path.NewAdjoint(nil)) }},
		{"loo.ScaleLOO.Add", "zero value", func() error { return sums.Add(x, y) }},
		{"loo.ScaleLOO.Merge", "nil", func() error { return f.loo.Merge(nil) }},
		{"loo.ScaleLOO.MarshalBinary", "zero value", func() error { return errOf(sums.MarshalBinary()) }},
		{"loo.ScaleLOO.UnmarshalBinary", "nil", func() error { return f.loo.UnmarshalBinary(nil) }},
		{"loo.ScaleLOO.Result", "zero value", func() error { return errOf(sums.Result()) }},
		{"loo.ScaleAdjoint.Add", "zero value", func() error { return adj.Add(x, y, nil) }},
		{"loo.ScaleAdjoint.Add", "nil, nil, nil", func() error { return f.adjoint(t).Add(nil, nil, nil) }},
		{"loo.ScaleAdjoint.Merge", "nil", func() error { return f.adjoint(t).Merge(nil) }},
		{"loo.ScaleAdjoint.MarshalBinary", "zero value", func() error { return errOf(adj.MarshalBinary()) }},
		{"loo.ScaleAdjoint.UnmarshalBinary", "zero value", func() error { return adj.UnmarshalBinary(nil) }},
		{"loo.ScaleAdjoint.Result", "no rows added", func() error { return errOf(f.adjoint(t).Result()) }},
		{"loo.SelectScales.Fit", "zero value", func() error { return errOf(loo.SelectScales{}.Fit(x, y)) }},
		{"loo.SelectScales.Descend", "zero value, nil evaluate", func() error {
			_, _, err := loo.SelectScales{}.Descend(0, nil, nil)
			return err
		}},
		{"loo.SelectScales.Descend", "evaluate returns nil", func() error {
			_, _, err := loo.SelectScales{Sigma: 1, Lambda: 1e-2}.Descend(1, nil, func([]float64) (*loo.ScaleEval, error) { return nil, nil })
			return err
		}},
		{"loo.SelectScales.DescentRows", "n = −1", func() error { return errOf(loo.SelectScales{}.DescentRows(-1)) }},
		{"loo.ComposeScales", "nil, nil", func() error { return errOf(loo.ComposeScales(nil, nil)) }},
		{"loo.ComposeScales", "Standardization{}, σ", func() error {
			return errOf(loo.ComposeScales(new(kernels.Standardization), []float64{1}))
		}},
		{"classify.SelectScales.Fit", "zero value", func() error { return errOf(classify.SelectScales{}.Fit(x, labels)) }},
		{"classify.SelectScales.Fit", "nil, nil", func() error {
			return errOf(classify.SelectScales{Selection: loo.SelectScales{Objective: f.obj, Sigma: 1, Lambda: 1e-2}}.Fit(nil, nil))
		}},
	}
}

// scaleTooLargeRows are the rows of tooLargeRows for the length scales:
// 400 centres of the 600 rows x (one feature), whose m×m matrices exceed
// the limit of the test; what the calls need is built here, before the
// limit drops.
func scaleTooLargeRows(t testing.TB, x, y, centers *linalg.Dense) []apiRow {
	f := newScaleFixture(t, x, y, centers.Rows)
	file, err := f.stats.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	recv, err := f.obj.NewStats(f.theta)
	if err != nil {
		t.Fatal(err)
	}
	sk, err := kernels.NewScaled(kernels.Gaussian{Sigma: 1}, centers, []float64{1})
	if err != nil {
		t.Fatal(err)
	}
	p := linalg.NewDense(centers.Rows, centers.Rows, nil)
	return []apiRow{
		{"kernels.Scaled.CentersGradient", "m = 400", func() error { return errOf(sk.CentersGradient(p, nil)) }},
		{"loo.ScaleStats.UnmarshalBinary", "m = 400", func() error { return recv.UnmarshalBinary(file) }},
		{"loo.ScaleObjective.NewStats", "m = 400", func() error { return errOf(f.obj.NewStats(f.theta)) }},
		{"loo.ScaleObjective.Evaluate", "m = 400", func() error { return errOf(f.obj.Evaluate(x, y, f.theta)) }},
		{"loo.NewScalePath", "m = 400", func() error { return errOf(loo.NewScalePath(f.stats)) }},
		{"loo.ScalePath.NewLOO", "m = 400", func() error { return errOf(f.path.NewLOO()) }},
		{"loo.ScalePath.NewAdjoint", "m = 400", func() error { return errOf(f.path.NewAdjoint(f.loo)) }},
		{"loo.SelectScales.Fit", "m = 400", func() error {
			return errOf(loo.SelectScales{Objective: f.obj, Sigma: 1, Lambda: 1e-2}.Fit(x, y))
		}},
	}
}
