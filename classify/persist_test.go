package classify

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"rkhs/datasets"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// savable is what every classification model offers for a round trip.
type savable interface {
	Predict(*linalg.Dense) ([]float64, error)
	json.Marshaler
	json.Unmarshaler
}

// persistCase fits one model; fresh returns an empty value of its type.
type persistCase struct {
	name   string
	format string
	fit    func(x *linalg.Dense, y []float64) (savable, error)
	fresh  func() savable
}

func persistCases() []persistCase {
	gauss2 := kernels.Gaussian{Sigma: 2}
	perceptron := func() savable { return &PerceptronModel{} }
	knn := func() savable { return &KNNModel{} }
	rls := func() savable { return &RLSModel{} }
	logistic := func() savable { return &LogisticModel{} }
	svm := func() savable { return &SVMModel{} }
	return []persistCase{
		{"Perceptron gaussian bias", perceptronFormat, func(x *linalg.Dense, y []float64) (savable, error) {
			return Perceptron{Kernel: gauss2, Intercept: regress.FreeIntercept, MaxPasses: 20}.Fit(x, y)
		}, perceptron},
		{"Perceptron polynomial shuffled", perceptronFormat, func(x *linalg.Dense, y []float64) (savable, error) {
			return Perceptron{Kernel: kernels.Polynomial{Degree: 3, Offset: 0.5}, MaxPasses: 20, Shuffle: true, Seed: 7}.Fit(x, y)
		}, perceptron},
		{"KNN gaussian", knnFormat, func(x *linalg.Dense, y []float64) (savable, error) {
			return KNN{Kernel: gauss2, K: 7}.Fit(x, y)
		}, knn},
		{"KNN laplacian", knnFormat, func(x *linalg.Dense, y []float64) (savable, error) {
			return KNN{Kernel: kernels.Laplacian{Sigma: 1.7}, K: 2}.Fit(x, y)
		}, knn},
		{"RLS binary", rlsFormat, func(x *linalg.Dense, y []float64) (savable, error) {
			return RLS{Kernel: gauss2, Lambda: 1e-3, Intercept: regress.FreeIntercept}.Fit(x, y)
		}, rls},
		{"RLS one-vs-all penalized", rlsFormat, func(x *linalg.Dense, y []float64) (savable, error) {
			return RLS{Kernel: kernels.Linear{}, Lambda: 1e-2, Intercept: regress.PenalizedIntercept, OneVsAll: true}.Fit(x, y)
		}, rls},
		{"RLS leave-one-out", rlsFormat, func(x *linalg.Dense, y []float64) (savable, error) {
			return RLS{Kernel: gauss2, ChooseLambda: true, Lambdas: []float64{1e-4, 1e-3, 1e-2}}.Fit(x, y)
		}, rls},
		{"Logistic gaussian bias", logisticFormat, func(x *linalg.Dense, y []float64) (savable, error) {
			return Logistic{Kernel: gauss2, Lambda: 1e-3, Intercept: regress.FreeIntercept, MaxIter: 100}.Fit(x, y)
		}, logistic},
		{"SVM linear bias", svmFormat, func(x *linalg.Dense, y []float64) (savable, error) {
			return SVM{Kernel: kernels.Linear{}, Lambda: 1e-2, Intercept: regress.PenalizedIntercept, MaxIter: 200}.Fit(x, y)
		}, svm},
		{"SVM laplacian", svmFormat, func(x *linalg.Dense, y []float64) (savable, error) {
			return SVM{Kernel: kernels.Laplacian{Sigma: 3}, Lambda: 1e-3, MaxIter: 100}.Fit(x, y)
		}, svm},
	}
}

// requireBits fails unless got and want are the same float64 values bit
// for bit.
func requireBits(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if !sameBits(got, want) {
		t.Fatalf("%s after a round trip:\n got %v\nwant %v", what, got, want)
	}
}

// withoutRecords returns a copy of the fitted model m with the fields a
// file does not keep set to nil: what a loaded model must equal.
func withoutRecords(m savable) savable {
	switch mm := m.(type) {
	case *PerceptronModel:
		c := *mm
		c.Alpha = nil
		return &c
	case *LogisticModel:
		c := *mm
		c.History = nil
		return &c
	case *SVMModel:
		c := *mm
		c.History = nil
		return &c
	}
	return m
}

