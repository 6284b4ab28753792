package classify

import (
	"errors"
	"math"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

var intercepts = []regress.Intercept{regress.NoIntercept, regress.FreeIntercept, regress.PenalizedIntercept}

// regressColumn fits regress.RLS to one column of targets and predicts.
func regressColumn(t *testing.T, r regress.RLS, x *linalg.Dense, y []float64, xt *linalg.Dense) []float64 {
	t.Helper()
	fit, err := r.Fit(x, linalg.NewDense(len(y), 1, append([]float64(nil), y...)))
	if err != nil {
		t.Fatal(err)
	}
	p, err := fit.Predict(xt)
	if err != nil {
		t.Fatal(err)
	}
	return p.Data
}

func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// TestRLSBinaryEqualsRegress: on ±1 labels the binary classifier is
// regress.RLS followed by the sign, bit for bit; recoding the labels
// (0/1, or 3 and −2 in any order) changes nothing but the returned labels.
func TestRLSBinaryEqualsRegress(t *testing.T) {
	x, y := blobs(10, 90, 3, 1, -1, 1)
	xt, _ := blobs(11, 40, 3, 1, -1, 1)
	k := kernels.Gaussian{Sigma: 1.5}
	for _, ic := range intercepts {
		want := regressColumn(t, regress.RLS{Kernel: k, Lambda: 1e-2, Intercept: ic}, x, y, xt)
		for _, coding := range []struct{ lo, hi float64 }{{-1, 1}, {0, 1}, {-2, 3}} {
			labels := make([]float64, len(y))
			for i, v := range y {
				labels[i] = coding.lo
				if v > 0 {
					labels[i] = coding.hi
				}
			}
			s := snap(x, labels)
			m, err := RLS{Kernel: k, Lambda: 1e-2, Intercept: ic}.Fit(x, labels)
			if err != nil {
				t.Fatal(err)
			}
			s.unchanged(t, x, labels)
			sc, err := m.Scores(xt)
			if err != nil {
				t.Fatal(err)
			}
			if m.OneVsAll || sc.Cols != 1 || !sameBits(sc.Data, want) {
				t.Fatalf("%v, labels %v: scores %v (one-vs-all %v), regress.RLS %v", ic, coding, sc.Data, m.OneVsAll, want)
			}
			pred := mustPredict(t, m, xt)
			for i, f := range want {
				w := coding.lo
				if f > 0 {
					w = coding.hi
				}
				if pred[i] != w {
					t.Fatalf("%v, labels %v: row %d predicted %v for f = %v, want %v", ic, coding, i, pred[i], f, w)
				}
			}
		}
	}
}

// TestRLSOneVsAllTwoClasses: forced one-vs-all on two classes gives the
// columns −f and f of the binary model, and the same predictions.
func TestRLSOneVsAllTwoClasses(t *testing.T) {
	x, y := blobs(12, 80, 2, 0.7, 4, 9)
	xt, _ := blobs(13, 60, 2, 0.7, 4, 9)
	for _, ic := range intercepts {
		r := RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3, Intercept: ic}
		bin, err := r.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		r.OneVsAll = true
		ova, err := r.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		fb, _ := bin.Scores(xt)
		fo, _ := ova.Scores(xt)
		if !ova.OneVsAll || fo.Cols != 2 {
			t.Fatalf("%v: one-vs-all model with %d columns", ic, fo.Cols)
		}
		for i := 0; i < xt.Rows; i++ {
			f := fb.At(i, 0)
			if fo.At(i, 0) != -fo.At(i, 1) || math.Abs(fo.At(i, 1)-f) > 1e-12*max(1, math.Abs(f)) {
				t.Fatalf("%v: row %d one-vs-all scores %v, %v; binary f = %v", ic, i, fo.At(i, 0), fo.At(i, 1), f)
			}
		}
		pb, po := mustPredict(t, bin, xt), mustPredict(t, ova, xt)
		if !sameBits(pb, po) {
			t.Errorf("%v: binary predicts %v, one-vs-all %v", ic, pb, po)
		}
	}
}

// TestRLSMulticlass: each one-vs-all column is regress.RLS on the ±1
// coding of its class, and the prediction is the class of the largest.
func TestRLSMulticlass(t *testing.T) {
	classes := []float64{2, 7, 9}
	x, y := gridData(14, 70, 3, []float64{9, 2, 7})
	for i := range y { // make the classes learnable: shift each cluster
		x.Set(i, 0, x.At(i, 0)+2*y[i])
	}
	xt, _ := gridData(15, 30, 3, classes)
	k := kernels.Gaussian{Sigma: 2}
	m, err := RLS{Kernel: k, Lambda: 1e-3, Intercept: regress.FreeIntercept}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := m.Scores(xt)
	if err != nil {
		t.Fatal(err)
	}
	if !sameBits(m.Classes, classes) || sc.Cols != 3 {
		t.Fatalf("classes %v, %d score columns; want %v and 3", m.Classes, sc.Cols, classes)
	}
	for c, cl := range classes {
		coded := make([]float64, len(y))
		for i, v := range y {
			coded[i] = -1
			if v == cl {
				coded[i] = 1
			}
		}
		want := regressColumn(t, regress.RLS{Kernel: k, Lambda: 1e-3, Intercept: regress.FreeIntercept}, x, coded, xt)
		for i, w := range want {
			if got := sc.At(i, c); math.Abs(got-w) > 1e-12*max(1, math.Abs(w)) {
				t.Fatalf("class %v row %d: score %v, regress.RLS %v", cl, i, got, w)
			}
		}
	}
	pred := mustPredict(t, m, xt)
	for i := range pred {
		row := sc.Row(i)
		best := 0
		for c := range row {
			if row[c] > row[best] {
				best = c
			}
		}
		if pred[i] != classes[best] {
			t.Fatalf("row %d: predicted %v, scores %v", i, pred[i], row)
		}
	}
	if acc := accuracy(mustPredict(t, m, x), y); acc < 0.9 {
		t.Errorf("training accuracy %.2f on separated clusters", acc)
	}
}

