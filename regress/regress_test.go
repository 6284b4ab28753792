package regress

import (
	"bufio"
	"errors"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"rkhs/datasets"
	"rkhs/internal/center"
	"rkhs/internal/testmat"
	"rkhs/kernels"
	"rkhs/linalg"
)

var intercepts = []Intercept{NoIntercept, FreeIntercept, PenalizedIntercept}

func randDense(seed uint64, r, c int) *linalg.Dense {
	m := linalg.Dense(testmat.Random(testmat.NewRand(seed), r, c, 0))
	return &m
}

// relDiff returns max|a−b| / max|b| over two matrices of the same shape.
func relDiff(a, b *linalg.Dense) float64 {
	var num, den float64
	for i := 0; i < a.Rows; i++ {
		for j := 0; j < a.Cols; j++ {
			num = math.Max(num, math.Abs(a.At(i, j)-b.At(i, j)))
			den = math.Max(den, math.Abs(b.At(i, j)))
		}
	}
	return num / den
}

type predictor interface {
	Predict(*linalg.Dense) (*linalg.Dense, error)
}

func predict(t *testing.T, m predictor, x *linalg.Dense) *linalg.Dense {
	t.Helper()
	p, err := m.Predict(x)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLinearDualPrimal: with the linear kernel, the dual (n×n Cholesky) and
// the primal (d×d normal equations) give the same function, in every
// intercept mode.
func TestLinearDualPrimal(t *testing.T) {
	x, y, xt := randDense(1, 80, 6), randDense(2, 80, 2), randDense(3, 25, 6)
	for _, ic := range intercepts {
		dual, err := RLS{Kernel: kernels.Linear{}, Lambda: 1e-3, Intercept: ic}.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		primal, err := LinearRLS{Lambda: 1e-3, Intercept: ic}.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		if r := relDiff(predict(t, dual, xt), predict(t, primal, xt)); r > 1e-10 {
			t.Errorf("%v: dual and primal predictions differ by %.3g relative", ic, r)
		}
		for k := range dual.Intercept {
			if math.Abs(dual.Intercept[k]-primal.Intercept[k]) > 1e-10*(1+math.Abs(dual.Intercept[k])) {
				t.Errorf("%v: b = %v (dual), %v (primal)", ic, dual.Intercept[k], primal.Intercept[k])
			}
		}
	}
}

// TestFreeIntercept: 1ᵀc = 0 for every output, and for the linear kernel
// the fit is ridge regression on centred data, solved here by Gaussian
// elimination on the normal equations written out by hand.
func TestFreeIntercept(t *testing.T) {
	x, y := randDense(4, 50, 3), randDense(5, 50, 2)
	for i := 0; i < 50; i++ { // an offset that only an intercept can fit
		y.Set(i, 0, y.At(i, 0)+10)
	}
	const lambda = 1e-2
	m, err := RLS{Kernel: kernels.Gaussian{Sigma: 1.5}, Lambda: lambda, Intercept: FreeIntercept}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	for k := 0; k < 2; k++ {
		var s, sa float64
		for i := 0; i < 50; i++ {
			s += m.Coef.At(i, k)
			sa += math.Abs(m.Coef.At(i, k))
		}
		if math.Abs(s) > 1e-12*sa {
			t.Errorf("output %d: 1ᵀc = %v, want 0", k, s)
		}
	}

	lin, err := RLS{Kernel: kernels.Linear{}, Lambda: lambda, Intercept: FreeIntercept}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	n, d := 50, 3
	xm, ym := center.Means(x), center.Means(y)
	for k := 0; k < 2; k++ {
		// (XcᵀXc + nλI)w = Xcᵀyc.
		a := make([][]float64, d)
		for p := range a {
			a[p] = make([]float64, d+1)
			for q := 0; q < d; q++ {
				for i := 0; i < n; i++ {
					a[p][q] += (x.At(i, p) - xm[p]) * (x.At(i, q) - xm[q])
				}
			}
			a[p][p] += float64(n) * lambda
			for i := 0; i < n; i++ {
				a[p][d] += (x.At(i, p) - xm[p]) * (y.At(i, k) - ym[k])
			}
		}
		w := gaussSolve(a)
		b := ym[k]
		for p := range w {
			b -= xm[p] * w[p]
		}
		if math.Abs(lin.Intercept[k]-b) > 1e-10*math.Abs(b) {
			t.Errorf("output %d: b = %v, centred ridge gives %v", k, lin.Intercept[k], b)
		}
		for p := range w { // W = Xᵀc
			var wp float64
			for i := 0; i < n; i++ {
				wp += x.At(i, p) * lin.Coef.At(i, k)
			}
			if math.Abs(wp-w[p]) > 1e-10*(1+math.Abs(w[p])) {
				t.Errorf("output %d: w[%d] = %v, centred ridge gives %v", k, p, wp, w[p])
			}
		}
	}
}

// gaussSolve solves the augmented system a (d×(d+1)) by Gaussian elimination
// with partial pivoting.
func gaussSolve(a [][]float64) []float64 {
	d := len(a)
	for c := 0; c < d; c++ {
		p := c
		for r := c + 1; r < d; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		for r := c + 1; r < d; r++ {
			f := a[r][c] / a[c][c]
			for j := c; j <= d; j++ {
				a[r][j] -= f * a[c][j]
			}
		}
	}
	x := make([]float64, d)
	for r := d - 1; r >= 0; r-- {
		s := a[r][d]
		for j := r + 1; j < d; j++ {
			s -= a[r][j] * x[j]
		}
		x[r] = s / a[r][r]
	}
	return x
}

// plusOne is the kernel k + 1 as a user kernel (generic path).
type plusOne struct{ k kernels.Kernel }

func (p plusOne) Eval(x, z []float64) float64 { return p.k.Eval(x, z) + 1 }

// TestPenalizedIsKernelPlusOne: the penalized intercept is RLS without an
// intercept on the kernel k + 1.
func TestPenalizedIsKernelPlusOne(t *testing.T) {
	x, y, xt := randDense(6, 60, 4), randDense(7, 60, 1), randDense(8, 20, 4)
	k := kernels.Gaussian{Sigma: 0.9}
	pen, err := RLS{Kernel: k, Lambda: 1e-3, Intercept: PenalizedIntercept}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := RLS{Kernel: plusOne{k}, Lambda: 1e-3}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if r := relDiff(predict(t, pen, xt), predict(t, plain, xt)); r > 1e-10 {
		t.Errorf("penalized intercept and kernel k+1 differ by %.3g relative", r)
	}
}

// TestNystromAllCenters: Nyström with every training point as a centre is
// exact RLS (K(K + nλI)c = Ky), in every intercept mode.
func TestNystromAllCenters(t *testing.T) {
	x, y, xt := randDense(9, 70, 3), randDense(10, 70, 2), randDense(11, 15, 3)
	k := kernels.Gaussian{Sigma: 0.7}
	for _, ic := range intercepts {
		exact, err := RLS{Kernel: k, Lambda: 1e-3, Intercept: ic}.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		for _, given := range []bool{true, false} {
			s := Nystrom{Kernel: k, Lambda: 1e-3, Intercept: ic, Centers: 70, Seed: 3}
			if given {
				s.Given = x
			}
			ny, err := s.Fit(x, y)
			if err != nil {
				t.Fatal(err)
			}
			if ny.Jitter != 0 {
				t.Errorf("%v: jitter %v on a positive definite K_mm", ic, ny.Jitter)
			}
			if r := relDiff(predict(t, ny, xt), predict(t, exact, xt)); r > 1e-8 {
				t.Errorf("%v given=%v: Nyström with m = n differs from RLS by %.3g relative", ic, given, r)
			}
		}
	}
}

// TestNystromJitter: repeated centres make K_mm singular; the fit adds a
// jitter, reports it, and still fits the data reasonably.
func TestNystromJitter(t *testing.T) {
	x, y := randDense(12, 40, 2), randDense(13, 40, 1)
	r := linalg.NewDense(6, 2, nil)
	for j := 0; j < 6; j++ {
		copy(r.Row(j), x.Row(j/2)) // each centre twice
	}
	fit, err := Nystrom{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-4, Given: r}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if !(fit.Jitter > 0) {
		t.Errorf("singular K_mm factored without jitter")
	}
	p := predict(t, fit, x)
	for i := 0; i < 40; i++ {
		if math.IsNaN(p.At(i, 0)) || math.Abs(p.At(i, 0)) > 10 {
			t.Fatalf("prediction %d is %v", i, p.At(i, 0))
		}
	}
}

// TestMultiOutput: one fit with q outputs equals q separate fits.
func TestMultiOutput(t *testing.T) {
	x, y, xt := randDense(14, 55, 3), randDense(15, 55, 3), randDense(16, 10, 3)
	for _, ic := range intercepts {
		all, err := RLS{Kernel: kernels.Laplacian{Sigma: 2}, Lambda: 1e-3, Intercept: ic}.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		pa := predict(t, all, xt)
		for k := 0; k < 3; k++ {
			one, err := RLS{Kernel: kernels.Laplacian{Sigma: 2}, Lambda: 1e-3, Intercept: ic}.Fit(x, y.Slice(0, 55, k, k+1))
			if err != nil {
				t.Fatal(err)
			}
			if r := relDiff(pa.Slice(0, 10, k, k+1), predict(t, one, xt)); r > 1e-12 {
				t.Errorf("%v output %d: joint and separate fits differ by %.3g", ic, k, r)
			}
		}
	}
}

// TestHousingReference: predictions on the housing data match
// testdata/housing_ref.txt, computed with NumPy's LU solves (the free
// intercept from the bordered indefinite system) by housing_ref.py.
func TestHousingReference(t *testing.T) {
	d := datasets.MustLoad("housing")
	var tr, te []int
	for i := 0; i < d.X.Rows; i++ {
		if i%3 == 2 {
			te = append(te, i)
		} else {
			tr = append(tr, i)
		}
	}
	train, test := d.Subset(tr), d.Subset(te)
	ref := readRef(t, "testdata/housing_ref.txt", len(te))
	ytr := linalg.NewDense(len(tr), 1, train.Y)
	for col, ic := range intercepts {
		m, err := RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-4, Intercept: ic}.Fit(&train.X, ytr)
		if err != nil {
			t.Fatal(err)
		}
		p := predict(t, m, &test.X)
		var worst float64
		for i := range te {
			worst = math.Max(worst, math.Abs(p.At(i, 0)-ref[i][col])/math.Abs(ref[i][col]))
		}
		if worst > 1e-9 {
			t.Errorf("%v: predictions differ from NumPy's by %.3g relative, want ≤ 1e-9", ic, worst)
		}
	}
}