// TestPersistRoundTrip: on heart, every model saved and loaded predicts,
// scores, gives probabilities and means bit-identically, equals the fitted
// model but for the records a file drops, and saves to the same bytes.
func TestPersistRoundTrip(t *testing.T) {
	train, test := datasets.MustLoad("heart").Split(0.7, 1)
	for _, tc := range persistCases() {
		m, err := tc.fit(&train.X, train.Y)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if f, err := regress.FormatOf(b); err != nil || f != tc.format {
			t.Errorf("%s: FormatOf = %q, %v; want %q", tc.name, f, err, tc.format)
		}
		m2 := tc.fresh()
		if err := json.Unmarshal(b, m2); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if want := withoutRecords(m); !reflect.DeepEqual(m2, want) {
			t.Errorf("%s: loaded model\n%+v\nwant\n%+v", tc.name, m2, want)
		}
		for _, x := range []*linalg.Dense{&test.X, &train.X} {
			requireBits(t, tc.name+" Predict", mustPredict(t, m2, x), mustPredict(t, m, x))
			switch mm := m.(type) {
			case interface {
				Scores(*linalg.Dense) (*linalg.Dense, error)
			}:
				s1, err1 := mm.Scores(x)
				s2, err2 := m2.(interface {
					Scores(*linalg.Dense) (*linalg.Dense, error)
				}).Scores(x)
				if err1 != nil || err2 != nil {
					t.Fatalf("%s: Scores: %v, %v", tc.name, err1, err2)
				}
				if s1.Rows != s2.Rows || s1.Cols != s2.Cols {
					t.Fatalf("%s: Scores %d×%d after a round trip, want %d×%d", tc.name, s2.Rows, s2.Cols, s1.Rows, s1.Cols)
				}
				requireBits(t, tc.name+" Scores", s2.Data, s1.Data)
			case *KNNModel:
				p1, err1 := mm.Mean(x)
				p2, err2 := m2.(*KNNModel).Mean(x)
				if err1 != nil || err2 != nil {
					t.Fatalf("%s: Mean: %v, %v", tc.name, err1, err2)
				}
				requireBits(t, tc.name+" Mean", p2, p1)
			}
			if lm, ok := m.(*LogisticModel); ok {
				p1, err1 := lm.Probabilities(x)
				p2, err2 := m2.(*LogisticModel).Probabilities(x)
				if err1 != nil || err2 != nil {
					t.Fatalf("%s: Probabilities: %v, %v", tc.name, err1, err2)
				}
				requireBits(t, tc.name+" Probabilities", p2, p1)
			}
		}
		b2, err := json.Marshal(m2)
		if err != nil || !bytes.Equal(b2, b) {
			t.Errorf("%s: a loaded model saves differently (%v)", tc.name, err)
		}
	}
}

// TestPersistMulticlass: a three-class one-vs-all RLS and k-NN on digits
// round-trip bit-identically, labels and scores.
func TestPersistMulticlass(t *testing.T) {
	d := datasets.MustLoad("digits")
	var rows []int
	for i, y := range d.Y {
		if y <= 2 && len(rows) < 150 {
			rows = append(rows, i)
		}
	}
	train := d.Subset(rows[:100])
	test := d.Subset(rows[100:])
	r, err := RLS{Kernel: kernels.Gaussian{Sigma: 30}, Lambda: 1e-4}.Fit(&train.X, train.Y)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Classes) != 3 || r.Model.Coef.Cols != 3 {
		t.Fatalf("classes %v, %d score columns; want three", r.Classes, r.Model.Coef.Cols)
	}
	k, err := KNN{Kernel: kernels.Gaussian{Sigma: 30}, K: 3}.Fit(&train.X, train.Y)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []savable{r, k} {
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		m2 := reflect.New(reflect.TypeOf(m).Elem()).Interface().(savable)
		if err := json.Unmarshal(b, m2); err != nil {
			t.Fatal(err)
		}
		requireBits(t, "Predict", mustPredict(t, m2, &test.X), mustPredict(t, m, &test.X))
	}
}

// TestPersistNoCenters: a model with no centres (an SVM that kept c = 0)
// saves, loads and predicts the smaller class everywhere.
func TestPersistNoCenters(t *testing.T) {
	m := &SVMModel{Kernel: kernels.Linear{}, Centers: linalg.NewDense(0, 2, nil), Classes: []float64{0, 1}}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var m2 SVMModel
	if err := json.Unmarshal(b, &m2); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	x, _ := blobs(3, 20, 2, 2, 0, 1)
	for i, v := range mustPredict(t, &m2, x) {
		if v != 0 {
			t.Fatalf("label %d is %v, want 0 (a score of 0 goes to the smaller class)", i, v)
		}
	}
}