// TestRLSLambdas: with ChooseLambda, λ is the grid value whose
// leave-one-out predictions misclassify the fewest points — checked against
// n refits per λ (each keeping the penalty nλ) — and the model equals the
// Cholesky fit with that λ.
func TestRLSLambdas(t *testing.T) {
	x, y := blobs(16, 20, 2, 1, 0, 1)
	k := kernels.Gaussian{Sigma: 1}
	grid := []float64{1e-6, 1e-3, 1e-1, 10}
	for _, ic := range []regress.Intercept{regress.NoIntercept, regress.FreeIntercept} {
		m, err := RLS{Kernel: k, ChooseLambda: true, Lambdas: grid, Intercept: ic}.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		n := x.Rows
		for j, l := range grid {
			wrong := 0
			for i := 0; i < n; i++ {
				keep := make([]int, 0, n-1)
				for r := 0; r < n; r++ {
					if r != i {
						keep = append(keep, r)
					}
				}
				xr := linalg.NewDense(n-1, x.Cols, nil)
				yr := make([]float64, n-1)
				for a, r := range keep {
					copy(xr.Row(a), x.Row(r))
					yr[a] = y[r]
				}
				mi, err := RLS{Kernel: k, Lambda: l * float64(n) / float64(n-1), Intercept: ic}.Fit(xr, yr)
				if err != nil {
					t.Fatal(err)
				}
				p, _ := mi.Predict(x.Slice(i, i+1, 0, x.Cols))
				if p[0] != y[i] {
					wrong++
				}
			}
			if got := m.LOOErrors[j]; got != float64(wrong)/float64(n) {
				t.Errorf("%v λ=%g: LOO error %v, refits %v", ic, l, got, float64(wrong)/float64(n))
			}
		}
		direct, err := RLS{Kernel: k, Lambda: m.Lambda, Intercept: ic}.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := m.Scores(x)
		b, _ := direct.Scores(x)
		for i := range a.Data {
			if math.Abs(a.Data[i]-b.Data[i]) > 1e-8*(1+math.Abs(b.Data[i])) {
				t.Fatalf("%v: LOO-chosen model and Cholesky fit differ at %d: %v, %v", ic, i, a.Data[i], b.Data[i])
			}
		}
	}
	// ChooseLambda and no grid: a grid from the spectrum.
	m, err := RLS{Kernel: k, ChooseLambda: true}.Fit(x, y)
	if err != nil || len(m.LOOLambdas) != 25 || m.Lambda <= 0 {
		t.Errorf("default grid: %v, %d values, λ = %v", err, len(m.LOOLambdas), m.Lambda)
	}
	for _, tc := range []struct {
		r   RLS
		arg string
	}{
		{RLS{Kernel: k, Lambda: -1}, "Lambda"},
		{RLS{Kernel: k, Lambda: math.NaN()}, "Lambda"},
		{RLS{Kernel: k}, "Lambda"},
		{RLS{Kernel: k, Lambda: 1e-3, Lambdas: []float64{1e-2}}, "Lambdas"},
		{RLS{Kernel: k, Lambda: 1e-3, ChooseLambda: true}, "Lambda"},
		{RLS{Kernel: k, ChooseLambda: true, Lambdas: []float64{1e-2, 0}}, "Lambdas[1]"},
		{RLS{Kernel: k, ChooseLambda: true, Lambdas: []float64{1e-2, math.Inf(1)}}, "Lambdas[1]"},
		{RLS{Kernel: k, Lambda: 1, Intercept: 7}, "Intercept"},
	} {
		_, err := tc.r.Fit(x, y)
		var ie *linalg.InputError
		if !errors.As(err, &ie) || ie.Arg != tc.arg || !errors.Is(err, ErrInput) {
			t.Errorf("%+v: err = %v, want an InputError on %s", tc.r, err, tc.arg)
		}
	}
}

// TestRLSNotPositiveDefinite: the linear kernel on 2-D data has rank 2, so
// with a negligible λ the Cholesky factorization fails, and says so.
func TestRLSNotPositiveDefinite(t *testing.T) {
	x, y := blobs(17, 30, 2, 1, 0, 1)
	_, err := RLS{Kernel: kernels.Linear{}, Lambda: 1e-300}.Fit(x, y)
	if !errors.Is(err, linalg.ErrNotPositiveDefinite) {
		t.Errorf("err = %v, want linalg.ErrNotPositiveDefinite", err)
	}
}
