package classify

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// TestZeroModels: every method of a nil or zero-value model returns an
// InputError wrapping ErrInput instead of panicking.
func TestZeroModels(t *testing.T) {
	x := linalg.NewDense(2, 2, []float64{0, 0, 1, 1})
	var (
		nilP *PerceptronModel
		nilL *LogisticModel
		nilS *SVMModel
		nilK *KNNModel
		nilR *RLSModel
	)
	errOf := func(_ any, err error) error { return err }
	for name, err := range map[string]error{
		"nil Perceptron Predict":     errOf(nilP.Predict(x)),
		"zero Perceptron Scores":     errOf((&PerceptronModel{}).Scores(x)),
		"zero Perceptron Marshal":    errOf((&PerceptronModel{}).MarshalJSON()),
		"nil Logistic Probabilities": errOf(nilL.Probabilities(x)),
		"zero Logistic Predict":      errOf((&LogisticModel{}).Predict(x)),
		"zero SVM Scores":            errOf((&SVMModel{}).Scores(x)),
		"nil SVM Marshal":            errOf(nilS.MarshalJSON()),
		"nil KNN Mean":               errOf(nilK.Mean(x)),
		"zero KNN Predict":           errOf((&KNNModel{}).Predict(x)),
		"zero KNN Marshal":           errOf((&KNNModel{}).MarshalJSON()),
		"nil RLS Scores":             errOf(nilR.Scores(x)),
		"zero RLS Predict":           errOf((&RLSModel{}).Predict(x)),
		"zero RLS Marshal":           errOf((&RLSModel{}).MarshalJSON()),
		"RLS with zero Model":        errOf((&RLSModel{Classes: []float64{0, 1}, Model: &regress.Model{}}).Predict(x)),
	} {
		var ie *linalg.InputError
		if !errors.As(err, &ie) || !errors.Is(err, ErrInput) {
			t.Errorf("%s: %v, want an InputError wrapping ErrInput", name, err)
		}
	}
}

// TestInterceptModes: the offset of Perceptron, Logistic and SVM is a
// regress.Intercept; the modes a method does not have are input errors
// that say why, and the penalized intercept of Logistic is the kernel
// k + 1 with b = Σcᵢ.
func TestInterceptModes(t *testing.T) {
	x, y := blobs(61, 40, 2, 1.5, -1, 1)
	k := kernels.Gaussian{Sigma: 1}
	for _, tc := range []struct {
		name string
		err  error
		why  string
	}{
		{"perceptron penalized", errOf2(Perceptron{Kernel: k, Intercept: regress.PenalizedIntercept}.Fit(x, y)), "no penalty"},
		{"svm free", errOf2(SVM{Kernel: k, Lambda: 1e-2, Intercept: regress.FreeIntercept}.Fit(x, y)), "strong convexity"},
		{"logistic unknown", errOf2(Logistic{Kernel: k, Lambda: 1e-2, Intercept: 9}.Fit(x, y)), "unknown"},
	} {
		var ie *linalg.InputError
		if !errors.As(tc.err, &ie) || ie.Arg != "Intercept" || !strings.Contains(ie.Reason, tc.why) {
			t.Errorf("%s: %v, want an InputError on Intercept saying %q", tc.name, tc.err, tc.why)
		}
	}
	m, err := Logistic{Kernel: k, Lambda: 1e-2, Intercept: regress.PenalizedIntercept, MaxIter: 200}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, c := range m.Coef {
		sum += c
	}
	if math.Abs(m.Intercept-sum) > 1e-12*math.Max(1, math.Abs(sum)) || m.Intercept == 0 {
		t.Errorf("penalized logistic: b = %v, Σc = %v", m.Intercept, sum)
	}
	none, _ := Logistic{Kernel: k, Lambda: 1e-2, MaxIter: 200}.Fit(x, y)
	if none.Intercept != 0 {
		t.Errorf("logistic without intercept: b = %v", none.Intercept)
	}
}

func errOf2[T any](_ T, err error) error { return err }

// TestReadVersion1: files of version 1 of the perceptron, logistic and SVM
// formats, which named the intercept "bias", still load, to the same
// model; a version 2 file with "bias" is refused.
func TestReadVersion1(t *testing.T) {
	x, y := blobs(62, 30, 2, 1.5, -1, 1)
	k := kernels.Gaussian{Sigma: 1}
	x3, y3 := blobs(63, 31, 2, 0.2, -1, 1) // overlapping and unbalanced: b ≠ 0
	p, _ := Perceptron{Kernel: k, Intercept: regress.FreeIntercept, MaxPasses: 7}.Fit(x3, y3)
	l, _ := Logistic{Kernel: k, Lambda: 1e-2, Intercept: regress.FreeIntercept, MaxIter: 50}.Fit(x, y)
	s, _ := SVM{Kernel: k, Lambda: 1e-2, Intercept: regress.PenalizedIntercept, MaxIter: 50}.Fit(x, y)
	for _, tc := range []struct {
		name  string
		m     json.Marshaler
		fresh func() json.Unmarshaler
		b     func(json.Unmarshaler) float64
	}{
		{"perceptron", p, func() json.Unmarshaler { return &PerceptronModel{} }, func(u json.Unmarshaler) float64 { return u.(*PerceptronModel).Intercept }},
		{"logistic", l, func() json.Unmarshaler { return &LogisticModel{} }, func(u json.Unmarshaler) float64 { return u.(*LogisticModel).Intercept }},
		{"svm", s, func() json.Unmarshaler { return &SVMModel{} }, func(u json.Unmarshaler) float64 { return u.(*SVMModel).Intercept }},
	} {
		b, err := json.Marshal(tc.m)
		if err != nil {
			t.Fatal(err)
		}
		var fields map[string]any
		if err := json.Unmarshal(b, &fields); err != nil {
			t.Fatal(err)
		}
		want := fields["intercept"].(float64)
		if want == 0 {
			t.Fatalf("%s: test model has no intercept", tc.name)
		}
		fields["version"], fields["bias"] = 1, want
		delete(fields, "intercept")
		old, _ := json.Marshal(fields)
		v1 := tc.fresh()
		if err := v1.UnmarshalJSON(old); err != nil || tc.b(v1) != want {
			t.Errorf("%s: version 1 file: %v, intercept %v, want %v", tc.name, err, tc.b(v1), want)
		}
		fields["version"] = 2
		bad, _ := json.Marshal(fields)
		if err := tc.fresh().UnmarshalJSON(bad); !errors.Is(err, ErrInput) {
			t.Errorf("%s: version 2 file with bias: %v, want ErrInput", tc.name, err)
		}
	}
}

func TestAccuracy(t *testing.T) {
	for _, tc := range []struct {
		labels, pred []float64
		want         float64
		ok           bool
	}{
		{[]float64{1, 2, 2, 1}, []float64{1, 2, 1, 1}, 0.75, true},
		{[]float64{-1}, []float64{-1}, 1, true},
		{nil, nil, 0, false},
		{[]float64{1, 2}, []float64{1}, 0, false},
		{[]float64{1, math.NaN()}, []float64{1, 1}, 0, false},
	} {
		got, err := Accuracy(tc.labels, tc.pred)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("Accuracy(%v, %v) = %v, %v; want %v (ok %v)", tc.labels, tc.pred, got, err, tc.want, tc.ok)
		}
	}
}
