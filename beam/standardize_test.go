package rkhsbeam

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"rkhs/classify"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/model"
	"rkhs/regress"
)

// scaledFiles writes the rows of the training files (label first) with
// their features on different scales and offsets — what standardization
// undoes — to two CSV files in a new directory, the labels mapped by
// label; it returns the files and the rows as written.
func scaledFiles(t *testing.T, label func(y float64) float64) ([]string, *linalg.Dense, *linalg.Dense) {
	t.Helper()
	x, y := readAll(t, "testdata/train-0.csv", "testdata/train-1.csv", "testdata/train-2.csv.gz")
	scale, offset := []float64{1, 300, 0.01}, []float64{0, 1000, -5}
	dir := t.TempDir()
	var files []string
	var b strings.Builder
	for i := 0; i < x.Rows; i++ {
		y.Data[i] = label(y.Data[i])
		fmt.Fprintf(&b, "%.17g", y.Data[i])
		for j, v := range x.Row(i) {
			v = v*scale[j] + offset[j]
			x.Set(i, j, v)
			fmt.Fprintf(&b, ",%.17g", v)
		}
		b.WriteByte('\n')
		if i == x.Rows/3 || i == x.Rows-1 {
			name := filepath.Join(dir, fmt.Sprintf("part-%d.csv", len(files)))
			if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, name)
			b.Reset()
		}
	}
	return files, x, y
}

// checkScale checks a model's standardization against that of all the
// rows, to rounding, and returns the rows it standardizes.
func checkScale(t *testing.T, s *kernels.Standardization, x *linalg.Dense) *linalg.Dense {
	t.Helper()
	if s == nil {
		t.Fatal("the model has no standardization")
	}
	want, err := kernels.StandardizationOf(x)
	if err != nil {
		t.Fatal(err)
	}
	for j := range want.Mean {
		if math.Abs(s.Mean[j]-want.Mean[j]) > 1e-12*(math.Abs(want.Mean[j])+want.Scale[j]) || math.Abs(s.Scale[j]-want.Scale[j]) > 1e-12*want.Scale[j] {
			t.Errorf("feature %d: mean %v, scale %v; want %v, %v", j, s.Mean[j], s.Scale[j], want.Mean[j], want.Scale[j])
		}
	}
	z, err := s.Apply(x)
	if err != nil {
		t.Fatal(err)
	}
	return z
}

