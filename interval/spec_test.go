package interval

import (
	"errors"
	"math"
	"slices"
	"testing"

	"rkhs/classify"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// TestSpecBuild: Spec.Build gives, for every method and kind of fit, the
// intervals (or label sets) of the constructor it names, bit for bit, and
// the model that constructor fitted.
func TestSpecBuild(t *testing.T) {
	x, y, xt := problem(3, 60, 7, 1)
	labels := make([]float64, x.Rows)
	for i := range labels {
		labels[i] = float64(i%3) + 1
	}
	k := kernels.Gaussian{Sigma: 1.3}
	kernel := func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }
	centers, err := regress.NystromCenters(x, 12, 5)
	if err != nil {
		t.Fatal(err)
	}
	spectral, err := regress.NewSpectral(k, x, y)
	if err != nil {
		t.Fatal(err)
	}
	const lambda, level, kk, seed = 1e-2, 0.8, 6, 9
	folds, _ := Folds(x.Rows, kk, seed)
	ic := regress.PenalizedIntercept
	rls := regress.RLS{Kernel: k, Lambda: lambda, Intercept: ic}
	nys := regress.Nystrom{Kernel: k, Lambda: lambda, Intercept: ic, Given: centers}
	choose := &loo.SelectNystrom{Kernel: kernel, Sigmas: []float64{0.8, 1.6}, Lambdas: []float64{1e-3, 1e-2, 1e-1}, Criterion: loo.GCV}
	sn := *choose
	sn.Centers, sn.Intercept = centers, ic
	base := Spec{Level: level, Folds: kk, Seed: seed, Kernel: k, Lambda: lambda, Intercept: ic}
	type want struct {
		iv    func() (*Intervals, *regress.Model, error)
		sets  func() (*LabelSets, error)
		model bool
	}
	jk := func(j *Jackknife, err error) func() (*Intervals, *regress.Model, error) {
		return func() (*Intervals, *regress.Model, error) {
			if err != nil {
				return nil, nil, err
			}
			iv, err := j.Predict(xt, level)
			return iv, j.Model(), err
		}
	}
	cvOf := func(c *CV, err error) func() (*Intervals, *regress.Model, error) {
		return func() (*Intervals, *regress.Model, error) {
			if err != nil {
				return nil, nil, err
			}
			iv, err := c.Predict(xt, level)
			return iv, c.Model(), err
		}
	}
	setsOf := func(c *Classes, err error) func() (*LabelSets, error) {
		return func() (*LabelSets, error) {
			if err != nil {
				return nil, err
			}
			return c.Predict(xt, level)
		}
	}
	for _, c := range []struct {
		name string
		edit func(s *Spec)
		want want
	}{
		{"rls jackknife+", func(s *Spec) { s.Method = JackknifePlus }, want{iv: jk(RLS(rls, x, y)), model: true}},
		{"nystrom jackknife+", func(s *Spec) { s.Method, s.Centers = JackknifePlus, centers }, want{iv: jk(Nystrom(nys, x, y)), model: true}},
		{"eigen jackknife+", func(s *Spec) { s.Method, s.Spectral = JackknifePlus, spectral }, want{iv: func() (*Intervals, *regress.Model, error) {
			p, err := NewPath(spectral, []float64{lambda}, ic)
			if err != nil {
				return nil, nil, err
			}
			ivs, err := p.Predict(xt, level)
			if err != nil {
				return nil, nil, err
			}
			return ivs[0], nil, nil
		}}},
		{"rls cv+", func(s *Spec) { s.Method = CVPlus }, want{iv: cvOf(RLSCV(rls, x, y, folds)), model: true}},
		{"nystrom cv+", func(s *Spec) { s.Method, s.Centers = CVPlus, centers }, want{iv: cvOf(NystromCV(nys, x, y, folds)), model: true}},
		{"rls cv+fold", func(s *Spec) { s.Method, s.Choose = CVPlusFold, choose }, want{iv: cvOf(RLSCVChosen(kernel, choose.Sigmas, choose.Lambdas, ic, x, y, folds)), model: true}},
		{"nystrom cv+fold", func(s *Spec) { s.Method, s.Centers, s.Choose = CVPlusFold, centers, choose }, want{iv: cvOf(NystromCVChosen(sn, x, y, folds)), model: true}},
		{"rls label sets", func(s *Spec) { s.Method, s.Classes = JackknifePlus, true }, want{sets: setsOf(ClassifyRLS(classify.RLS{Kernel: k, Lambda: lambda, Intercept: ic}, x, labels))}},
		{"nystrom label sets", func(s *Spec) { s.Method, s.Classes, s.Centers = JackknifePlus, true, centers }, want{sets: setsOf(ClassifyNystrom(nys, false, x, labels))}},
		{"rls cv+ label sets", func(s *Spec) { s.Method, s.Classes = CVPlus, true }, want{sets: setsOf(ClassifyRLSCV(classify.RLS{Kernel: k, Lambda: lambda, Intercept: ic}, x, labels, folds))}},
		{"nystrom cv+ label sets", func(s *Spec) { s.Method, s.Classes, s.Centers = CVPlus, true, centers }, want{sets: setsOf(ClassifyNystromCV(nys, false, x, labels, folds))}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := base
			c.edit(&s)
			targets := y.Data
			if s.Classes {
				targets = labels
			}
			f, err := s.Build(x, targets)
			if err != nil {
				t.Fatal(err)
			}
			iv, sets, err := f.Predict(xt, level)
			if err != nil {
				t.Fatal(err)
			}
			if c.want.sets != nil {
				ws, err := c.want.sets()
				if err != nil {
					t.Fatal(err)
				}
				if iv != nil || f.Classifier() == nil || f.Model() != nil || len(sets.Sets) != len(ws.Sets) {
					t.Fatalf("intervals %v, classifier %v, model %v, %d sets for %d", iv, f.Classifier(), f.Model(), len(sets.Sets), len(ws.Sets))
				}
				for j := range ws.Sets {
					if !slices.Equal(sets.Sets[j], ws.Sets[j]) || sets.Predicted[j] != ws.Predicted[j] {
						t.Errorf("row %d: set %v label %v, the constructor's %v %v", j, sets.Sets[j], sets.Predicted[j], ws.Sets[j], ws.Predicted[j])
					}
				}
				return
			}
			wi, wm, err := c.want.iv()
			if err != nil {
				t.Fatal(err)
			}
			if sets != nil || (f.Model() != nil) != c.want.model || (f.CV() != nil) != (s.Method != JackknifePlus) {
				t.Fatalf("sets %v, model %v, CV %v", sets, f.Model(), f.CV())
			}
			for _, p := range [][2]*linalg.Dense{{iv.Prediction, wi.Prediction}, {iv.Lower, wi.Lower}, {iv.Upper, wi.Upper}} {
				if !slices.Equal(p[0].Data, p[1].Data) {
					t.Fatalf("intervals %v, the constructor's %v", p[0].Data, p[1].Data)
				}
			}
			if wm != nil && !slices.Equal(f.Model().Coef.Data, wm.Coef.Data) {
				t.Errorf("model coefficients differ from the constructor's")
			}
		})
	}
}

