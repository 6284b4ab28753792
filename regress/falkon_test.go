package regress

import (
	"cmp"
	"errors"
	"math"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"rkhs/datasets"
	"rkhs/internal/testmat"
	"rkhs/kernels"
	"rkhs/linalg"
)

// falkonSets are the data sets of the Falkon tests: synthetic ones with
// several outputs and the bundled regression sets (d from 6 to 60, so that
// both inner-product paths of kernels.Rows run).
func falkonSets(t *testing.T) []struct {
	name  string
	x, y  *linalg.Dense
	sigma float64
} {
	t.Helper()
	type set = struct {
		name  string
		x, y  *linalg.Dense
		sigma float64
	}
	sets := []set{
		{"random 300×4 q=2", randDense(21, 300, 4), randDense(22, 300, 2), 1.5},
		{"random 200×20", randDense(23, 200, 20), randDense(24, 200, 1), 4},
	}
	for _, name := range []string{"housing", "mg", "triazines"} {
		d := datasets.MustLoad(name)
		sets = append(sets, set{name, &d.X, linalg.NewDense(len(d.Y), 1, d.Y), 1})
	}
	return sets
}

// TestFalkonMatchesNystrom: run to convergence, Falkon is the direct
// Nyström solution with the same centres and λ, to 1e-8 relative, in both
// intercept modes and with several outputs.
func TestFalkonMatchesNystrom(t *testing.T) {
	for _, s := range falkonSets(t) {
		for _, ic := range []Intercept{NoIntercept, FreeIntercept} {
			k := kernels.Gaussian{Sigma: s.sigma}
			m := min(60, s.x.Rows/3)
			ny, err := Nystrom{Kernel: k, Lambda: 1e-5, Centers: m, Seed: 5, Intercept: ic}.Fit(s.x, s.y)
			if err != nil {
				t.Fatal(err)
			}
			if ny.Jitter != 0 {
				t.Fatalf("%s: the direct fit needed a jitter", s.name)
			}
			fa := &Falkon{Kernel: k, Lambda: 1e-5, Given: ny.Centers, Intercept: ic, MaxIter: 500, Tol: 1e-14}
			fit, err := fa.Fit(s.x, s.y)
			if err != nil {
				t.Fatal(err)
			}
			if r := relDiff(fit.Coef, ny.Coef); r > 1e-8 {
				t.Errorf("%s %v: coefficients differ from Nystrom's by %.3g relative after %d iterations (%v), want ≤ 1e-8", s.name, ic, r, fit.Iterations, fit.Stopped)
			}
			pf, pn := predict(t, fit, s.x), predict(t, ny, s.x)
			if r := relDiff(pf, pn); r > 1e-8 {
				t.Errorf("%s %v: predictions differ from Nystrom's by %.3g relative, want ≤ 1e-8", s.name, ic, r)
			}
		}
	}
}

// TestFalkonAllCenters: with every (distinct) training point a centre,
// Falkon converges to exact RLS, drawn or given.
func TestFalkonAllCenters(t *testing.T) {
	x, y, xt := randDense(9, 70, 3), randDense(10, 70, 2), randDense(11, 15, 3)
	k := kernels.Gaussian{Sigma: 0.7}
	for _, ic := range []Intercept{NoIntercept, FreeIntercept} {
		exact, err := RLS{Kernel: k, Lambda: 1e-3, Intercept: ic}.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		for _, given := range []bool{true, false} {
			fa := &Falkon{Kernel: k, Lambda: 1e-3, Intercept: ic, Centers: 70, Seed: 3, MaxIter: 500, Tol: 1e-14}
			if given {
				fa.Given = x
			}
			fit, err := fa.Fit(x, y)
			if err != nil {
				t.Fatal(err)
			}
			if r := relDiff(predict(t, fit, xt), predict(t, exact, xt)); r > 1e-8 {
				t.Errorf("%v given=%v: Falkon with m = n differs from RLS by %.3g relative", ic, given, r)
			}
		}
	}
}