// edit decodes a model file, lets f change it and encodes it again.
func edit(t *testing.T, good []byte, f func(map[string]any)) string {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(good, &v); err != nil {
		t.Fatal(err)
	}
	f(v)
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPersistErrors: malformed files give *InputError values wrapping
// ErrInput that name the field, and leave the target unchanged.
func TestPersistErrors(t *testing.T) {
	x, y := blobs(1, 12, 2, 2, -1, 1)
	perc, _ := Perceptron{Kernel: kernels.Gaussian{Sigma: 1}, Intercept: regress.FreeIntercept}.Fit(x, y)
	knn, _ := KNN{Kernel: kernels.Linear{}, K: 3}.Fit(x, y)
	rlsB, _ := RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-2}.Fit(x, y)
	logi, _ := Logistic{Kernel: kernels.Linear{}, Lambda: 1e-2, MaxIter: 20}.Fit(x, y)
	svm, _ := SVM{Kernel: kernels.Linear{}, Lambda: 1e-2, MaxIter: 20}.Fit(x, y)
	save := func(m json.Marshaler) []byte {
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	pGood, kGood, rGood, lGood, sGood := save(perc), save(knn), save(rlsB), save(logi), save(svm)
	regGood := save(rlsB.Model)
	set := func(key string, v any) func(map[string]any) {
		return func(m map[string]any) { m[key] = v }
	}
	setIn := func(outer, key string, v any) func(map[string]any) {
		return func(m map[string]any) { m[outer].(map[string]any)[key] = v }
	}
	for _, tc := range []struct {
		name  string
		fresh func() json.Unmarshaler
		in    string
		arg   string // the InputError's Arg
		msg   string // in the message
	}{
		{"not JSON", func() json.Unmarshaler { return &PerceptronModel{} }, "{", "model file", "truncated"},
		{"NaN", func() json.Unmarshaler { return &PerceptronModel{} }, strings.Replace(string(pGood), `"intercept":`, `"intercept":NaN,"x":`, 1), "model file", "invalid character"},
		{"out of range", func() json.Unmarshaler { return &SVMModel{} }, strings.Replace(string(sGood), `"intercept":`, `"intercept":1e999,"x":`, 1), "intercept", "1e999 is out of the range of a float64"},
		{"other format", func() json.Unmarshaler { return &PerceptronModel{} }, string(sGood), "format", svmFormat},
		{"regress file", func() json.Unmarshaler { return &SVMModel{} }, string(regGood), "format", "rkhs.regress.Model"},
		{"future version", func() json.Unmarshaler { return &LogisticModel{} }, edit(t, lGood, set("version", 3)), "version", "version 3"},
		{"no version", func() json.Unmarshaler { return &KNNModel{} }, edit(t, kGood, func(m map[string]any) { delete(m, "version") }), "version", "version 0"},
		{"bad sigma", func() json.Unmarshaler { return &PerceptronModel{} }, edit(t, pGood, setIn("kernel", "sigma", -1)), "kernel.sigma", "-1, must be positive"},
		{"unknown kernel", func() json.Unmarshaler { return &KNNModel{} }, edit(t, kGood, setIn("kernel", "type", "rbf")), "kernel.type", "unknown kernel"},
		{"no kernel", func() json.Unmarshaler { return &SVMModel{} }, edit(t, sGood, func(m map[string]any) { delete(m, "kernel") }), "kernel.type", "unknown kernel"},
		{"three classes", func() json.Unmarshaler { return &SVMModel{} }, edit(t, sGood, set("classes", []float64{-1, 0, 1})), "classes", "want 2"},
		{"descending classes", func() json.Unmarshaler { return &PerceptronModel{} }, edit(t, pGood, set("classes", []float64{1, -1})), "classes", "ascending"},
		{"equal classes", func() json.Unmarshaler { return &LogisticModel{} }, edit(t, lGood, set("classes", []float64{1, 1})), "classes", "ascending"},
		{"negative zero class", func() json.Unmarshaler { return &SVMModel{} }, strings.Replace(edit(t, sGood, set("classes", []float64{-1, 0})), "[-1,0]", "[-1,-0]", 1), "classes", "classes[1] is −0"},
		{"centres short", func() json.Unmarshaler { return &PerceptronModel{} }, edit(t, pGood, setIn("centers", "rows", float64(perc.Centers.Rows+1))), "centers", "values"},
		{"no columns", func() json.Unmarshaler { return &SVMModel{} }, edit(t, sGood, set("centers", map[string]any{"rows": 0, "cols": 0, "data": []float64{}})), "centers", "0×0"},
		{"overflowing shape", func() json.Unmarshaler { return &SVMModel{} }, edit(t, sGood, set("centers", map[string]any{"rows": 4, "cols": json.Number("4611686018427387904"), "data": []float64{}})), "", ""},
		{"coef long", func() json.Unmarshaler { return &LogisticModel{} }, edit(t, lGood, set("coef", append(append([]float64{}, logi.Coef...), 1))), "coef", "13 values, want 12"},
		{"negative passes", func() json.Unmarshaler { return &PerceptronModel{} }, edit(t, pGood, set("passes", -1)), "passes", "at least 0"},
		{"negative best_iter", func() json.Unmarshaler { return &SVMModel{} }, edit(t, sGood, set("best_iter", -3)), "best_iter", "at least 0"},
		{"knn labels short", func() json.Unmarshaler { return &KNNModel{} }, edit(t, kGood, set("labels", y[1:])), "labels", "11 values, want 12"},
		{"knn classes not the labels'", func() json.Unmarshaler { return &KNNModel{} }, edit(t, kGood, set("classes", []float64{-1, 2})), "classes", "the labels have"},
		{"knn k = n", func() json.Unmarshaler { return &KNNModel{} }, edit(t, kGood, set("k", 12)), "k", "1 ≤ k < n"},
		{"knn k = 0", func() json.Unmarshaler { return &KNNModel{} }, edit(t, kGood, set("k", 0)), "k", "1 ≤ k < n"},
		{"rls lambda 0", func() json.Unmarshaler { return &RLSModel{} }, edit(t, rGood, set("lambda", 0)), "lambda", "positive"},
		{"rls no model", func() json.Unmarshaler { return &RLSModel{} }, edit(t, rGood, func(m map[string]any) { delete(m, "model") }), "model", "missing"},
		{"rls bad inner model", func() json.Unmarshaler { return &RLSModel{} }, edit(t, rGood, setIn("model", "intercept", []float64{0, 0})), "model.intercept", "2 values, want 1"},
		{"rls inner format", func() json.Unmarshaler { return &RLSModel{} }, edit(t, rGood, setIn("model", "format", "rkhs.regress.LinearModel")), "model.format", `"rkhs.regress.LinearModel", want "rkhs.regress.Model"`},
		{"rls columns for one-vs-all", func() json.Unmarshaler { return &RLSModel{} }, edit(t, rGood, set("one_vs_all", true)), "model.coef", "1 columns for 2 classes"},
		{"rls binary with three classes", func() json.Unmarshaler { return &RLSModel{} }, edit(t, rGood, set("classes", []float64{1, 2, 3})), "classes", "want 2"},
		{"rls loo lengths", func() json.Unmarshaler { return &RLSModel{} }, edit(t, rGood, set("loo_lambdas", []float64{1e-3})), "loo_errors", "0 values, want 1"},
		{"rls overflowing inner shape", func() json.Unmarshaler { return &RLSModel{} }, edit(t, rGood, func(m map[string]any) {
			inner := m["model"].(map[string]any)
			inner["centers"] = map[string]any{"rows": 4, "cols": json.Number("4611686018427387904"), "data": []float64{}}
			inner["coef"] = map[string]any{"rows": 4, "cols": 1, "data": []float64{1, 2, 3, 4}}
			inner["intercept"] = []float64{0}
		}), "", "model"},
	} {
		m := tc.fresh()
		err := m.UnmarshalJSON([]byte(tc.in))
		var ie *linalg.InputError
		if !errors.Is(err, ErrInput) || !errors.As(err, &ie) {
			t.Errorf("%s: %v, want an *InputError wrapping ErrInput", tc.name, err)
			continue
		}
		if tc.arg != "" && ie.Arg != tc.arg || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v (Arg %q), want Arg %q and a message containing %q", tc.name, err, ie.Arg, tc.arg, tc.msg)
		}
		if !strings.HasSuffix(ie.Op, ".UnmarshalJSON") {
			t.Errorf("%s: Op %q", tc.name, ie.Op)
		}
		if !reflect.ValueOf(m).Elem().IsZero() {
			t.Errorf("%s: the target was changed by a failed load", tc.name)
		}
	}
	var m PerceptronModel
	if err := m.UnmarshalJSON([]byte(edit(t, pGood, setIn("kernel", "sigma", 0)))); !errors.Is(err, kernels.ErrParameter) {
		t.Errorf("a bad kernel parameter: %v, want it to wrap kernels.ErrParameter", err)
	}
	var r RLSModel
	if err := r.UnmarshalJSON([]byte(edit(t, rGood, setIn("model", "version", 9)))); !errors.Is(err, regress.ErrInput) {
		t.Errorf("a bad inner model: %v, want it to wrap regress.ErrInput too", err)
	}
}

