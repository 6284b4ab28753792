package regress

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
)

// TestPersistRoundTrip: a saved and loaded model predicts bit-identically.
func TestPersistRoundTrip(t *testing.T) {
	x, y, xt := randDense(30, 40, 3), randDense(31, 40, 2), randDense(32, 9, 3)
	for _, k := range []kernels.Kernel{kernels.Gaussian{Sigma: 0.3}, kernels.Laplacian{Sigma: 1.7}, kernels.Polynomial{Degree: 2, Offset: 1}, kernels.Linear{}} {
		m, err := RLS{Kernel: k, Lambda: 1e-3, Intercept: FreeIntercept}.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if f, _ := FormatOf(b); f != modelFormat {
			t.Errorf("FormatOf = %q", f)
		}
		var m2 Model
		if err := json.Unmarshal(b, &m2); err != nil {
			t.Fatal(err)
		}
		p1, p2 := predict(t, m, xt), predict(t, &m2, xt)
		for i := range p1.Data {
			if math.Float64bits(p1.Data[i]) != math.Float64bits(p2.Data[i]) {
				t.Fatalf("%T: prediction %d differs after a round trip: %v, %v", k, i, p1.Data[i], p2.Data[i])
			}
		}
	}
	lm, _ := LinearRLS{Lambda: 1e-3, Intercept: PenalizedIntercept}.Fit(x, y)
	b, _ := json.Marshal(lm)
	var lm2 LinearModel
	if err := json.Unmarshal(b, &lm2); err != nil {
		t.Fatal(err)
	}
	p1, p2 := predict(t, lm, xt), predict(t, &lm2, xt)
	for i := range p1.Data {
		if p1.Data[i] != p2.Data[i] {
			t.Fatalf("linear model prediction %d differs after a round trip", i)
		}
	}
}

func TestPersistErrors(t *testing.T) {
	m, _ := RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3}.Fit(randDense(1, 5, 2), randDense(2, 5, 1))
	good, _ := json.Marshal(m)
	for _, tc := range []struct{ name, in, msg string }{
		{"not JSON", "{", "model file"},
		{"other format", strings.Replace(string(good), modelFormat, "rkhs.other", 1), "format"},
		{"future version", strings.Replace(string(good), `"version":1`, `"version":2`, 1), "version 2"},
		{"bad kernel", strings.Replace(string(good), `"sigma":1`, `"sigma":-1`, 1), "kernel.sigma: -1"},
		{"short data", strings.Replace(string(good), `"intercept":[0]`, `"intercept":[0,0]`, 1), "intercept: 2 values, want 1"},
		// 4·2⁶² wraps to 0 in 64-bit int arithmetic, so the empty data would
		// match; on 32-bit targets the decoder rejects the number itself.
		{"overflowing shape", `{"format":"rkhs.regress.Model","version":1,"kernel":{"type":"gaussian","sigma":1},"centers":{"rows":4,"cols":4611686018427387904,"data":[]},"coef":{"rows":4,"cols":1,"data":[1,2,3,4]},"intercept":[0]}`, "centers"},
	} {
		var m2 Model
		err := m2.UnmarshalJSON([]byte(tc.in))
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: %v, want ErrInput containing %q", tc.name, err, tc.msg)
		}
	}
	if _, err := json.Marshal(&Model{Kernel: plusOne{kernels.Linear{}}, Centers: m.Centers, Coef: m.Coef, Intercept: m.Intercept}); err == nil {
		t.Errorf("a user kernel was saved")
	}
}

// FuzzUnmarshalLinearModel: no file makes LinearModel's decoder panic, nor
// prediction with a model that loaded; a loaded model saves and loads
// again to the same bytes, and predicts the same bits after the trip.
func FuzzUnmarshalLinearModel(f *testing.F) {
	x, y := randDense(81, 12, 3), randDense(82, 12, 2)
	for _, ic := range intercepts {
		m, err := LinearRLS{Lambda: 1e-2, Intercept: ic}.Fit(x, y)
		if err != nil {
			f.Fatal(err)
		}
		b, err := json.Marshal(m)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"format":"rkhs.regress.LinearModel","version":1,"weights":{"rows":1,"cols":1,"data":[1e308]},"intercept":[-1e308]}`))
	f.Add([]byte(`{"format":"rkhs.regress.LinearModel","version":1,"weights":{"rows":2,"cols":0,"data":[]},"intercept":[]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var m LinearModel
		if err := m.UnmarshalJSON(b); err != nil {
			if !errors.Is(err, ErrInput) {
				t.Fatalf("%v does not wrap ErrInput", err)
			}
			if m.Weights != nil || m.Intercept != nil {
				t.Fatalf("a failed load changed the model: %+v", m)
			}
			return
		}
		var p *linalg.Dense
		if d := m.Weights.Rows; d <= 64 {
			var err error
			if p, err = m.Predict(linalg.NewDense(3, d, nil)); err != nil {
				t.Fatalf("Predict on a loaded model: %v", err)
			}
		}
		b2, err := json.Marshal(&m)
		if err != nil {
			t.Fatalf("a loaded model does not save: %v", err)
		}
		var m2 LinearModel
		if err := m2.UnmarshalJSON(b2); err != nil {
			t.Fatalf("a saved model does not load: %v", err)
		}
		if b3, _ := json.Marshal(&m2); !bytes.Equal(b3, b2) {
			t.Fatalf("saving is not stable:\n%s\n%s", b2, b3)
		}
		if p != nil {
			p2, _ := m2.Predict(linalg.NewDense(3, m.Weights.Rows, nil))
			for i, v := range p.Data {
				if math.Float64bits(v) != math.Float64bits(p2.Data[i]) {
					t.Fatalf("prediction %d: %v before the round trip, %v after", i, v, p2.Data[i])
				}
			}
		}
	})
}