// TestFalkonCenters: on distinct rows the draw is Nystrom's; with repeated
// rows the centres are distinct rows, and asking for more centres than
// there are distinct rows is an error.
func TestFalkonCenters(t *testing.T) {
	x, y := randDense(31, 50, 2), randDense(32, 50, 1)
	k := kernels.Gaussian{Sigma: 1}
	ny, err := Nystrom{Kernel: k, Lambda: 1e-3, Centers: 12, Seed: 9}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	fit, err := (&Falkon{Kernel: k, Lambda: 1e-3, Centers: 12, Seed: 9}).Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(fit.Indices, ny.Indices) {
		t.Errorf("centres %v, Nystrom drew %v", fit.Indices, ny.Indices)
	}

	// 10 distinct rows, each 5 times (one copy with −0 for +0).
	dup := linalg.NewDense(50, 2, nil)
	for i := range 50 {
		copy(dup.Row(i), x.Row(i%10))
	}
	for i := 7; i < 50; i += 10 {
		dup.Set(i, 0, 0)
	}
	dup.Set(17, 0, math.Copysign(0, -1))
	fit, err = (&Falkon{Kernel: k, Lambda: 1e-3, Centers: 10, Seed: 1}).Fit(dup, y)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[[2]float64]bool{}
	for j := range fit.Centers.Rows {
		r := [2]float64{fit.Centers.At(j, 0) + 0, fit.Centers.At(j, 1)}
		if seen[r] {
			t.Errorf("centre %v drawn twice", r)
		}
		seen[r] = true
	}
	if len(seen) != 10 {
		t.Errorf("%d distinct centres, want 10", len(seen))
	}
	_, err = (&Falkon{Kernel: k, Lambda: 1e-3, Centers: 11, Seed: 1}).Fit(dup, y)
	var ie *linalg.InputError
	if !errors.Is(err, ErrInput) || !errors.As(err, &ie) || ie.Arg != "Centers" {
		t.Errorf("11 centres from 10 distinct rows: got %v, want an ErrInput about Centers", err)
	}
}

// TestFalkonDeterminism: the fit is bit-identical at 1, 2 and 8
// goroutines (enough rows for several chunks of the streamed products).
func TestFalkonDeterminism(t *testing.T) {
	testmat.SkipSingleThreaded(t)
	x, y := randDense(41, 3000, 5), randDense(42, 3000, 2)
	fa := &Falkon{Kernel: kernels.Gaussian{Sigma: 1.2}, Lambda: 1e-6, Centers: 300, Seed: 2, Intercept: FreeIntercept, MaxIter: 8}
	var ref *FalkonFit
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, p := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(p)
		fit, err := fa.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		if ref == nil {
			ref = fit
			continue
		}
		if !slices.Equal(fit.Coef.Data, ref.Coef.Data) || !slices.Equal(fit.Intercept, ref.Intercept) || !slices.Equal(fit.Residuals, ref.Residuals) {
			t.Errorf("GOMAXPROCS=%d: the fit differs from GOMAXPROCS=1", p)
		}
	}
}

// TestFalkonCallback: the callback sees the iterate as a model (its
// predictions and residuals agree with the final model of a run of the
// same length), and stops the run.
func TestFalkonCallback(t *testing.T) {
	x, y := randDense(51, 400, 3), randDense(52, 400, 1)
	xv := randDense(53, 50, 3)
	var preds []*linalg.Dense
	var res []float64
	fa := &Falkon{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-4, Centers: 40, Intercept: FreeIntercept, MaxIter: 10,
		Callback: func(it int, r float64, cur *Model) bool {
			p, err := cur.Predict(xv)
			if err != nil {
				t.Fatal(err)
			}
			preds, res = append(preds, p), append(res, r)
			return it < 4
		}}
	fit, err := fa.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if fit.Iterations != 4 || fit.Stopped != StopCallback || len(preds) != 4 {
		t.Fatalf("stopped after %d iterations (%v, %d calls), want 4 by the callback", fit.Iterations, fit.Stopped, len(preds))
	}
	if !slices.Equal(res, fit.Residuals[1:]) {
		t.Errorf("callback residuals %v, fit residuals %v", res, fit.Residuals[1:])
	}
	fa.Callback, fa.MaxIter = nil, 3
	three, err := fa.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if three.Stopped != StopMaxIter || three.Iterations != 3 {
		t.Errorf("MaxIter 3: %d iterations, %v", three.Iterations, three.Stopped)
	}
	if r := relDiff(preds[2], predict(t, three, xv)); r != 0 {
		t.Errorf("the callback's model after 3 iterations differs from a 3-iteration fit by %.3g", r)
	}
}

// denseOperator is a NystromOperator with K_nm stored, computed another
// way (kernels.Cross and linalg.Gemm).
type denseOperator struct{ knm, y *linalg.Dense }

