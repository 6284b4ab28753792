package interval

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// savedCV returns the CV+ of RLS on a small problem with q outputs, its
// test rows and a JSON file of it.
func savedCV(t testing.TB, q int) (*CV, *linalg.Dense, []byte) {
	x, y, xt := problem(3, 30, 7, q)
	folds, err := Folds(x.Rows, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	cv, err := RLSCV(regress.RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-2, Intercept: regress.FreeIntercept}, x, y, folds)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(cv)
	if err != nil {
		t.Fatal(err)
	}
	return cv, xt, b
}

// TestCVRoundTrip: a CV read back from its file predicts the same
// intervals, bit for bit, with its full model and without (NewCV's).
func TestCVRoundTrip(t *testing.T) {
	for _, q := range []int{1, 2} {
		cv, xt, b := savedCV(t, q)
		alone := &CV{models: cv.models, sorted: cv.sorted, n: cv.n} // as NewCV makes it
		ab, err := json.Marshal(alone)
		if err != nil {
			t.Fatal(err)
		}
		for name, c := range map[string]struct {
			cv *CV
			b  []byte
		}{"full": {cv, b}, "fold mean": {alone, ab}} {
			var back CV
			if err := json.Unmarshal(c.b, &back); err != nil {
				t.Fatalf("q=%d %s: %v", q, name, err)
			}
			want, err := c.cv.Predict(xt, 0.8)
			if err != nil {
				t.Fatal(err)
			}
			got, err := back.Predict(xt, 0.8)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range [][2]*linalg.Dense{{got.Prediction, want.Prediction}, {got.Lower, want.Lower}, {got.Upper, want.Upper}} {
				for i := range p[0].Data {
					if p[0].Data[i] != p[1].Data[i] {
						t.Fatalf("q=%d %s: entry %d read back %v, was %v", q, name, i, p[0].Data[i], p[1].Data[i])
					}
				}
			}
			if back.Rows() != cv.Rows() || (back.Model() == nil) != (c.cv.Model() == nil) {
				t.Errorf("q=%d %s: %d rows, model %v; want %d, %v", q, name, back.Rows(), back.Model() != nil, cv.Rows(), c.cv.Model() != nil)
			}
		}
	}
}

// TestCVWithModel: the fold models of WithModel take raw rows by the
// model's standardization, so the intervals of raw rows equal those of
// the standardized rows from the CV as fitted, and the prediction is the
// given model's.
func TestCVWithModel(t *testing.T) {
	cv, xt, _ := savedCV(t, 1)
	s := &kernels.Standardization{Mean: []float64{0.5, -1}, Scale: []float64{2, 3}}
	raw := linalg.NewDense(xt.Rows, xt.Cols, nil)
	for i := 0; i < xt.Rows; i++ {
		for j := 0; j < xt.Cols; j++ {
			raw.Set(i, j, xt.At(i, j)*s.Scale[j]+s.Mean[j])
		}
	}
	full := *cv.Model()
	full.Standardization = s
	full.Intercept = []float64{full.Intercept[0] + 1} // another model: its predictions are 1 higher
	w, err := cv.WithModel(&full)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := cv.Predict(xt, 0.9)
	got, err := w.Predict(raw, 0.9)
	if err != nil {
		t.Fatal(err)
	}
	for i := range got.Lower.Data {
		if d := got.Lower.Data[i] - want.Lower.Data[i]; d > 1e-12 || d < -1e-12 {
			t.Fatalf("lower %d: %v, want %v", i, got.Lower.Data[i], want.Lower.Data[i])
		}
		if d := got.Prediction.Data[i] - want.Prediction.Data[i] - 1; d > 1e-12 || d < -1e-12 {
			t.Fatalf("prediction %d: %v, want %v + 1", i, got.Prediction.Data[i], want.Prediction.Data[i])
		}
	}
	if cv.models[0].Standardization != nil {
		t.Error("WithModel modified the CV's fold models")
	}
	wide := full
	wide.Centers = linalg.NewDense(full.Centers.Rows, 3, nil)
	wide.Standardization = nil
	for _, m := range []*regress.Model{nil, &wide} {
		if _, err := cv.WithModel(m); !errors.Is(err, ErrInput) {
			t.Errorf("WithModel(%v): %v, want ErrInput", m != nil, err)
		}
	}
	if _, err := (*CV)(nil).WithModel(&full); !errors.Is(err, ErrInput) {
		t.Errorf("nil CV: %v, want ErrInput", err)
	}
}

// TestCVFileErrors: a file that is not a CV+ is refused with a reason
// naming the field.
func TestCVFileErrors(t *testing.T) {
	_, _, b := savedCV(t, 1)
	var cj map[string]json.RawMessage
	if err := json.Unmarshal(b, &cj); err != nil {
		t.Fatal(err)
	}
	edit := func(key, value string) string {
		c := map[string]json.RawMessage{}
		for k, v := range cj {
			c[k] = v
		}
		if value == "" {
			delete(c, key)
		} else {
			c[key] = json.RawMessage(value)
		}
		out, _ := json.Marshal(c)
		return string(out)
	}
	var models []json.RawMessage
	json.Unmarshal(cj["models"], &models)
	var res [][][]float64
	json.Unmarshal(cj["residuals"], &res)
	first := func(v []float64) string {
		out, _ := json.Marshal([][][]float64{{v, res[0][1], res[0][2], res[0][3]}})
		return string(out)
	}
	for _, c := range []struct{ name, file, want string }{
		{"another format", strings.Replace(string(b), cvFormat, "rkhs.regress.Model", 1), "format"},
		{"one model", edit("models", "["+string(models[0])+"]"), "at least 2"},
		{"bad model", edit("models", `[{"format":"rkhs.regress.Model","version":1},`+string(models[1])+`]`), "models[0]"},
		{"no residuals", edit("residuals", ""), "residuals"},
		{"two outputs", edit("residuals", "[[[1]],[[1]]]"), "2 outputs"},
		{"folds", edit("residuals", "[[[1],[2]]]"), "2 folds for 4"},
		{"unsorted", edit("residuals", first([]float64{2, 1})), "ascending"},
		{"negative", edit("residuals", first([]float64{-1})), "ascending"},
		{"empty fold", edit("residuals", first([]float64{})), "need"},
		{"unknown key", edit("extra", "1"), "extra"},
		{"bad full model", edit("model", `{"format":"rkhs.regress.Model"}`), "model"},
	} {
		var back CV
		err := back.UnmarshalJSON([]byte(c.file))
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want ErrInput naming %q", c.name, err, c.want)
		}
		if back.models != nil {
			t.Errorf("%s: the CV was modified on error", c.name)
		}
	}
}

// FuzzCVUnmarshal: any bytes give a CV that predicts or an ErrInput,
// never a panic.
func FuzzCVUnmarshal(f *testing.F) {
	_, xt, b := savedCV(f, 1)
	f.Add(b)
	f.Add([]byte(`{"format":"rkhs.interval.CV","version":1,"models":[],"residuals":[]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var c CV
		if err := c.UnmarshalJSON(b); err != nil {
			if !errors.Is(err, ErrInput) {
				t.Fatalf("%v: not ErrInput", err)
			}
			return
		}
		if _, err := c.Predict(xt, 0.9); err != nil && !errors.Is(err, ErrInput) {
			t.Fatalf("Predict: %v", err)
		}
	})
}