// userKernel is a kernel package kernels does not know: it cannot be saved.
type userKernel struct{ kernels.Linear }

// TestPersistUnsavable: user kernels and models that no fit produced give
// errors wrapping ErrInput, not panics.
func TestPersistUnsavable(t *testing.T) {
	x, y := blobs(2, 10, 2, 2, 0, 1)
	perc, _ := Perceptron{Kernel: kernels.Linear{}}.Fit(x, y)
	knn, _ := KNN{Kernel: kernels.Linear{}, K: 1}.Fit(x, y)
	rls, _ := RLS{Kernel: kernels.Linear{}, Lambda: 1}.Fit(x, y)
	logi, _ := Logistic{Kernel: kernels.Linear{}, Lambda: 1, MaxIter: 3}.Fit(x, y)
	svm, _ := SVM{Kernel: kernels.Linear{}, Lambda: 1, MaxIter: 3}.Fit(x, y)
	user := userKernel{}
	pu, ku, lu, su := *perc, *knn, *logi, *svm
	pu.Kernel, ku.Kernel, lu.Kernel, su.Kernel = user, user, user, user
	ru := *rls
	inner := *rls.Model
	inner.Kernel = user
	ru.Model = &inner
	for _, m := range []json.Marshaler{&pu, &ku, &ru, &lu, &su} {
		_, err := json.Marshal(m)
		if !errors.Is(err, ErrInput) || !errors.Is(err, kernels.ErrParameter) || !strings.Contains(err.Error(), "cannot be saved") {
			t.Errorf("%T with a user kernel: %v, want ErrInput and kernels.ErrParameter, \"cannot be saved\"", m, err)
		}
	}
	for _, m := range []json.Marshaler{&PerceptronModel{Kernel: kernels.Linear{}}, &KNNModel{Kernel: kernels.Linear{}}, &RLSModel{}, &LogisticModel{Kernel: kernels.Linear{}}, &SVMModel{Kernel: kernels.Linear{}}} {
		if _, err := json.Marshal(m); !errors.Is(err, ErrInput) {
			t.Errorf("%T without matrices: %v, want ErrInput", m, err)
		}
	}
}

