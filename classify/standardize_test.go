package classify

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"rkhs/internal/testmat"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// farBlobs returns blobs whose features are hundreds apart and on scales
// from 0.1 to 100 (testmat.FarApart).
func farBlobs(seed uint64, n, d int) (*linalg.Dense, []float64) {
	x, y := blobs(seed, n, d, 1.5, -1, 1)
	testmat.FarApart(testmat.Matrix(*x))
	return x, y
}

// handStandardized returns (x − μ)/σ element by element
// (testmat.Standardized): the oracle of kernels.Standardization.Apply.
func handStandardized(x *linalg.Dense, s *kernels.Standardization) *linalg.Dense {
	z := linalg.Dense(testmat.Standardized(testmat.Matrix(*x), s.Mean, s.Scale))
	return &z
}

// setStandardization gives a fitted classifier s.
func setStandardization(m savable, s *kernels.Standardization) {
	switch mm := m.(type) {
	case *PerceptronModel:
		mm.Standardization = s
	case *KNNModel:
		mm.Standardization = s
	case *RLSModel:
		mm.Model.Standardization = s
	case *LogisticModel:
		mm.Standardization = s
	case *SVMModel:
		mm.Standardization = s
	default:
		panic("unknown model")
	}
}

// outputs returns everything a classifier computes at the rows of x, one
// slice: its labels, and its scores, k-NN means or probabilities where it
// has them.
func outputs(t *testing.T, m savable, x *linalg.Dense) []float64 {
	t.Helper()
	out := mustPredict(t, m, x)
	var more []float64
	var err error
	switch mm := m.(type) {
	case interface {
		Scores(*linalg.Dense) (*linalg.Dense, error)
	}:
		var s *linalg.Dense
		if s, err = mm.Scores(x); err == nil {
			more = s.Data
		}
	case *KNNModel:
		more, err = mm.Mean(x)
	}
	if lm, ok := m.(*LogisticModel); ok && err == nil {
		var p []float64
		p, err = lm.Probabilities(x)
		more = append(more, p...)
	}
	if err != nil {
		t.Fatal(err)
	}
	return append(out, more...)
}

// TestStandardizedClassifiers: every kind of classifier (and Falkon's,
// saved as an RLS model), fitted on standardized rows and given the
// standardization, predicts, scores and gives probabilities and means on
// raw rows exactly as on rows standardized by hand with the training
// moments; saved and loaded it does the same, equals the fitted model but
// for the records a file drops, and saves to the same bytes.
func TestStandardizedClassifiers(t *testing.T) {
	x, y := farBlobs(1, 60, 3)
	xt, _ := farBlobs(2, 20, 3)
	s, err := kernels.StandardizationOf(x)
	if err != nil {
		t.Fatal(err)
	}
	xs, zt := handStandardized(x, s), handStandardized(xt, s)
	cases := persistCases()
	cases = append(cases, persistCase{"Falkon", rlsFormat, func(x *linalg.Dense, y []float64) (savable, error) {
		f, err := Falkon{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3, Centers: 15, Seed: 2, Intercept: regress.FreeIntercept}.Fit(x, y)
		if err != nil {
			return nil, err
		}
		return f.RLSModel, nil
	}, func() savable { return &RLSModel{} }})
	for _, tc := range cases {
		m, err := tc.fit(xs, y)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		want := outputs(t, m, zt)
		setStandardization(m, s)
		requireBits(t, tc.name+" on raw rows", outputs(t, m, xt), want)
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !bytes.Contains(b, []byte(`"standardization":{"mean":[`)) {
			t.Errorf("%s: no standardization in the file: %.300s", tc.name, b)
		}
		m2 := tc.fresh()
		if err := json.Unmarshal(b, m2); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if w := withoutRecords(m); !reflect.DeepEqual(m2, w) {
			t.Errorf("%s: loaded\n%+v\nwant\n%+v", tc.name, m2, w)
		}
		requireBits(t, tc.name+" loaded, on raw rows", outputs(t, m2, xt), want)
		if b2, err := json.Marshal(m2); err != nil || !bytes.Equal(b2, b) {
			t.Errorf("%s: a loaded model saves differently (%v)", tc.name, err)
		}

		// A standardization of another width is an error of every method
		// that reads the model, naming the field.
		setStandardization(m, &kernels.Standardization{Mean: []float64{0}, Scale: []float64{1}})
		_, errP := m.Predict(xt)
		_, errS := m.MarshalJSON()
		for _, err := range []error{errP, errS} {
			var ie *linalg.InputError
			if !errors.Is(err, ErrInput) || !errors.As(err, &ie) {
				t.Errorf("%s: a standardization of 1 feature for 3: %v, want ErrInput", tc.name, err)
			}
		}
	}
}

// TestStandardizationRefusedAtLoad: a model file of any classifier whose
// standardization has a subnormal scale, or a mean 1e308 scales from 0,
// is refused when it is loaded, naming the key.
func TestStandardizationRefusedAtLoad(t *testing.T) {
	x, y := farBlobs(1, 60, 3)
	s, err := kernels.StandardizationOf(x)
	if err != nil {
		t.Fatal(err)
	}
	xs := handStandardized(x, s)
	for _, tc := range persistCases() {
		m, err := tc.fit(xs, y)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		setStandardization(m, s)
		good, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			key  string
			i    int
			v    float64
			arg  string
			says string
		}{
			{"scale", 1, 1e-320, "standardization.scale[1]", "1e-320 is subnormal"},
			{"mean", 2, 1e308, "standardization.mean[2]", "1e+308 with scale"},
		} {
			var mj map[string]any
			if err := json.Unmarshal(good, &mj); err != nil {
				t.Fatal(err)
			}
			std, ok := mj["standardization"].(map[string]any)
			arg := c.arg
			if inner, nested := mj["model"].(map[string]any); !ok && nested { // an RLS model holds a regress.Model
				std, ok = inner["standardization"].(map[string]any)
				arg = "model." + arg
			}
			if !ok {
				t.Fatalf("%s: no standardization key in %.200s", tc.name, good)
			}
			std[c.key].([]any)[c.i] = c.v
			in, _ := json.Marshal(mj)
			err := json.Unmarshal(in, tc.fresh())
			var ie *linalg.InputError
			if !errors.Is(err, ErrInput) || !errors.As(err, &ie) || ie.Arg != arg || !strings.Contains(ie.Reason, c.says) {
				t.Errorf("%s with %s[%d] = %g: %v, want ErrInput on %s saying %q", tc.name, c.key, c.i, c.v, err, arg, c.says)
			}
		}
	}
}
