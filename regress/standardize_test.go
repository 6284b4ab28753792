package regress

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"rkhs/internal/testmat"
	"rkhs/kernels"
	"rkhs/linalg"
)

// farApart returns n×d rows whose features are hundreds apart, on scales
// from 0.1 to 100 (testmat.FarApart).
func farApart(seed uint64, n, d int) *linalg.Dense {
	x := linalg.Dense(testmat.FarApart(testmat.Random(testmat.NewRand(seed), n, d, 0)))
	return &x
}

// byHand standardizes the rows of x by s with the formula written out
// (testmat.Standardized): the oracle of kernels.Standardization.Apply.
func byHand(x *linalg.Dense, s *kernels.Standardization) *linalg.Dense {
	z := linalg.Dense(testmat.Standardized(testmat.Matrix(*x), s.Mean, s.Scale))
	return &z
}

// sameBitsDense reports whether two matrices hold the same float64 values
// bit for bit.
func sameBitsDense(a, b *linalg.Dense) bool {
	if a.Rows != b.Rows || a.Cols != b.Cols {
		return false
	}
	for i := 0; i < a.Rows; i++ {
		for j, v := range a.Row(i) {
			if math.Float64bits(v) != math.Float64bits(b.At(i, j)) {
				return false
			}
		}
	}
	return true
}

// TestStandardizedModels: for every fitter, a model fitted on
// standardized rows with its Standardization set predicts on raw rows
// exactly what it predicts, without it, on rows standardized by hand with
// the training moments; saved and loaded, it predicts the same bits, and
// it saves to the same bytes again.
func TestStandardizedModels(t *testing.T) {
	x, xt := farApart(1, 60, 4), farApart(2, 15, 4)
	y := randDense(3, 60, 2)
	s, err := kernels.StandardizationOf(x)
	if err != nil {
		t.Fatal(err)
	}
	xs, zt := byHand(x, s), byHand(xt, s)
	g := kernels.Gaussian{Sigma: 1.5}
	fits := []struct {
		name string
		fit  func() (*Model, error)
	}{
		{"RLS", func() (*Model, error) { return RLS{Kernel: g, Lambda: 1e-3, Intercept: FreeIntercept}.Fit(xs, y) }},
		{"Nystrom", func() (*Model, error) {
			f, err := Nystrom{Kernel: g, Lambda: 1e-3, Centers: 20, Seed: 3}.Fit(xs, y)
			if err != nil {
				return nil, err
			}
			return f.Model, nil
		}},
		{"Falkon", func() (*Model, error) {
			f, err := Falkon{Kernel: g, Lambda: 1e-3, Centers: 20, Seed: 3, Intercept: FreeIntercept}.Fit(xs, y)
			if err != nil {
				return nil, err
			}
			return f.Model, nil
		}},
		{"CGLS", func() (*Model, error) {
			f, err := CGLS{Kernel: kernels.Laplacian{Sigma: 2}, Intercept: FreeIntercept, Iterative: Iterative{MaxIter: 10}}.Fit(xs, y)
			if err != nil {
				return nil, err
			}
			return f.Model, nil
		}},
		{"Spectral", func() (*Model, error) {
			sp, err := NewSpectral(kernels.Polynomial{Degree: 2, Offset: 1}, xs, y)
			if err != nil {
				return nil, err
			}
			return sp.Fit(TikhonovFilter{Lambda: 1e-2}, PenalizedIntercept)
		}},
	}
	for _, f := range fits {
		m, err := f.fit()
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		want := predict(t, m, zt)
		m.Standardization = s
		if got := predict(t, m, xt); !sameBitsDense(got, want) {
			t.Errorf("%s: Predict on raw rows differs from Predict on rows standardized by hand", f.name)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if !bytes.Contains(b, []byte(`"standardization":{"mean":[`)) {
			t.Errorf("%s: the file has no standardization: %.200s", f.name, b)
		}
		var m2 Model
		if err := json.Unmarshal(b, &m2); err != nil {
			t.Fatalf("%s: %v", f.name, err)
		}
		if !reflect.DeepEqual(&m2, m) {
			t.Errorf("%s: loaded\n%+v\nwant\n%+v", f.name, m2, *m)
		}
		if got := predict(t, &m2, xt); !sameBitsDense(got, want) {
			t.Errorf("%s: Predict after a round trip differs", f.name)
		}
		if b2, _ := json.Marshal(&m2); !bytes.Equal(b2, b) {
			t.Errorf("%s: saved again to other bytes", f.name)
		}
	}

	// The linear model carries one the same way.
	lm, err := LinearRLS{Lambda: 1e-3, Intercept: FreeIntercept}.Fit(xs, y)
	if err != nil {
		t.Fatal(err)
	}
	want := predict(t, lm, zt)
	lm.Standardization = s
	b, _ := json.Marshal(lm)
	var lm2 LinearModel
	if err := json.Unmarshal(b, &lm2); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&lm2, lm) || !sameBitsDense(predict(t, lm, xt), want) || !sameBitsDense(predict(t, &lm2, xt), want) {
		t.Error("LinearModel: a standardized model does not predict on raw rows as on rows standardized by hand, or not after a round trip")
	}
}