// FuzzUnmarshal: no file makes loading panic, nor prediction with a model
// that loaded; a loaded model saves and loads again to the same bytes.
func FuzzUnmarshal(f *testing.F) {
	x, y := blobs(4, 8, 2, 2, 0, 1)
	perc, _ := Perceptron{Kernel: kernels.Gaussian{Sigma: 1}, Intercept: regress.FreeIntercept}.Fit(x, y)
	knn, _ := KNN{Kernel: kernels.Laplacian{Sigma: 1}, K: 2}.Fit(x, y)
	rls, _ := RLS{Kernel: kernels.Polynomial{Degree: 2, Offset: 1}, Lambda: 1e-2, OneVsAll: true}.Fit(x, y)
	logi, _ := Logistic{Kernel: kernels.Linear{}, Lambda: 1e-2, Intercept: regress.FreeIntercept, MaxIter: 5}.Fit(x, y)
	svm, _ := SVM{Kernel: kernels.Gaussian{Sigma: 2}, Lambda: 1e-2, MaxIter: 5}.Fit(x, y)
	for _, m := range []json.Marshaler{perc, knn, rls, logi, svm} {
		b, err := json.Marshal(m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, m := range []savable{&PerceptronModel{}, &KNNModel{}, &RLSModel{}, &LogisticModel{}, &SVMModel{}} {
			if err := m.UnmarshalJSON(b); err != nil {
				if !errors.Is(err, ErrInput) {
					t.Fatalf("%T: %v does not wrap ErrInput", m, err)
				}
				continue
			}
			if cols := modelCols(m); cols <= 64 {
				if _, err := m.Predict(linalg.NewDense(2, cols, nil)); err != nil {
					t.Fatalf("%T: Predict on a loaded model: %v", m, err)
				}
			}
			b2, err := json.Marshal(m)
			if err != nil {
				t.Fatalf("%T: a loaded model does not save: %v", m, err)
			}
			m2 := reflect.New(reflect.TypeOf(m).Elem()).Interface().(savable)
			if err := m2.UnmarshalJSON(b2); err != nil {
				t.Fatalf("%T: a saved model does not load: %v", m, err)
			}
			if b3, _ := json.Marshal(m2); !bytes.Equal(b3, b2) {
				t.Fatalf("%T: saving is not stable:\n%s\n%s", m, b2, b3)
			}
		}
	})
}