func readRef(t *testing.T, path string, rows int) [][3]float64 {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][3]float64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		var r [3]float64
		for k, s := range strings.Fields(sc.Text()) {
			if r[k], err = strconv.ParseFloat(s, 64); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, r)
	}
	if len(out) != rows {
		t.Fatalf("%s: %d rows, want %d", path, len(out), rows)
	}
	return out
}

// TestBadInput: every invalid argument is a *linalg.InputError of the call
// that names the argument and wraps ErrInput (and the cause), never a panic;
// the inputs are left unchanged.
func TestBadInput(t *testing.T) {
	x, y := randDense(17, 10, 2), randDense(18, 10, 1)
	nanX := x.Clone()
	nanX.Set(3, 1, math.NaN())
	infY := y.Clone()
	infY.Set(2, 0, math.Inf(1))
	short := randDense(19, 9, 1)
	malformed := &linalg.Dense{Rows: 10, Cols: 2, Stride: 2, Data: make([]float64, 19)}
	g := kernels.Gaussian{Sigma: 1}
	x0, y0 := x.Clone(), y.Clone()
	fitErr := func(m predictor, err error) error { return err }
	nyErr := func(m *NystromFit, err error) error { return err }
	itErr := func(m *IterFit, err error) error { return err }
	for _, tc := range []struct {
		name    string
		err     error
		want    error
		op, arg string
	}{
		{"lambda 0", fitErr(RLS{Kernel: g}.Fit(x, y)), ErrInput, "RLS.Fit", "Lambda"},
		{"lambda negative", fitErr(RLS{Kernel: g, Lambda: -1}.Fit(x, y)), ErrInput, "RLS.Fit", "Lambda"},
		{"lambda NaN", fitErr(LinearRLS{Lambda: math.NaN()}.Fit(x, y)), linalg.ErrNotFinite, "LinearRLS.Fit", "Lambda"},
		{"NaN in X", fitErr(RLS{Kernel: g, Lambda: 1}.Fit(nanX, y)), linalg.ErrNotFinite, "RLS.Fit", "X: row 4, column 2"},
		{"Inf in Y", fitErr(RLS{Kernel: g, Lambda: 1}.Fit(x, infY)), linalg.ErrNotFinite, "RLS.Fit", "Y: row 3, column 1"},
		{"rows differ", fitErr(RLS{Kernel: g, Lambda: 1}.Fit(x, short)), ErrInput, "RLS.Fit", "Y"},
		{"nil X", fitErr(RLS{Kernel: g, Lambda: 1}.Fit(nil, y)), ErrInput, "RLS.Fit", "X"},
		{"nil Y", fitErr(LinearRLS{Lambda: 1}.Fit(x, nil)), ErrInput, "LinearRLS.Fit", "Y"},
		{"malformed X", fitErr(RLS{Kernel: g, Lambda: 1}.Fit(malformed, y)), ErrInput, "RLS.Fit", "X"},
		{"empty X", fitErr(RLS{Kernel: g, Lambda: 1}.Fit(linalg.NewDense(0, 2, nil), linalg.NewDense(0, 1, nil))), ErrInput, "RLS.Fit", "X"},
		{"no outputs", fitErr(LinearRLS{Lambda: 1}.Fit(x, linalg.NewDense(10, 0, nil))), ErrInput, "LinearRLS.Fit", "Y"},
		{"bad intercept", fitErr(RLS{Kernel: g, Lambda: 1, Intercept: 7}.Fit(x, y)), ErrInput, "RLS.Fit", "Intercept"},
		{"sigma 0", fitErr(RLS{Kernel: kernels.Gaussian{}, Lambda: 1}.Fit(x, y)), kernels.ErrParameter, "RLS.Fit", "Kernel.Sigma"},
		{"nil kernel", fitErr(RLS{Lambda: 1}.Fit(x, y)), ErrInput, "RLS.Fit", "Kernel"},
		{"m > n", nyErr(Nystrom{Kernel: g, Lambda: 1, Centers: 11}.Fit(x, y)), ErrInput, "Nystrom.Fit", "Centers"},
		{"m = 0", nyErr(Nystrom{Kernel: g, Lambda: 1}.Fit(x, y)), ErrInput, "Nystrom.Fit", "Centers"},
		{"given columns", nyErr(Nystrom{Kernel: g, Lambda: 1, Given: randDense(1, 3, 5)}.Fit(x, y)), ErrInput, "Nystrom.Fit", "Given"},
		{"given NaN", nyErr(Nystrom{Kernel: g, Lambda: 1, Given: nanX}.Fit(x, y)), linalg.ErrNotFinite, "Nystrom.Fit", "Given: row 4, column 2"},
		{"CGLS MaxIter 0", itErr(CGLS{Kernel: g}.Fit(x, y)), ErrInput, "CGLS.Fit", "MaxIter"},
		{"CG Tol NaN", itErr(CG{Kernel: g, Lambda: 1, Iterative: Iterative{Tol: math.NaN()}}.Fit(x, y)), linalg.ErrNotFinite, "CG.Fit", "Tol"},
		{"CG MaxIter negative", itErr(CG{Kernel: g, Lambda: 1, Iterative: Iterative{MaxIter: -1}}.Fit(x, y)), ErrInput, "CG.Fit", "MaxIter"},
	} {
		var ie *linalg.InputError
		arg, cell, _ := strings.Cut(tc.arg, ": ") // a data element: "X: row 4, column 2"
		if !errors.As(tc.err, &ie) || !errors.Is(tc.err, ErrInput) || !errors.Is(tc.err, tc.want) || ie.Op != tc.op || ie.Arg != arg || !strings.HasPrefix(ie.Reason, cell) {
			t.Errorf("%s: err = %v, want an InputError of %s on %s wrapping %v", tc.name, tc.err, tc.op, tc.arg, tc.want)
		}
	}
	if _, err := (RLS{Kernel: negKernel{}, Lambda: 1e-3}).Fit(x, y); !errors.Is(err, linalg.ErrNotPositiveDefinite) {
		t.Errorf("indefinite kernel: %v, want ErrNotPositiveDefinite", err)
	}
	if !testmat.Identical(testmat.Matrix(*x), testmat.Matrix(*x0)) || !testmat.Identical(testmat.Matrix(*y), testmat.Matrix(*y0)) {
		t.Errorf("an input was modified")
	}
	m, _ := RLS{Kernel: g, Lambda: 1}.Fit(x, y)
	if _, err := m.Predict(randDense(1, 2, 3)); !errors.Is(err, ErrInput) {
		t.Errorf("Predict with 3 columns on a 2-column model: %v", err)
	}
	if _, err := m.Predict(nanX); !errors.Is(err, linalg.ErrNotFinite) {
		t.Errorf("Predict with NaN: %v", err)
	}
	if p, err := m.Predict(&linalg.Dense{}); err != nil || p.Rows != 0 {
		t.Errorf("Predict at no points: %v, %v; want 0 rows", p, err)
	}
}