// TestStandardizationOldFiles: a file without the key, as every writer
// wrote before it existed, loads into a model without one, and a model
// without one saves to those very bytes.
func TestStandardizationOldFiles(t *testing.T) {
	for _, c := range []struct {
		file  string
		model interface {
			json.Marshaler
			json.Unmarshaler
		}
	}{
		{`{"format":"rkhs.regress.Model","version":1,"feature_names":["a","b"],"target_name":"y","kernel":{"type":"gaussian","sigma":2},"centers":{"rows":2,"cols":2,"data":[0,1,2,3.5]},"coef":{"rows":2,"cols":1,"data":[0.25,-1]},"intercept":[0.5]}`, &Model{}},
		{`{"format":"rkhs.regress.Model","version":1,"kernel":{"type":"linear"},"centers":{"rows":1,"cols":1,"data":[1]},"coef":{"rows":1,"cols":1,"data":[2]},"intercept":[0]}`, &Model{}},
		{`{"format":"rkhs.regress.LinearModel","version":1,"weights":{"rows":2,"cols":1,"data":[1,-2]},"intercept":[3]}`, &LinearModel{}},
	} {
		if err := c.model.UnmarshalJSON([]byte(c.file)); err != nil {
			t.Fatal(err)
		}
		switch m := c.model.(type) {
		case *Model:
			if m.Standardization != nil {
				t.Errorf("%s: loaded a standardization", c.file)
			}
		case *LinearModel:
			if m.Standardization != nil {
				t.Errorf("%s: loaded a standardization", c.file)
			}
		}
		if b, err := c.model.MarshalJSON(); err != nil || string(b) != c.file {
			t.Errorf("saved again as\n%s (%v)\nwant\n%s", b, err, c.file)
		}
	}
}