// TestSpecRefusals: the level and the folds are refused, naming the
// argument, before anything is fitted (the kernel here is nil, which any
// fit would refuse first otherwise), and Reach and CheckLevel say which
// levels the rows reach.
func TestSpecRefusals(t *testing.T) {
	x, y, _ := problem(1, 20, 1, 1)
	for _, c := range []struct {
		name string
		s    Spec
		arg  string
		kind error
	}{
		{"unreachable", Spec{Method: JackknifePlus, Level: 0.99}, "Level", ErrUnreachable},
		{"level 1", Spec{Method: JackknifePlus, Level: 1}, "Level", ErrInput},
		{"level NaN", Spec{Method: CVPlus, Level: math.NaN()}, "Level", linalg.ErrNotFinite},
		{"one fold", Spec{Method: CVPlus, Level: 0.9, Folds: 1}, "Folds", ErrInput},
		{"more folds than rows", Spec{Method: CVPlus, Level: 0.9, Folds: 21}, "Folds", ErrInput},
		{"unknown method", Spec{Method: "split", Level: 0.9}, "Method", ErrInput},
		{"label sets by cv+fold", Spec{Method: CVPlusFold, Level: 0.9, Folds: 5, Classes: true, Choose: &loo.SelectNystrom{}}, "Method", ErrInput},
		{"cv+fold without a choice", Spec{Method: CVPlusFold, Level: 0.9, Folds: 5}, "Choose", ErrInput},
	} {
		_, err := c.s.Build(x, y.Data)
		var ie *linalg.InputError
		if !errors.As(err, &ie) || ie.Arg != c.arg || !errors.Is(err, c.kind) {
			t.Errorf("%s: %v, want an error of %s wrapping %v", c.name, err, c.arg, c.kind)
		}
	}
	for _, c := range []struct {
		level float64
		n     int
		kind  error
	}{{0.95, 20, nil}, {0.99, 20, ErrUnreachable}, {0.5, 1, nil}, {0.6, 1, ErrUnreachable}, {0, 20, ErrInput}} {
		if err := Reach(c.level, c.n); !errors.Is(err, c.kind) || (c.kind == nil) != (err == nil) {
			t.Errorf("Reach(%v, %d) = %v, want %v", c.level, c.n, err, c.kind)
		}
	}
	if err := CheckLevel(0.9); err != nil {
		t.Errorf("CheckLevel(0.9) = %v", err)
	}
	if DefaultMethod(false) != JackknifePlus || DefaultMethod(true) != CVPlus {
		t.Errorf("DefaultMethod: %v in memory, %v streamed", DefaultMethod(false), DefaultMethod(true))
	}
}