// TestZeroValues: methods of nil or zero-value models and decompositions
// return an InputError (wrapping ErrInput) instead of panicking.
func TestZeroValues(t *testing.T) {
	x := randDense(22, 6, 2)
	var nilModel *Model
	var nilLinear *LinearModel
	var nilSpectral *Spectral
	var nilPath *LinearPath
	errOf := func(_ any, err error) error { return err }
	model, _ := RLS{Kernel: kernels.Linear{}, Lambda: 1}.Fit(x, randDense(23, 6, 1))
	wrongShape := *model
	wrongShape.Intercept = nil
	for name, err := range map[string]error{
		"nil Model.Predict":            errOf(nilModel.Predict(x)),
		"zero Model.Predict":           errOf((&Model{}).Predict(x)),
		"Model without kernel":         errOf((&Model{Centers: model.Centers, Coef: model.Coef, Intercept: model.Intercept}).Predict(x)),
		"Model without intercept":      errOf(wrongShape.Predict(x)),
		"nil LinearModel.Predict":      errOf(nilLinear.Predict(x)),
		"zero LinearModel.Predict":     errOf((&LinearModel{}).Predict(x)),
		"nil Spectral.Fit":             errOf(nilSpectral.Fit(TikhonovFilter{Lambda: 1}, NoIntercept)),
		"zero Spectral.Fit":            errOf((&Spectral{}).Fit(TikhonovFilter{Lambda: 1}, NoIntercept)),
		"zero Spectral.FitAugmented":   errOf((&Spectral{}).FitAugmented(1)),
		"zero Spectral.FitPath":        errOf((&Spectral{}).FitPath([]PathPoint{{Augmented: 1}}, NoIntercept)),
		"zero Spectral.PredictPath":    errOf((&Spectral{}).PredictPath([]PathPoint{{Augmented: 1}}, NoIntercept, x)),
		"zero Spectral.FilterValues":   errOf((&Spectral{}).FilterValues(TikhonovFilter{Lambda: 1})),
		"nil LinearPath.Fit":           errOf(nilPath.Fit(1)),
		"zero LinearPath.FitAugmented": errOf((&LinearPath{}).FitAugmented(1)),
	} {
		var ie *linalg.InputError
		if !errors.As(err, &ie) || !errors.Is(err, ErrInput) {
			t.Errorf("%s: %v, want an InputError wrapping ErrInput", name, err)
		}
	}
	if nilSpectral.N() != 0 || nilSpectral.Values() != nil || nilSpectral.Kernel() != nil {
		t.Error("N, Values or Kernel of a nil Spectral is not empty")
	}
}

