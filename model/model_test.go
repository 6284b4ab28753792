package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"rkhs/classify"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// TestRoundTrip: a model of each kind a command saves loads back by
// its format, with its width, outputs, labels and names, predicts as the
// fitted one, and writes its predictions as every command writes them.
func TestRoundTrip(t *testing.T) {
	x := linalg.NewDense(6, 2, []float64{0, 0, 1, 0, 0, 1, 1, 1, 2, 1, 1, 2})
	labels := []float64{-1, -1, -1, 1, 1, 1}
	y := linalg.NewDense(6, 1, []float64{0.5, 1, 1.5, 2, 3, 3.5})
	g := kernels.Gaussian{Sigma: 1}
	reg, err := regress.RLS{Kernel: g, Lambda: 1e-3}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	rls, err := classify.RLS{Kernel: g, Lambda: 1e-3}.Fit(x, labels)
	if err != nil {
		t.Fatal(err)
	}
	knn, err := classify.KNN{Kernel: g, K: 1}.Fit(x, labels)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		model  any
		labels bool
		line   string
	}{{reg, false, ""}, {rls, true, "-1\n"}, {knn, true, "-1\n"}} {
		m := Of(c.model)
		*m.FeatureNames, *m.TargetName = []string{"a", "b"}, "y"
		raw, err := json.Marshal(c.model)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Load(raw)
		if err != nil {
			t.Fatalf("%T: %v", c.model, err)
		}
		if got.Width != 2 || got.Outputs != 1 || got.Labels != c.labels || len(*got.FeatureNames) != 2 || *got.TargetName != "y" {
			t.Errorf("%T: width %d, outputs %d, labels %v, names %v %q", c.model, got.Width, got.Outputs, got.Labels, *got.FeatureNames, *got.TargetName)
		}
		p, err := got.Predict(x.Slice(0, 1, 0, 2))
		if err != nil {
			t.Fatal(err)
		}
		want, _ := m.Predict(x.Slice(0, 1, 0, 2))
		if p.At(0, 0) != want.At(0, 0) {
			t.Errorf("%T: loaded predicts %v, fitted %v", c.model, p.At(0, 0), want.At(0, 0))
		}
		if c.line != "" && string(got.Lines(p)) != c.line {
			t.Errorf("%T: %q, want %q", c.model, got.Lines(p), c.line)
		}
	}
	two := &Model{Outputs: 2}
	if got := string(two.AppendLine(nil, []float64{0.1, 2})) + string(two.AppendLine(nil, nil)); got != "0.10000000000000001\t2\nNaN\tNaN\n" {
		t.Errorf("two outputs: %q", got)
	}
	var ie *linalg.InputError
	if _, err := Load([]byte(`{"format":"rkhs.other.Model","version":1}`)); !errors.Is(err, ErrInput) || !errors.As(err, &ie) {
		t.Errorf("an unknown format: %v, want an InputError wrapping ErrInput", err)
	}
	for _, m := range []*Model{nil, {}, {Saved: 3}} {
		if _, err := m.Predict(x); !errors.Is(err, ErrInput) {
			t.Errorf("%#v.Predict: %v, want ErrInput", m, err)
		}
	}
}

// TestMarshal: a model file is one line of JSON that Load reads back.
func TestMarshal(t *testing.T) {
	x := linalg.NewDense(3, 1, []float64{0, 1, 2})
	m, err := regress.RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3}.Fit(x, linalg.NewDense(3, 1, []float64{1, 2, 4}))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(b, []byte("\n")) != 1 || b[len(b)-1] != '\n' {
		t.Errorf("Marshal: %d lines, want one ending in a newline", bytes.Count(b, []byte("\n")))
	}
	got, err := Load(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Saved.(*regress.Model).Coef.At(2, 0) != m.Coef.At(2, 0) {
		t.Errorf("loaded coefficients differ")
	}
}

// FuzzLoad: any bytes give a Model that predicts, or an InputError of a
// model package; never a panic.
func FuzzLoad(f *testing.F) {
	x := linalg.NewDense(3, 1, []float64{0, 1, 2})
	m, err := classify.RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3}.Fit(x, []float64{-1, 1, 1})
	if err != nil {
		f.Fatal(err)
	}
	b, err := Marshal(m)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{"format":"rkhs.regress.Model","version":1,"standardization":{"mean":[1],"scale":[6],"training_scale":[3]},"kernel":{"type":"gaussian","sigma":1},"centers":{"rows":1,"cols":1,"data":[0]},"coef":{"rows":1,"cols":1,"data":[1]},"intercept":[0]}`))
	f.Add([]byte(`{"format":"rkhs.interval.CV","version":1,"models":[],"residuals":[]}`))
	f.Add([]byte(`{"format":"rkhs.other.Model","version":1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var ie *linalg.InputError
		got, err := Load(b)
		if err != nil {
			if !errors.As(err, &ie) {
				t.Fatalf("%v: not an InputError", err)
			}
			return
		}
		if got.Width == 1 {
			if _, err := got.Predict(x); err != nil && !errors.As(err, &ie) {
				t.Fatalf("Predict: %v", err)
			}
		}
	})
}
