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

type fitFunc func(x *linalg.Dense, labels []float64) (any, error)

// fitters returns every classifier, configured validly, as a fit function;
// binary marks the binary-only ones.
func fitters(k kernels.Kernel) []struct {
	name   string
	fit    fitFunc
	binary bool
} {
	return []struct {
		name   string
		fit    fitFunc
		binary bool
	}{
		{"Perceptron", func(x *linalg.Dense, l []float64) (any, error) {
			return Perceptron{Kernel: k, MaxPasses: 3}.Fit(x, l)
		}, true},
		{"KNN", func(x *linalg.Dense, l []float64) (any, error) { return KNN{Kernel: k, K: 1}.Fit(x, l) }, false},
		{"RLS", func(x *linalg.Dense, l []float64) (any, error) { return RLS{Kernel: k, Lambda: 0.1}.Fit(x, l) }, false},
		{"Logistic", func(x *linalg.Dense, l []float64) (any, error) {
			return Logistic{Kernel: k, Lambda: 0.1, MaxIter: 3}.Fit(x, l)
		}, true},
		{"SVM", func(x *linalg.Dense, l []float64) (any, error) {
			return SVM{Kernel: k, Lambda: 0.1, MaxIter: 3}.Fit(x, l)
		}, true},
	}
}

// wantInputError checks that err is an *InputError on arg wrapping ErrInput.
func wantInputError(t *testing.T, what string, err error, arg string) {
	t.Helper()
	var ie *linalg.InputError
	name, cell, _ := strings.Cut(arg, ": ") // a data element: "X: row 2, column 1"
	if !errors.Is(err, ErrInput) || !errors.As(err, &ie) || ie.Arg != name || !strings.HasPrefix(ie.Reason, cell) {
		t.Errorf("%s: err = %v, want an InputError on %q", what, err, arg)
		return
	}
	if !strings.Contains(err.Error(), arg) || !strings.HasPrefix(err.Error(), "classify: invalid input: ") {
		t.Errorf("%s: message %q should start with the sentinel and name %q", what, err, arg)
	}
}

// TestFitBadInput: every classifier rejects the same bad data with an
// InputError naming the argument, and never panics.
func TestFitBadInput(t *testing.T) {
	good := linalg.NewDense(4, 2, []float64{0, 0, 1, 0, 0, 1, 1, 1})
	labels := []float64{1, 2, 1, 2}
	nan := good.Clone()
	nan.Set(1, 0, math.NaN())
	badStride := &linalg.Dense{Rows: 4, Cols: 2, Stride: 1, Data: good.Data}
	short := &linalg.Dense{Rows: 4, Cols: 2, Stride: 2, Data: good.Data[:7]}
	for _, f := range fitters(kernels.Gaussian{Sigma: 1}) {
		for _, tc := range []struct {
			name   string
			x      *linalg.Dense
			labels []float64
			arg    string
		}{
			{"nil X", nil, labels, "X"},
			{"no rows", linalg.NewDense(0, 2, nil), nil, "X"},
			{"no columns", linalg.NewDense(4, 0, nil), labels, "X"},
			{"stride", badStride, labels, "X"},
			{"short data", short, labels, "X"},
			{"NaN", nan, labels, "X: row 2, column 1"},
			{"label count", good, labels[:3], "labels"},
			{"Inf label", good, []float64{1, 2, math.Inf(1), 2}, "labels[2]"},
			{"NaN label", good, []float64{math.NaN(), 2, 1, 2}, "labels[0]"},
			{"one class", good, []float64{3, 3, 3, 3}, "labels"},
		} {
			_, err := f.fit(tc.x, tc.labels)
			wantInputError(t, f.name+": "+tc.name, err, tc.arg)
		}
		_, err := f.fit(good, []float64{1, 2, 3, 1})
		if f.binary {
			wantInputError(t, f.name+": three classes", err, "labels")
		} else if err != nil {
			t.Errorf("%s: three classes: %v", f.name, err)
		}
	}
	for _, f := range fitters(nil) {
		_, err := f.fit(good, labels)
		wantInputError(t, f.name+": nil kernel", err, "Kernel")
	}
	for _, f := range fitters(kernels.Gaussian{Sigma: -1}) {
		_, err := f.fit(good, labels)
		wantInputError(t, f.name+": bad kernel", err, "Kernel.Sigma")
		if !errors.Is(err, kernels.ErrParameter) {
			t.Errorf("%s: bad kernel: err = %v does not wrap kernels.ErrParameter", f.name, err)
		}
	}
}