// TestFitStandardized: a fit with Standardize keeps the moments of all
// the rows in its model, equals regress.Nystrom on the standardized rows
// with the same centres to 1e-10, and the model read back from its file
// (as predict reads it) predicts raw rows as that fit predicts the
// standardized ones. A constant feature fails the job, naming it.
func TestFitStandardized(t *testing.T) {
	files, x, y := scaledFiles(t, func(y float64) float64 { return y })
	out := filepath.Join(t.TempDir(), "model.json")
	err := run(t, func(s beam.Scope) error {
		_, err := Fit(s, FitOptions{Input: Input{Patterns: files, Format: "csv"}, Kernel: kernels.Spec{Type: "gaussian", Sigma: 1.5},
			Lambda: 1e-4, Intercept: regress.FreeIntercept, Centers: 20, Seed: 3, Standardize: true, Model: out})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	got := readModel(t, out)
	z := checkScale(t, got.Standardization, x)
	want, err := regress.Nystrom{Kernel: kernels.Gaussian{Sigma: 1.5}, Lambda: 1e-4, Given: got.Centers, Intercept: regress.FreeIntercept}.Fit(z, y)
	if err != nil {
		t.Fatal(err)
	}
	if e := relDiff(got.Coef, want.Coef); e > 1e-10 {
		t.Errorf("coefficients differ from Nystrom on the standardized rows by %.2g relative", e)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	saved, err := model.Load(b)
	if err != nil {
		t.Fatal(err)
	}
	p, err := saved.Predict(x)
	if err != nil {
		t.Fatal(err)
	}
	wp, err := want.Model.Predict(z)
	if err != nil {
		t.Fatal(err)
	}
	if e := relDiff(p, wp); e > 1e-10 {
		t.Errorf("the saved model's predictions of raw rows differ from the fit's on standardized rows by %.2g relative", e)
	}

	constant := filepath.Join(t.TempDir(), "constant.csv")
	if err := os.WriteFile(constant, []byte("1,2,7\n2,3,7\n3,5,7\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A constant feature is kept at its value, scaled by its magnitude
	// (kernels.Moments.Standardization), as rkhs keeps it.
	modelFile := filepath.Join(t.TempDir(), "m.json")
	err = run(t, func(s beam.Scope) error {
		_, err := Fit(s, FitOptions{Input: Input{Patterns: []string{constant}, Format: "csv"}, Kernel: kernels.Spec{Type: "gaussian", Sigma: 1},
			Lambda: 1e-4, Centers: 2, Standardize: true, Model: modelFile})
		return err
	})
	if err != nil {
		t.Fatalf("a constant feature: %v, want it kept", err)
	}
	b, err = os.ReadFile(modelFile)
	if err != nil {
		t.Fatal(err)
	}
	var kept regress.Model
	if err := kept.UnmarshalJSON(b); err != nil {
		t.Fatal(err)
	}
	if st := kept.Standardization; st == nil || st.Mean[1] != 7 || st.Scale[1] != 7 {
		t.Errorf("a constant feature: standardization %+v, want feature 2 at mean 7 and scale 7", st)
	}
}

// TestSelectAutoSigmaAndClasses: with σ around the median distance of the
// centres and standardization, on features of different scales, the
// median is loo.MedianDistance of the model's centres (standardized), in
// the kernel's own norm (the 1-norm for the Laplacian kernel), and
// every score equals loo.SelectNystrom's on the standardized rows with
// the grid of that median to 1e-10 — regression (leave-one-out MSE) and
// classification with two and three classes (leave-one-out error rate,
// ±1 and one-vs-all codings as rkhs classify makes them); the same pair
// is chosen and the model written is the fit there (a classifier with
// classes), with the standardization.
func TestSelectAutoSigmaAndClasses(t *testing.T) {
	ratios := []float64{0.25, 0.5, 1, 2, 4}
	lambdas := loo.Geometric(1e-7, 1e-1, 7)
	for _, tc := range []struct {
		name    string
		classes []float64
		label   func(float64) float64
		kernel  string // "" for gaussian
	}{
		{"regression", nil, func(y float64) float64 { return y }, ""},
		{"laplacian", nil, func(y float64) float64 { return y }, "laplacian"},
		{"2 classes", []float64{-3, 5}, func(y float64) float64 {
			if y > 0.2 {
				return 5
			}
			return -3
		}, ""},
		{"3 classes", []float64{0, 1, 2}, func(y float64) float64 { return float64(min(2, max(0, int(math.Floor(y+1))))) }, ""},
	} {
		files, x, y := scaledFiles(t, tc.label)
		crit := loo.LOOMSE
		if tc.classes != nil {
			crit = loo.LOOErrorRate
		}
		out := filepath.Join(t.TempDir(), "model.json")
		kernel, norm := func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }, loo.L2
		if tc.kernel == "laplacian" {
			kernel, norm = func(s float64) kernels.Kernel { return kernels.Laplacian{Sigma: s} }, loo.L1
		}
		sel, err := Select(context.Background(), SelectOptions{
			Input: Input{Patterns: files, Format: "csv"}, Kernel: kernels.Spec{Type: cmp.Or(tc.kernel, "gaussian")},
			MedianRatios: ratios, Lambdas: lambdas, Intercept: regress.FreeIntercept, Standardize: true,
			Classes: tc.classes != nil, Criterion: crit, Centers: 15, Seed: 7, Model: out, Scratch: t.TempDir(),
		}, prismRun)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var model *regress.Model
		yy := y
		if tc.classes == nil {
			model = readModel(t, out)
		} else {
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			var c classify.RLSModel
			if err := c.UnmarshalJSON(b); err != nil {
				t.Fatalf("%s: the model file: %v", tc.name, err)
			}
			if fmt.Sprint(c.Classes) != fmt.Sprint(tc.classes) || c.OneVsAll != (len(tc.classes) > 2) || c.Lambda != sel.Lambda {
				t.Errorf("%s: classes %v, one-vs-all %v, λ %v; want %v, %v, %v", tc.name, c.Classes, c.OneVsAll, c.Lambda, tc.classes, len(tc.classes) > 2, sel.Lambda)
			}
			model = c.Model
			// The coding of the passes: ±1, or +1 for the row's class and −1
			// for the others.
			if _, yy, err = (&prep{Classes: tc.classes}).rows(x, y.Data); err != nil {
				t.Fatal(err)
			}
			for i, v := range y.Data {
				k := slices.Index(tc.classes, v)
				want := []float64{float64(2*k - 1)}
				if len(tc.classes) > 2 {
					want = slices.Repeat([]float64{-1}, len(tc.classes))
					want[k] = 1
				}
				if !slices.Equal(yy.Row(i), want) {
					t.Fatalf("%s: row %d of class %v coded %v, want %v", tc.name, i, v, yy.Row(i), want)
				}
			}
		}
		z := checkScale(t, model.Standardization, x)
		median, err := loo.MedianDistance(z, norm, 0, 7)
		if err != nil {
			t.Fatal(err)
		}
		if sel.Median != median {
			t.Errorf("%s: median %v, MedianDistance of the rows in the %v norm %v", tc.name, sel.Median, norm, median)
		}
		sigmas := make([]float64, len(ratios))
		for a, r := range ratios {
			sigmas[a] = r * median
		}
		want, err := loo.SelectNystrom{
			Kernel:  kernel,
			Centers: model.Centers, Sigmas: sigmas, Lambdas: lambdas, Intercept: regress.FreeIntercept, Criterion: crit,
		}.Fit(z, yy)
		if err != nil {
			t.Fatal(err)
		}
		if sel.Sigma != want.Sigma || sel.Lambda != want.Lambda {
			t.Errorf("%s: chose σ = %g, λ = %g; SelectNystrom σ = %g, λ = %g", tc.name, sel.Sigma, sel.Lambda, want.Sigma, want.Lambda)
		}
		for name, tb := range map[string][2][][]float64{"LOO": {sel.LOO, want.LOO}, "GCV": {sel.GCV, want.GCV}, "scores": {sel.Scores.Scores, want.Scores.Scores}} {
			for a := range sigmas {
				for j := range lambdas {
					got, w := tb[0][a][j], tb[1][a][j]
					if !(math.Abs(got-w) <= 1e-10*math.Abs(w)) {
						t.Errorf("%s: %s at σ = %g, λ = %g: %.15g, SelectNystrom %.15g", tc.name, name, sigmas[a], lambdas[j], got, w)
					}
				}
			}
		}
		if e := relDiff(model.Coef, want.Fit.Model.Coef); e > 1e-9 {
			t.Errorf("%s: the model's coefficients differ from the fit at the chosen pair by %.2g relative", tc.name, e)
		}
	}
}
