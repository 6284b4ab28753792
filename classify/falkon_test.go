package classify

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"testing"

	"rkhs/datasets"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// TestFalkonEqualsRLS: with every training point a centre and the solver
// run to convergence, the Falkon classifier is RLS classification: the
// same scores to 1e-8 relative, binary and one-vs-all, both intercepts.
func TestFalkonEqualsRLS(t *testing.T) {
	x, labels := blobs(3, 120, 3, 1, -1, 1)
	digits := datasets.MustLoad("digits")
	sub := digits.Subset(func() []int {
		var r []int
		for i := range 300 {
			r = append(r, i)
		}
		return r
	}())
	cases := []struct {
		name   string
		x      *linalg.Dense
		labels []float64
		sigma  float64
		ova    bool
	}{
		{"binary", x, labels, 1.5, false},
		{"two classes one-vs-all", x, labels, 1.5, true},
		{"digits", &sub.X, sub.Y, 30, false},
	}
	for _, c := range cases {
		for _, free := range []bool{false, true} {
			k := kernels.Gaussian{Sigma: c.sigma}
			before := snap(c.x, c.labels)
			rls, err := RLS{Kernel: k, Lambda: 1e-4, Intercept: intercept(free), OneVsAll: c.ova}.Fit(c.x, c.labels)
			if err != nil {
				t.Fatal(err)
			}
			fa, err := Falkon{Kernel: k, Lambda: 1e-4, Given: c.x, Intercept: intercept(free), OneVsAll: c.ova, MaxIter: 1000, Tol: 1e-14}.Fit(c.x, c.labels)
			if err != nil {
				t.Fatal(err)
			}
			before.unchanged(t, c.x, c.labels)
			if fa.OneVsAll != rls.OneVsAll || !slices.Equal(fa.Classes, rls.Classes) {
				t.Fatalf("%s: coding %v %v, RLS %v %v", c.name, fa.OneVsAll, fa.Classes, rls.OneVsAll, rls.Classes)
			}
			sf, err := fa.Scores(c.x)
			if err != nil {
				t.Fatal(err)
			}
			sr, err := rls.Scores(c.x)
			if err != nil {
				t.Fatal(err)
			}
			var num, den float64
			for i := range sf.Data {
				num = math.Max(num, math.Abs(sf.Data[i]-sr.Data[i]))
				den = math.Max(den, math.Abs(sr.Data[i]))
			}
			if num/den > 1e-8 {
				t.Errorf("%s free=%v: scores differ from RLS by %.3g relative after %d iterations", c.name, free, num/den, fa.Iterations)
			}
			if !slices.Equal(mustPredict(t, fa, c.x), mustPredict(t, rls, c.x)) {
				t.Errorf("%s free=%v: predictions differ from RLS", c.name, free)
			}
		}
	}
}

// TestFalkonClassifier: on two separated clouds, a few centres and
// iterations classify well; the callback's model predicts; the model file
// round-trips as an RLS model.
func TestFalkonClassifier(t *testing.T) {
	x, labels := blobs(5, 2000, 4, 2, 3, 7)
	xt, lt := blobs(6, 500, 4, 2, 3, 7)
	calls := 0
	fit, err := Falkon{Kernel: kernels.Gaussian{Sigma: 2}, Lambda: 1e-6, Centers: 100, Seed: 1, Intercept: regress.FreeIntercept, MaxIter: 10,
		Callback: func(iter int, residual float64, current *RLSModel) bool {
			calls++
			p, err := current.Predict(xt)
			if err != nil {
				t.Fatal(err)
			}
			return accuracy(p, lt) < 0.9
		}}.Fit(x, labels)
	if err != nil {
		t.Fatal(err)
	}
	if fit.Stopped != regress.StopCallback || calls != fit.Iterations || len(fit.Indices) != 100 {
		t.Errorf("stopped by %v after %d iterations, %d calls, %d centres", fit.Stopped, fit.Iterations, calls, len(fit.Indices))
	}
	if acc := accuracy(mustPredict(t, fit, xt), lt); acc < 0.9 {
		t.Errorf("test accuracy %.3f, want ≥ 0.9", acc)
	}
	b, err := json.Marshal(fit.RLSModel)
	if err != nil {
		t.Fatal(err)
	}
	var back RLSModel
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(mustPredict(t, &back, xt), mustPredict(t, fit, xt)) {
		t.Error("the saved model predicts differently")
	}
}

// TestFalkonClassifierBadInput: errors wrap ErrInput and name the field.
func TestFalkonClassifierBadInput(t *testing.T) {
	x, labels := blobs(7, 40, 2, 1, 0, 1)
	k := kernels.Gaussian{Sigma: 1}
	one := make([]float64, 40)
	cases := []struct {
		name   string
		f      Falkon
		labels []float64
		arg    string
	}{
		{"λ = 0", Falkon{Kernel: k, Centers: 5}, labels, "Lambda"},
		{"one class", Falkon{Kernel: k, Lambda: 1e-3, Centers: 5}, one, "labels"},
		{"m = 0", Falkon{Kernel: k, Lambda: 1e-3}, labels, "Centers"},
		{"penalized", Falkon{Kernel: k, Lambda: 1e-3, Centers: 5, Intercept: regress.PenalizedIntercept}, labels, "Intercept"},
		{"MaxIter < 0", Falkon{Kernel: k, Lambda: 1e-3, Centers: 5, MaxIter: -1}, labels, "MaxIter"},
		{"Given with 3 columns", Falkon{Kernel: k, Lambda: 1e-3, Given: linalg.NewDense(4, 3, nil)}, labels, "Given"},
		{"short labels", Falkon{Kernel: k, Lambda: 1e-3, Centers: 5}, labels[:3], "labels"},
	}
	for _, c := range cases {
		_, err := c.f.Fit(x, c.labels)
		var ie *linalg.InputError
		if !errors.Is(err, ErrInput) || !errors.As(err, &ie) || ie.Arg != c.arg {
			t.Errorf("%s: got %v, want an ErrInput about %s", c.name, err, c.arg)
		}
	}
	if _, err := (Falkon{Kernel: k, Lambda: 1e-3}).Fit(x, labels); !errors.Is(err, regress.ErrInput) {
		t.Errorf("m = 0: got %v, want regress.ErrInput wrapped", err)
	}
}

// TestFalkonStoppedShort: the classifier reports the solver's criterion.
func TestFalkonStoppedShort(t *testing.T) {
	for _, tc := range []struct {
		fit  FalkonFit
		want bool
	}{
		{FalkonFit{Iterations: 20, Residuals: []float64{1, 1e-3}, Stopped: regress.StopMaxIter}, true},
		{FalkonFit{Iterations: 20, Residuals: []float64{1, 1e-3}, Stopped: regress.StopTol}, false},
		{FalkonFit{Iterations: 20, Residuals: []float64{1, 1e-6}, Stopped: regress.StopMaxIter}, false},
	} {
		if got := tc.fit.StoppedShort(); got != tc.want {
			t.Errorf("%+v: StoppedShort = %v, want %v", tc.fit, got, tc.want)
		}
	}
}