// TestSpecStream: a streamed Nyström CV+ (Stream) equals the in-memory
// NystromCV, and with each fold's choice by GCV NystromCVChosen, on the
// folds StreamFold draws, to 1e-9, in every intercept mode, with rows in
// more than one block.
func TestSpecStream(t *testing.T) {
	x, y, xt := problem(5, 9000, 6, 1)
	centers, err := regress.NystromCenters(x, 20, 2)
	if err != nil {
		t.Fatal(err)
	}
	const kk, seed = 5, 11
	folds := make([][]int, kk)
	for i := 0; i < x.Rows; i++ {
		f := StreamFold(seed, i, kk)
		folds[f] = append(folds[f], i)
	}
	k := kernels.Gaussian{Sigma: 1.1}
	choose := &loo.SelectNystrom{Kernel: func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }, Sigmas: []float64{0.7, 1.4}, Lambdas: []float64{1e-4, 1e-3, 1e-2}, Criterion: loo.GCV}
	for _, ic := range intercepts {
		for _, method := range []Method{CVPlus, CVPlusFold} {
			s := Spec{Method: method, Level: 0.9, Folds: kk, Seed: seed, Kernel: k, Lambda: 1e-3, Intercept: ic, Centers: centers, Stream: true, Choose: choose}
			f, err := s.Build(x, y.Data)
			if err != nil {
				t.Fatal(err)
			}
			var want *CV
			if method == CVPlus {
				want, err = NystromCV(regress.Nystrom{Kernel: k, Lambda: 1e-3, Intercept: ic, Given: centers}, x, y, folds)
			} else {
				sn := *choose
				sn.Centers, sn.Intercept = centers, ic
				want, err = NystromCVChosen(sn, x, y, folds)
			}
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := f.Predict(xt, 0.9)
			if err != nil {
				t.Fatal(err)
			}
			wi, err := want.Predict(xt, 0.9)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range [][2]*linalg.Dense{{got.Prediction, wi.Prediction}, {got.Lower, wi.Lower}, {got.Upper, wi.Upper}} {
				if d := scaledDiff(p[0], p[1]); d > 1e-9 {
					t.Errorf("%v %v: streamed and in-memory differ by %.3g relative", ic, method, d)
				}
			}
		}
	}
}