// TestStandardizationErrors: a standardization that the model cannot
// apply is an error of Predict and of saving, naming the field; a file
// with a bad one is refused, naming the key; NaN in the rows wraps
// linalg.ErrNotFinite.
func TestStandardizationErrors(t *testing.T) {
	x := farApart(4, 20, 3)
	s, _ := kernels.StandardizationOf(x)
	xs, _ := s.Apply(x)
	m, err := RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-2}.Fit(xs, randDense(5, 20, 1))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		std *kernels.Standardization
		arg string
	}{
		{&kernels.Standardization{Mean: []float64{0, 0}, Scale: []float64{1, 1}}, "Model.Standardization"},
		{&kernels.Standardization{Mean: []float64{0, 0, 0}, Scale: []float64{1, 0, 1}}, "Model.Standardization.Scale[1]"},
		{&kernels.Standardization{Mean: []float64{0, math.NaN(), 0}, Scale: []float64{1, 1, 1}}, "Model.Standardization.Mean[1]"},
	} {
		bad := *m
		bad.Standardization = c.std
		_, errP := bad.Predict(x)
		_, errS := bad.MarshalJSON()
		for _, err := range []error{errP, errS} {
			var ie *linalg.InputError
			if !errors.Is(err, ErrInput) || !errors.As(err, &ie) || ie.Arg != c.arg {
				t.Errorf("%v: %v, want ErrInput on %s", c.std, err, c.arg)
			}
		}
	}
	m.Standardization = s
	nan := x.Clone()
	nan.Set(3, 1, math.NaN())
	if _, err := m.Predict(nan); !errors.Is(err, ErrInput) || !errors.Is(err, linalg.ErrNotFinite) {
		t.Errorf("NaN: %v, want ErrInput and linalg.ErrNotFinite", err)
	}
	good, _ := json.Marshal(m)
	for _, c := range []struct{ old, new, arg, reason string }{
		{`"scale":[`, `"scale":[0,`, "standardization.scale", "4 values for 3 means"},
		{`"scale":[`, `"shift":[0],"scale":[`, "standardization.shift", "unknown field"},
		{`"mean":[`, `"mean":[0,`, "standardization.scale", "3 values for 4 means"},
	} {
		in := strings.Replace(string(good), c.old, c.new, 1)
		err := new(Model).UnmarshalJSON([]byte(in))
		var ie *linalg.InputError
		if !errors.Is(err, ErrInput) || !errors.As(err, &ie) || ie.Arg != c.arg || !strings.Contains(ie.Reason, c.reason) {
			t.Errorf("%s → %s: %v, want ErrInput on %s saying %q", c.old, c.new, err, c.arg, c.reason)
		}
	}
	// A zero scale of the right width is named by its element.
	var mj map[string]any
	_ = json.Unmarshal(good, &mj)
	mj["standardization"].(map[string]any)["scale"].([]any)[2] = 0.0
	in, _ := json.Marshal(mj)
	var ie *linalg.InputError
	if err := new(Model).UnmarshalJSON(in); !errors.As(err, &ie) || ie.Arg != "standardization.scale[2]" {
		t.Errorf("zero scale: %v, want an error on standardization.scale[2]", err)
	}
}

// TestStandardizationRefusedAtLoad: a model file whose standardization
// cannot be applied — a subnormal scale, or a mean so far from 0 in
// scales that the feature would be constant — is refused when it is
// loaded, naming the key, for the kernel and the linear model alike; the
// file as saved loads.
func TestStandardizationRefusedAtLoad(t *testing.T) {
	x := farApart(4, 20, 3)
	s, _ := kernels.StandardizationOf(x)
	xs, _ := s.Apply(x)
	y := randDense(5, 20, 1)
	m, err := RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-2}.Fit(xs, y)
	if err != nil {
		t.Fatal(err)
	}
	m.Standardization = s
	lin, err := LinearRLS{Lambda: 1e-2}.Fit(xs, y)
	if err != nil {
		t.Fatal(err)
	}
	lin.Standardization = s
	for _, model := range []struct {
		name  string
		saved any
		load  func([]byte) error
	}{
		{"Model", m, func(b []byte) error { return new(Model).UnmarshalJSON(b) }},
		{"LinearModel", lin, func(b []byte) error { return new(LinearModel).UnmarshalJSON(b) }},
	} {
		good, err := json.Marshal(model.saved)
		if err != nil {
			t.Fatal(err)
		}
		if err := model.load(good); err != nil {
			t.Fatalf("%s as saved: %v", model.name, err)
		}
		for _, c := range []struct {
			key   string
			i     int
			value float64
			arg   string
			says  string
		}{
			{"scale", 2, 1e-320, "standardization.scale[2]", "1e-320 is subnormal"},
			{"mean", 0, 1e308, "standardization.mean[0]", "1e+308 with scale"},
			{"mean", 1, -1e300, "standardization.mean[1]", "-1e+300 with scale"},
		} {
			var mj map[string]any
			_ = json.Unmarshal(good, &mj)
			mj["standardization"].(map[string]any)[c.key].([]any)[c.i] = c.value
			in, _ := json.Marshal(mj)
			err := model.load(in)
			var ie *linalg.InputError
			if !errors.Is(err, ErrInput) || !errors.As(err, &ie) || ie.Arg != c.arg || !strings.Contains(ie.Reason, c.says) {
				t.Errorf("%s with %s[%d] = %g: %v, want ErrInput on %s saying %q", model.name, c.key, c.i, c.value, err, c.arg, c.says)
			}
		}
	}
}