// TestLoadRejectsNull: a null in place of a number of a model file (a
// coefficient, the intercept, σ) is corruption like any other; it used to
// load as 0.
func TestLoadRejectsNull(t *testing.T) {
	x := linalg.NewDense(3, 1, []float64{0, 0.5, 1})
	y := linalg.NewDense(3, 1, []float64{1, 2, 0})
	m, err := RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 0.1, Intercept: FreeIntercept}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	b, err := m.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{`"sigma":`, `"intercept":[`, `"coef":{"rows":3,"cols":1,"data":[`} {
		i := strings.Index(string(b), field)
		if i < 0 {
			t.Fatalf("no %s in %s", field, b)
		}
		j := i + len(field)
		k := j + strings.IndexAny(string(b[j:]), ",]}")
		bad := string(b[:j]) + "null" + string(b[k:])
		var back Model
		if err := back.UnmarshalJSON([]byte(bad)); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "null") {
			t.Errorf("null after %s: %v, want an error", field, err)
		}
	}
}

// TestPersistStrict: a model file is read exactly as written: a key in
// another case, a key given twice, an unknown key or a parameter of
// another kernel type is refused, where encoding/json alone would take
// the last duplicate, match keys in any case and ignore the rest.
func TestPersistStrict(t *testing.T) {
	m, _ := RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3, Intercept: FreeIntercept}.Fit(randDense(1, 5, 2), randDense(2, 5, 1))
	good, _ := json.Marshal(m)
	lin, _ := RLS{Kernel: kernels.Linear{}, Lambda: 1e-3}.Fit(randDense(1, 5, 2), randDense(2, 5, 1))
	goodLin, _ := json.Marshal(lin)
	lm, _ := LinearRLS{Lambda: 1e-3}.Fit(randDense(1, 5, 2), randDense(2, 5, 1))
	goodLM, _ := json.Marshal(lm)
	for _, tc := range []struct {
		name, in, arg, reason string
		into                  json.Unmarshaler
	}{
		{"Sigma after sigma", strings.Replace(string(good), `"sigma":1`, `"sigma":1,"Sigma":7`, 1), "kernel.Sigma", `case-sensitive, did you mean "sigma"`, &Model{}},
		{"second intercept", strings.Replace(string(good), `"intercept"`, `"intercept":[5],"intercept"`, 1), "intercept", "given twice", &Model{}},
		{"unknown gamma", strings.Replace(string(good), `"sigma":1`, `"sigma":1,"gamma":3`, 1), "kernel.gamma", "unknown field", &Model{}},
		{"top-level unknown", strings.Replace(string(good), `"kernel"`, `"lambda":1,"kernel"`, 1), "lambda", "unknown field", &Model{}},
		{"sigma on linear", strings.Replace(string(goodLin), `"type":"linear"`, `"type":"linear","sigma":2`, 1), "kernel.sigma", "not a parameter of the linear kernel", &Model{}},
		{"Weights", strings.Replace(string(goodLM), `"weights"`, `"Weights"`, 1), "Weights", "case-sensitive", &LinearModel{}},
		{"array file", `[1,2]`, "model file", "a list, want a JSON object", &Model{}},
		{"string sigma", strings.Replace(string(good), `"sigma":1`, `"sigma":"1"`, 1), "kernel.sigma", `the string "1", want a number`, &Model{}},
		{"fractional cols", strings.Replace(string(good), `"cols":2`, `"cols":2.5`, 1), "centers.cols", "2.5, want a whole number", &Model{}},
		{"feature names, wrong count", strings.Replace(string(good), `"kernel"`, `"feature_names":["a"],"kernel"`, 1), "feature_names", "1 names for 2 features", &Model{}},
		{"target among features", strings.Replace(string(good), `"kernel"`, `"feature_names":["a","b"],"target_name":"b","kernel"`, 1), "target_name", "also the name of a feature", &Model{}},
	} {
		err := tc.into.UnmarshalJSON([]byte(tc.in))
		var ie *linalg.InputError
		if !errors.Is(err, ErrInput) || !errors.As(err, &ie) || ie.Arg != tc.arg || !strings.Contains(ie.Reason, tc.reason) {
			t.Errorf("%s: %v, want ErrInput at %s saying %q", tc.name, err, tc.arg, tc.reason)
		}
		if err != nil && strings.Contains(err.Error(), "Go ") {
			t.Errorf("%s: %v speaks of Go types", tc.name, err)
		}
	}
}