// TestParameterErrors: the settings of each classifier.
func TestParameterErrors(t *testing.T) {
	x, y := blobs(40, 10, 2, 1, 0, 1)
	k := kernels.Gaussian{Sigma: 1}
	for _, tc := range []struct {
		name string
		fit  func() error
		arg  string
	}{
		{"KNN K=0", func() error { _, err := KNN{Kernel: k}.Fit(x, y); return err }, "K"},
		{"KNN K<0", func() error { _, err := KNN{Kernel: k, K: -2}.Fit(x, y); return err }, "K"},
		{"KNN K=n", func() error { _, err := KNN{Kernel: k, K: 10}.Fit(x, y); return err }, "K"},
		{"Perceptron MaxPasses", func() error { _, err := Perceptron{Kernel: k, MaxPasses: -1}.Fit(x, y); return err }, "MaxPasses"},
		{"Logistic λ=0", func() error { _, err := Logistic{Kernel: k}.Fit(x, y); return err }, "Lambda"},
		{"Logistic λ=Inf", func() error { _, err := Logistic{Kernel: k, Lambda: math.Inf(1)}.Fit(x, y); return err }, "Lambda"},
		{"Logistic MaxIter", func() error { _, err := Logistic{Kernel: k, Lambda: 1, MaxIter: -1}.Fit(x, y); return err }, "MaxIter"},
		{"Logistic Tol<0", func() error { _, err := Logistic{Kernel: k, Lambda: 1, Tol: -1}.Fit(x, y); return err }, "Tol"},
		{"Logistic Tol NaN", func() error { _, err := Logistic{Kernel: k, Lambda: 1, Tol: math.NaN()}.Fit(x, y); return err }, "Tol"},
		{"SVM λ<0", func() error { _, err := SVM{Kernel: k, Lambda: -1}.Fit(x, y); return err }, "Lambda"},
		{"SVM λ NaN", func() error { _, err := SVM{Kernel: k, Lambda: math.NaN()}.Fit(x, y); return err }, "Lambda"},
		{"SVM MaxIter", func() error { _, err := SVM{Kernel: k, Lambda: 1, MaxIter: -5}.Fit(x, y); return err }, "MaxIter"},
		{"RLS λ<0", func() error { _, err := RLS{Kernel: k, Lambda: -1}.Fit(x, y); return err }, "Lambda"},
	} {
		wantInputError(t, tc.name, tc.fit(), tc.arg)
	}
	if _, err := (KNN{Kernel: k, K: 9}).Fit(x, y); err != nil {
		t.Errorf("KNN K=n−1: %v", err)
	}
}

// TestPredictBadInput: every model's Predict (and Scores, Probabilities,
// Mean) rejects malformed points with an InputError on X, and answers an
// empty X with an empty result.
func TestPredictBadInput(t *testing.T) {
	x, y := blobs(41, 12, 3, 1, 0, 1)
	wrong := linalg.NewDense(2, 2, nil)
	nan := linalg.NewDense(2, 3, nil)
	nan.Set(1, 2, math.Inf(-1))
	for _, f := range fitters(kernels.Gaussian{Sigma: 1}) {
		m, err := f.fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		type labeller = func(*linalg.Dense) ([]float64, error)
		calls := map[string]labeller{"Predict": m.(interface {
			Predict(*linalg.Dense) ([]float64, error)
		}).Predict}
		if s, ok := m.(interface {
			Scores(*linalg.Dense) (*linalg.Dense, error)
		}); ok {
			calls["Scores"] = func(x *linalg.Dense) ([]float64, error) {
				d, err := s.Scores(x)
				if err != nil {
					return nil, err
				}
				return d.Data, nil
			}
		}
		if p, ok := m.(interface {
			Probabilities(*linalg.Dense) ([]float64, error)
		}); ok {
			calls["Probabilities"] = p.Probabilities
		}
		if p, ok := m.(interface {
			Mean(*linalg.Dense) ([]float64, error)
		}); ok {
			calls["Mean"] = p.Mean
		}
		for name, call := range calls {
			what := f.name + "." + name
			_, err := call(nil)
			wantInputError(t, what+"(nil)", err, "X")
			_, err = call(wrong)
			wantInputError(t, what+"(2 columns)", err, "X")
			_, err = call(nan)
			wantInputError(t, what+"(-Inf)", err, "X: row 2, column 3")
			out, err := call(linalg.NewDense(0, 3, nil))
			if err != nil || len(out) != 0 {
				t.Errorf("%s(empty) = %v, %v; want empty, nil", what, out, err)
			}
		}
	}
}

// TestKNNModelChanged: a model whose K was changed after Fit is refused,
// not a panic in the selection.
func TestKNNModelChanged(t *testing.T) {
	x, y := blobs(42, 10, 2, 1, 0, 1)
	m, err := KNN{Kernel: kernels.Linear{}, K: 3}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	m.K = 10
	_, err = m.Predict(x)
	wantInputError(t, "K changed to n", err, "KNNModel")
}

// TestKernelOverflowIsDataError: data so large that kernel values overflow
// is reported by package kernels as ErrData, and every classifier passes it
// on as an error about X (not about the Kernel field).
func TestKernelOverflowIsDataError(t *testing.T) {
	x := linalg.NewDense(6, 2, []float64{1e300, 0, -1e300, 0, 0, 1e300, 0, -1e300, 1e300, 1e300, -1e300, -1e300})
	labels := []float64{1, -1, 1, -1, 1, -1}
	k := kernels.Linear{}
	for name, fit := range map[string]func() error{
		"Perceptron": func() error { _, err := Perceptron{Kernel: k}.Fit(x, labels); return err },
		"Logistic":   func() error { _, err := Logistic{Kernel: k, Lambda: 1e-2}.Fit(x, labels); return err },
		"SVM":        func() error { _, err := SVM{Kernel: k, Lambda: 1e-2}.Fit(x, labels); return err },
		"RLS":        func() error { _, err := RLS{Kernel: k, Lambda: 1e-2}.Fit(x, labels); return err },
	} {
		err := fit()
		var ie *linalg.InputError
		if !errors.As(err, &ie) || !errors.Is(err, kernels.ErrData) {
			t.Errorf("%s: %v, want an InputError wrapping kernels.ErrData", name, err)
			continue
		}
		if ie.Arg != "X" {
			t.Errorf("%s: the error names %q, want X", name, ie.Arg)
		}
	}
}

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