// negKernel is −xᵀz, negative semidefinite: K + nλI is indefinite.
type negKernel struct{}

func (negKernel) Eval(x, z []float64) float64 { return -kernels.Linear{}.Eval(x, z) * 100 }

func TestLambdaConverters(t *testing.T) {
	if got := LambdaFromAlpha(2, 100); got != 0.02 {
		t.Errorf("LambdaFromAlpha(2, 100) = %v", got)
	}
	if got := AlphaFromLambda(LambdaFromAlpha(3, 7), 7); math.Abs(got-3) > 1e-15 {
		t.Errorf("AlphaFromLambda(LambdaFromAlpha(3)) = %v", got)
	}
	if got := LambdaFromC(0.5, 100); got != 0.01 {
		t.Errorf("LambdaFromC(0.5, 100) = %v", got)
	}
	// The α convention solves (K + αI)c = y: the same c as (K + nλI)c = y.
	x, y := randDense(20, 30, 2), randDense(21, 30, 1)
	k := kernels.Gaussian{Sigma: 1}
	m, err := RLS{Kernel: k, Lambda: LambdaFromAlpha(0.3, 30)}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := kernels.Gram(k, x)
	for i := 0; i < 30; i++ { // (K + 0.3 I)c − y = 0
		s := 0.3*m.Coef.At(i, 0) - y.At(i, 0)
		for j := 0; j < 30; j++ {
			s += g.At(i, j) * m.Coef.At(j, 0)
		}
		if math.Abs(s) > 1e-10 {
			t.Fatalf("residual of (K + αI)c = y at %d: %v", i, s)
		}
	}
}