// TestPersistColumns: the names of the columns a model was fitted on are
// saved and loaded with it, and a file without them (older writers, data
// without a header) is written and read as before.
func TestPersistColumns(t *testing.T) {
	m, _ := RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3}.Fit(randDense(1, 5, 2), randDense(2, 5, 1))
	plain, _ := json.Marshal(m)
	if bytes.Contains(plain, []byte("_name")) {
		t.Errorf("a model without names writes %s", plain)
	}
	m.FeatureNames, m.TargetName = []string{"x1", "x0"}, "y"
	named, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var m2 Model
	if err := json.Unmarshal(named, &m2); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m2.FeatureNames, m.FeatureNames) || m2.TargetName != "y" {
		t.Errorf("loaded names %q, %q; want %q, y", m2.FeatureNames, m2.TargetName, m.FeatureNames)
	}
	if want := strings.Replace(string(plain), `"kernel"`, `"feature_names":["x1","x0"],"target_name":"y","kernel"`, 1); string(named) != want {
		t.Errorf("saved\n%s\nwant\n%s", named, want)
	}
	m.FeatureNames = []string{"x0", "x0"}
	if _, err := json.Marshal(m); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "Model.FeatureNames") {
		t.Errorf("saving duplicated names: %v, want ErrInput naming Model.FeatureNames", err)
	}
	lm, _ := LinearRLS{Lambda: 1e-3}.Fit(randDense(1, 5, 3), randDense(2, 5, 1))
	lm.FeatureNames, lm.TargetName = []string{"a", "b", "c"}, "t"
	b, err := json.Marshal(lm)
	if err != nil {
		t.Fatal(err)
	}
	var lm2 LinearModel
	if err := json.Unmarshal(b, &lm2); err != nil || !slices.Equal(lm2.FeatureNames, lm.FeatureNames) || lm2.TargetName != "t" {
		t.Errorf("LinearModel names after a round trip: %q, %q, %v", lm2.FeatureNames, lm2.TargetName, err)
	}
}

// TestPersistTrainingScale: the training standard deviations of a
// standardization composed with length scales are saved beside it and
// load back, a file without them loads as before, and a bad value is
// refused on its key.
func TestPersistTrainingScale(t *testing.T) {
	m, _ := RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3}.Fit(randDense(1, 5, 2), randDense(2, 5, 1))
	m.Standardization = &kernels.Standardization{Mean: []float64{1, 2}, Scale: []float64{6, 0.5}, TrainingScale: []float64{3, 0.25}}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"training_scale":[3,0.25]`)) {
		t.Errorf("the file has no training_scale: %s", b)
	}
	var m2 Model
	if err := m2.UnmarshalJSON(b); err != nil || !reflect.DeepEqual(m2.Standardization, m.Standardization) {
		t.Errorf("loaded %+v, %v; want %+v", m2.Standardization, err, m.Standardization)
	}
	old := strings.Replace(string(b), `,"training_scale":[3,0.25]`, "", 1)
	if err := m2.UnmarshalJSON([]byte(old)); err != nil || m2.Standardization.TrainingScale != nil {
		t.Errorf("a file without training_scale: %+v, %v; want it loaded without one", m2.Standardization, err)
	}
	for _, tc := range []struct{ bad, arg, reason string }{
		{`"training_scale":[3,-1]`, "standardization.training_scale[1]", "must be positive"},
		{`"training_scale":[3]`, "standardization.training_scale", "1 values for 2 means"},
		{`"training_scale":[3,"a"]`, "standardization.training_scale[1]", "want a number"},
	} {
		err := m2.UnmarshalJSON([]byte(strings.Replace(string(b), `"training_scale":[3,0.25]`, tc.bad, 1)))
		var ie *linalg.InputError
		if !errors.Is(err, ErrInput) || !errors.As(err, &ie) || ie.Arg != tc.arg || !strings.Contains(ie.Reason, tc.reason) {
			t.Errorf("%s: %v, want ErrInput at %s saying %q", tc.bad, err, tc.arg, tc.reason)
		}
	}
}
