package classify

import (
	"errors"
	"math"
	"slices"
	"testing"

	"rkhs/internal/coding"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// TestSelectScalesCodes: the descent on the labels is loo.SelectScales on
// their ±1 codes (coded here by hand), bit for bit, for two classes of
// any labels, two classes one against all and three classes; ErrorRate
// reports the leave-one-out error rate, CodeMSE and GCV do not; the
// classifier labels rows as the sign, or the largest, of the fit's
// scores; x and the labels are unchanged.
func TestSelectScalesCodes(t *testing.T) {
	for _, c := range []struct {
		name  string
		three bool
		ova   bool
		crit  ClassCriterion
	}{
		{"two classes", false, false, ErrorRate},
		{"one against all", false, true, ErrorRate},
		{"three classes", true, false, ErrorRate},
		{"code MSE", false, false, CodeMSE},
		{"gcv", false, false, GCV},
	} {
		x, labels := blobs(3, 80, 3, 1.2, 0, 5)
		if c.three {
			x, labels = threeClasses(3, 80)
		}
		before := snap(x, labels)
		ss := loo.SelectScales{Objective: loo.ScaleObjective{Centers: x.Slice(0, 15, 0, x.Cols).Clone(), Intercept: regress.FreeIntercept, Subset: 40, Seed: 2},
			Sigma: 1.5, Lambda: 1e-3, MaxIter: 8}
		if c.crit == GCV {
			ss.Objective.Subset = 0
		}
		got, err := SelectScales{Selection: ss, Criterion: c.crit, OneVsAll: c.ova}.Fit(x, labels)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		before.unchanged(t, x, labels)
		classes := classesOf(labels)
		q := 1
		if c.ova || c.three {
			q = len(classes)
		}
		y := linalg.NewDense(len(labels), q, nil)
		coding.Targets(y, labels, classes)
		ss.Objective.Criterion, _ = c.crit.criterion()
		want, err := ss.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Sigmas, want.Sigmas) || got.Lambda != want.Lambda || got.Objective != want.Objective || got.Iterations != want.Iterations ||
			math.Float64bits(got.ErrorRate) != math.Float64bits(want.ErrorRate) {
			t.Errorf("%s: scales %v λ %v J %v rate %v, the codes' descent %v %v %v %v", c.name, got.Sigmas, got.Lambda, got.Objective, got.ErrorRate, want.Sigmas, want.Lambda, want.Objective, want.ErrorRate)
		}
		if rate := got.ErrorRate; (c.crit == ErrorRate) != !math.IsNaN(rate) || c.crit == ErrorRate && !(rate >= 0 && rate < 0.5) {
			t.Errorf("%s: error rate %v", c.name, rate)
		}
		m := got.Classifier
		if m.Model != got.Fit.Model || m.Lambda != got.Lambda || !slices.Equal(m.Classes, classes) || m.OneVsAll != (q > 1) {
			t.Errorf("%s: classifier %+v, want the fit's model at λ %v, classes %v", c.name, m, got.Lambda, classes)
		}
		scores, err := got.Fit.Model.Predict(x)
		if err != nil {
			t.Fatal(err)
		}
		pred := mustPredict(t, m, x)
		for i := range pred {
			if want := classes[codedClass(scores.Row(i))]; pred[i] != want {
				t.Fatalf("%s: row %d labelled %v, its scores %v say %v", c.name, i, pred[i], scores.Row(i), want)
			}
		}
	}
}

// TestSelectScalesRefusals: labels of another length, of one class or
// not finite, and an unknown criterion are refused with ErrInput.
func TestSelectScalesRefusals(t *testing.T) {
	x, labels := blobs(1, 30, 2, 1, -1, 1)
	ss := loo.SelectScales{Objective: loo.ScaleObjective{Centers: x.Slice(0, 5, 0, 2).Clone()}, Sigma: 1, Lambda: 1e-3}
	one := make([]float64, 30)
	nan := slices.Clone(labels)
	nan[3] = math.NaN()
	for _, c := range []struct {
		name   string
		labels []float64
		crit   ClassCriterion
	}{
		{"short", labels[:29], ErrorRate},
		{"one class", one, ErrorRate},
		{"NaN", nan, ErrorRate},
		{"criterion", labels, ClassCriterion(7)},
	} {
		if _, err := (SelectScales{Selection: ss, Criterion: c.crit}).Fit(x, c.labels); !errors.Is(err, ErrInput) {
			t.Errorf("%s: %v, want ErrInput", c.name, err)
		}
	}
}