// modelCols returns the number of features a model was fitted on.
func modelCols(m savable) int {
	switch mm := m.(type) {
	case *PerceptronModel:
		return mm.Centers.Cols
	case *KNNModel:
		return mm.X.Cols
	case *RLSModel:
		return mm.Model.Centers.Cols
	case *LogisticModel:
		return mm.Centers.Cols
	case *SVMModel:
		return mm.Centers.Cols
	}
	panic("unknown model")
}

// setNames gives a model the names of its columns, as rkhs classify does
// for data with a header.
func setNames(m savable, features []string, target string) {
	switch mm := m.(type) {
	case *PerceptronModel:
		mm.FeatureNames, mm.TargetName = features, target
	case *KNNModel:
		mm.FeatureNames, mm.TargetName = features, target
	case *RLSModel:
		mm.Model.FeatureNames, mm.Model.TargetName = features, target
	case *LogisticModel:
		mm.FeatureNames, mm.TargetName = features, target
	case *SVMModel:
		mm.FeatureNames, mm.TargetName = features, target
	}
}

// TestPersistColumns: every kind of model saves the names of its columns
// and loads them back, and refuses to save names that cannot tell the
// columns apart.
func TestPersistColumns(t *testing.T) {
	x, y := blobs(3, 12, 3, 2, -1, 1)
	names := []string{"b", "a", "c"}
	for _, tc := range persistCases() {
		m, err := tc.fit(x, y)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		plain, _ := json.Marshal(m)
		setNames(m, names, "label")
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !bytes.Contains(b, []byte(`"feature_names":["b","a","c"],"target_name":"label"`)) || bytes.Contains(plain, []byte("feature_names")) {
			t.Errorf("%s: saved\n%s\nwithout names\n%s", tc.name, b, plain)
		}
		m2 := tc.fresh()
		if err := json.Unmarshal(b, m2); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if want := withoutRecords(m); !reflect.DeepEqual(m2, want) {
			t.Errorf("%s: loaded model\n%+v\nwant\n%+v", tc.name, m2, want)
		}
		setNames(m, []string{"a", "b", "a"}, "")
		if _, err := json.Marshal(m); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), `"a" is given twice`) {
			t.Errorf("%s: saving duplicated names: %v, want ErrInput", tc.name, err)
		}
	}
}

// TestPersistStrict: each format is read exactly as written: a key in
// another case, a key given twice or an unknown key is refused, where
// encoding/json alone would take the last duplicate, match keys in any
// case and ignore the rest.
func TestPersistStrict(t *testing.T) {
	x, y := blobs(1, 12, 2, 2, -1, 1)
	for _, tc := range persistCases() {
		m, err := tc.fit(x, y)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		good, _ := json.Marshal(m)
		first := `"classes":`
		for _, c := range []struct{ edit, arg, reason string }{
			{`"Classes":[0,1],"classes":`, "Classes", `case-sensitive, did you mean "classes"?`},
			{`"classes":[5,6],"classes":`, "classes", "given twice"},
			{`"gamma":1,"classes":`, "gamma", "unknown field"},
		} {
			in := strings.Replace(string(good), first, c.edit, 1)
			err := tc.fresh().UnmarshalJSON([]byte(in))
			var ie *linalg.InputError
			if !errors.Is(err, ErrInput) || !errors.As(err, &ie) || ie.Arg != c.arg || !strings.Contains(ie.Reason, c.reason) {
				t.Errorf("%s with %s: %v, want ErrInput at %s saying %q", tc.name, c.edit, err, c.arg, c.reason)
			}
		}
	}
	// The regress.Model inside an RLS file is read as strictly.
	rls, _ := RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-2}.Fit(x, y)
	good, _ := json.Marshal(rls)
	in := strings.Replace(string(good), `"sigma":1`, `"sigma":1,"Sigma":7`, 1)
	if err := new(RLSModel).UnmarshalJSON([]byte(in)); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "kernel.Sigma") {
		t.Errorf("RLS with Sigma inside: %v, want an error naming kernel.Sigma", err)
	}
}