func (o denseOperator) Summary() (int, *linalg.Dense, []float64, []float64, error) {
	n, m := o.knm.Rows, o.knm.Cols
	kty := linalg.NewDense(m, o.y.Cols, nil)
	linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, o.knm, o.y, 0, kty)
	kt1 := make([]float64, m)
	for i := range n {
		for j, v := range o.knm.Row(i) {
			kt1[j] += v
		}
	}
	return n, kty, kt1, colSums(o.y), nil
}

func (o denseOperator) NormalMul(dst, v *linalg.Dense) error {
	w := linalg.NewDense(o.knm.Rows, v.Cols, nil)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, o.knm, v, 0, w)
	linalg.Gemm(linalg.Trans, linalg.NoTrans, 1, o.knm, w, 0, dst)
	return nil
}

type failingOperator struct{ denseOperator }

var errRemote = errors.New("remote worker lost")

func (failingOperator) NormalMul(dst, v *linalg.Dense) error { return errRemote }

// TestFalkonFitOperator: an operator that computes the same sums another
// way gives the same fit to rounding (over a few iterations: CG on a
// system this ill-conditioned, λ = 10⁻⁵ on noise, amplifies rounding
// differences as it runs); its errors come back wrapped.
func TestFalkonFitOperator(t *testing.T) {
	x, y := randDense(61, 500, 3), randDense(62, 500, 2)
	k := kernels.Gaussian{Sigma: 1}
	fa := &Falkon{Kernel: k, Lambda: 1e-5, Centers: 50, Seed: 4, Intercept: FreeIntercept, MaxIter: 5}
	fit, err := fa.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	knm, err := kernels.Cross(k, x, fit.Centers)
	if err != nil {
		t.Fatal(err)
	}
	other, err := fa.FitOperator(fit.Centers, denseOperator{knm, y})
	if err != nil {
		t.Fatal(err)
	}
	if r := relDiff(other.Coef, fit.Coef); r > 1e-9 {
		t.Errorf("FitOperator differs from Fit by %.3g relative", r)
	}
	if other.Indices != nil {
		t.Errorf("FitOperator reports indices %v", other.Indices)
	}
	if _, err := fa.FitOperator(fit.Centers, failingOperator{denseOperator{knm, y}}); !errors.Is(err, errRemote) {
		t.Errorf("a failing operator: got %v, want its error wrapped", err)
	}
	if _, err := fa.FitOperator(fit.Centers, nil); !errors.Is(err, ErrInput) {
		t.Errorf("a nil operator: got %v, want ErrInput", err)
	}
	if _, err := fa.FitOperator(x.Slice(0, 10, 0, 2), denseOperator{knm, y}); !errors.Is(err, ErrInput) {
		t.Errorf("centres that do not match the operator: got %v, want ErrInput", err)
	}
}

// TestFalkonBadInput: bad arguments are ErrInput errors naming the field.
func TestFalkonBadInput(t *testing.T) {
	x, y := randDense(71, 30, 2), randDense(72, 30, 1)
	nan := x.Clone()
	nan.Set(3, 1, math.NaN())
	k := kernels.Gaussian{Sigma: 1}
	ok := Falkon{Kernel: k, Lambda: 1e-3, Centers: 5}
	cases := []struct {
		name   string
		mod    func(f *Falkon)
		x      *linalg.Dense
		arg    string
		finite bool
	}{
		{"NaN in X", nil, nan, "X: row 4, column 2", true},
		{"m = 0", func(f *Falkon) { f.Centers = 0 }, x, "Centers", false},
		{"m > n", func(f *Falkon) { f.Centers = 31 }, x, "Centers", false},
		{"λ = 0", func(f *Falkon) { f.Lambda = 0 }, x, "Lambda", false},
		{"λ < 0", func(f *Falkon) { f.Lambda = -1 }, x, "Lambda", false},
		{"λ NaN", func(f *Falkon) { f.Lambda = math.NaN() }, x, "Lambda", true},
		{"no kernel", func(f *Falkon) { f.Kernel = nil }, x, "Kernel", false},
		{"σ = 0", func(f *Falkon) { f.Kernel = kernels.Gaussian{} }, x, "Kernel.Sigma", false},
		{"penalized", func(f *Falkon) { f.Intercept = PenalizedIntercept }, x, "Intercept", false},
		{"MaxIter < 0", func(f *Falkon) { f.MaxIter = -1 }, x, "MaxIter", false},
		{"Tol < 0", func(f *Falkon) { f.Tol = -1 }, x, "Tol", false},
		{"Given 3 columns", func(f *Falkon) { f.Given = randDense(1, 4, 3) }, x, "Given", false},
	}
	for _, c := range cases {
		fa := ok
		if c.mod != nil {
			c.mod(&fa)
		}
		before := c.x.Clone()
		_, err := fa.Fit(c.x, y)
		var ie *linalg.InputError
		arg, cell, _ := strings.Cut(c.arg, ": ") // a data element: "X: row 4, column 2"
		if !errors.Is(err, ErrInput) || !errors.As(err, &ie) || ie.Arg != arg || !strings.HasPrefix(ie.Reason, cell) {
			t.Errorf("%s: got %v, want an ErrInput about %s", c.name, err, c.arg)
		}
		if c.finite != errors.Is(err, linalg.ErrNotFinite) {
			t.Errorf("%s: errors.Is(err, linalg.ErrNotFinite) = %v", c.name, !c.finite)
		}
		if !slices.Equal(before.Data, c.x.Data) && !c.finite {
			t.Errorf("%s: X was modified", c.name)
		}
	}
}

// TestFalkonMemoryLimit: a fit whose m×m matrices exceed the Go memory
// limit is refused before they are allocated, with the error of
// internal/memlimit.
func TestFalkonMemoryLimit(t *testing.T) {
	n := 20000
	x, y := linalg.NewDense(n, 1, nil), linalg.NewDense(n, 1, nil)
	for i := range n {
		x.Set(i, 0, float64(i))
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(1 << 30))
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	// 20,000 centres: two m×m matrices are 6 GiB.
	_, err := (&Falkon{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3, Centers: n}).Fit(x, y)
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	var me *linalg.MemoryError
	if !errors.Is(err, linalg.ErrTooLarge) || !errors.As(err, &me) || me.Op != "Falkon.Fit" || me.Need < 6<<30 {
		t.Fatalf("got %v, want a MemoryError of Falkon.Fit for at least 6 GiB", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("the refused fit allocated %d bytes", grew)
	}
	if need := FalkonMemory(math.MaxInt, math.MaxInt, 1, 1); need != math.MaxUint64 {
		t.Errorf("an overflowing count is %d bytes, want MaxUint64", need)
	}
}

// bumpedKernel is the Gaussian kernel with σ = 1, except that its value
// at two rows held in different storage with the same values is 1 + 3·10⁻⁷
// instead of 1: repeated centres then make K_mm indefinite by about 3·10⁻⁷,
// beyond Falkon's δ = ε·m·t, as rounding may in a kernel computed less
// carefully than the kernels of package kernels.
type bumpedKernel struct{}

func (bumpedKernel) Eval(x, z []float64) float64 {
	v := kernels.Gaussian{Sigma: 1}.Eval(x, z)
	if v == 1 && &x[0] != &z[0] {
		return 1 + 3e-7
	}
	return v
}

// TestFalkonRepeatedGivenCenters: with every Given centre twice and
// K_mm + δI (δ = ε·m·t) not numerically positive definite, the jitter of
// Nystrom is added (in place in the preconditioner's second matrix), and
// the fit is still Nystrom's with the same centres.
func TestFalkonRepeatedGivenCenters(t *testing.T) {
	x, y, xt := randDense(41, 120, 3), randDense(42, 120, 2), randDense(43, 20, 3)
	k := bumpedKernel{}
	const m = 30
	given := linalg.NewDense(m, 3, nil)
	for j := range m {
		copy(given.Row(j), x.Row(j%15*7))
	}
	for _, ic := range []Intercept{NoIntercept, FreeIntercept} {
		ny, err := Nystrom{Kernel: k, Lambda: 1e-4, Given: given, Intercept: ic}.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		fit, err := Falkon{Kernel: k, Lambda: 1e-4, Given: given, Intercept: ic, MaxIter: 500, Tol: 1e-14}.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		if base := 0x1p-52 * m; !(fit.Jitter > 2*base) || !(ny.Jitter > 0) {
			t.Fatalf("%v: Jitter %g (Nystrom %g), want more than ε·m·t = %g (the jitter path)", ic, fit.Jitter, ny.Jitter, base)
		}
		if r := relDiff(predict(t, fit, xt), predict(t, ny, xt)); r > 1e-8 {
			t.Errorf("%v: predictions differ from Nystrom's by %.3g relative (jitter %g, Nystrom %g, %d iterations), want ≤ 1e-8", ic, r, fit.Jitter, ny.Jitter, fit.Iterations)
		}
	}
}

// TestFalkonStopping: the tolerance (by default ε) stops a converged run
// long before a large budget; residuals are relative to the first (1 at
// the start, at most Tol at a tolerance stop); a run that does not reach
// the tolerance is bit-identical to one without a reachable tolerance; a
// zero right-hand side stops at once with zero residuals; and StoppedShort flags exactly the runs that used
// their budget and ended above FalkonPromise.
func TestFalkonStopping(t *testing.T) {
	x, y := randDense(61, 300, 2), randDense(62, 300, 2)
	base := Falkon{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3, Centers: 30, Intercept: FreeIntercept}
	for _, tc := range []struct {
		name    string
		maxIter int
		tol     float64
		stopped StopReason
	}{
		{"default tolerance", 100000, 0, StopTol},
		{"given tolerance", 100000, 1e-6, StopTol},
		{"budget", 3, 0, StopMaxIter},
	} {
		f := base
		f.MaxIter, f.Tol = tc.maxIter, tc.tol
		fit, err := f.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		tol := cmp.Or(tc.tol, DefaultFalkonTol)
		last := fit.Residuals[len(fit.Residuals)-1]
		if fit.Stopped != tc.stopped || fit.Residuals[0] != 1 || len(fit.Residuals) != fit.Iterations+1 {
			t.Errorf("%s: stopped by %v after %d iterations, Residuals[0] = %v", tc.name, fit.Stopped, fit.Iterations, fit.Residuals[0])
		}
		if tc.stopped == StopTol && (last > tol || fit.Iterations > 200) {
			t.Errorf("%s: relative residual %g after %d iterations, want ≤ %g well before 200", tc.name, last, fit.Iterations, tol)
		}
		if tc.stopped == StopMaxIter {
			f.Tol = 1e-300 // unreachable in 3 iterations
			other, err := f.Fit(x, y)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(fit.Coef.Data, other.Coef.Data) || !slices.Equal(fit.Intercept, other.Intercept) || !slices.Equal(fit.Residuals, other.Residuals) {
				t.Errorf("%s: the default tolerance changed a run that does not reach it", tc.name)
			}
		}
		if fit.StoppedShort() {
			t.Errorf("%s: StoppedShort after %d iterations at %g", tc.name, fit.Iterations, last)
		}
	}

	// Zero labels: a zero right-hand side, zero residuals (not NaN), a stop
	// at the first iteration and a zero model.
	zero := base
	zero.Intercept = NoIntercept
	fit, err := zero.Fit(x, linalg.NewDense(300, 1, nil))
	if err != nil {
		t.Fatal(err)
	}
	if fit.Stopped != StopTol || fit.Iterations != 1 || !slices.Equal(fit.Residuals, []float64{0, 0}) || slices.ContainsFunc(fit.Coef.Data, func(v float64) bool { return v != 0 }) {
		t.Errorf("zero labels: %v after %d iterations, residuals %v", fit.Stopped, fit.Iterations, fit.Residuals)
	}

	// StoppedShort: the budget used and the residual above the promise.
	for _, tc := range []struct {
		fit  FalkonFit
		want bool
	}{
		{FalkonFit{Iterations: 20, Residuals: []float64{1, 1e-3}, Stopped: StopMaxIter}, true},
		{FalkonFit{Iterations: 20, Residuals: []float64{1, 1e-5}, Stopped: StopMaxIter}, false},
		{FalkonFit{Iterations: 20, Residuals: []float64{1, 1e-3}, Stopped: StopCallback}, false},
		{FalkonFit{Iterations: 3, Residuals: []float64{1, 0.9}, Stopped: StopMaxIter}, false},
		{FalkonFit{Iterations: 100, Residuals: []float64{1, 1e-9}, Stopped: StopMaxIter}, false},
		{FalkonFit{Iterations: 100, Residuals: []float64{1, 1e-7}, Stopped: StopMaxIter}, true},
	} {
		if got := tc.fit.StoppedShort(); got != tc.want {
			t.Errorf("StoppedShort of %d iterations at %g (%v) = %v, want %v", tc.fit.Iterations, tc.fit.Residuals[1], tc.fit.Stopped, got, tc.want)
		}
	}
	if p := FalkonPromise(20); math.Abs(p-8*math.Pow(0.6, 20)) > 1e-18 || FalkonPromise(1000) != 0x1p-26 {
		t.Errorf("FalkonPromise(20) = %g, FalkonPromise(1000) = %g", p, FalkonPromise(1000))
	}
}
