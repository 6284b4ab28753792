package regress

import (
	"errors"
	"math"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
)

// TestIterativeMatchesFilter: t steps of Landweber and of the ν-method run
// matrix-free equal their spectral filters from the eigendecomposition, to
// 1e-10, without and with a free intercept (same η on both sides).
func TestIterativeMatchesFilter(t *testing.T) {
	x, y, xt := randDense(60, 70, 3), randDense(61, 70, 2), randDense(62, 12, 3)
	k := kernels.Gaussian{Sigma: 0.9}
	s, err := NewSpectral(k, x, y)
	if err != nil {
		t.Fatal(err)
	}
	eta := 1 / s.Values()[69]
	for _, ic := range []Intercept{NoIntercept, FreeIntercept} {
		for _, steps := range []int{1, 5, 40} {
			lw, err := Landweber{Kernel: k, Eta: eta, Intercept: ic, Iterative: Iterative{MaxIter: steps}}.Fit(x, y)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := s.Fit(LandweberFilter{Steps: steps, Eta: eta}, ic)
			if r := relDiff(predict(t, lw, xt), predict(t, want, xt)); r > 1e-10 {
				t.Errorf("%v Landweber t=%d: iteration and filter differ by %.3g", ic, steps, r)
			}
			nu, err := NuMethod{Kernel: k, Eta: eta, Nu: 1, Intercept: ic, Iterative: Iterative{MaxIter: steps}}.Fit(x, y)
			if err != nil {
				t.Fatal(err)
			}
			want, _ = s.Fit(NuFilter{Steps: steps, Nu: 1, Eta: eta}, ic)
			if r := relDiff(predict(t, nu, xt), predict(t, want, xt)); r > 1e-10 {
				t.Errorf("%v ν-method t=%d: iteration and filter differ by %.3g", ic, steps, r)
			}
			if lw.Iterations != steps || lw.Stopped != StopMaxIter || len(lw.Residuals) != steps+1 {
				t.Errorf("Landweber t=%d: %d iterations, stopped by %q, %d residuals", steps, lw.Iterations, lw.Stopped, len(lw.Residuals))
			}
		}
	}
}

// TestAutomaticStep: the power iteration's σ̂ is a lower bound of σ_max
// within 1%, and the automatic step is 1/(1.05·σ̂).
func TestAutomaticStep(t *testing.T) {
	x, y := randDense(63, 80, 2), randDense(64, 80, 1)
	k := kernels.Laplacian{Sigma: 1}
	s, _ := NewSpectral(k, x, y)
	smax := s.Values()[79]
	fit, err := Landweber{Kernel: k, Iterative: Iterative{MaxIter: 3}}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	est := 1 / (stepMargin * fit.Eta)
	if est > smax*(1+1e-12) || est < 0.99*smax {
		t.Errorf("σ̂ = %v, σ_max = %v", est, smax)
	}
}

// TestCGConverges: CG on K + nλI reaches the Cholesky solution, in every
// intercept mode; KeepPath records each iteration and the residuals fall.
func TestCGConverges(t *testing.T) {
	x, y, xt := randDense(65, 60, 3), randDense(66, 60, 2), randDense(67, 10, 3)
	k := kernels.Gaussian{Sigma: 1}
	for _, ic := range intercepts {
		want, _ := RLS{Kernel: k, Lambda: 1e-3, Intercept: ic}.Fit(x, y)
		cg, err := CG{Kernel: k, Lambda: 1e-3, Intercept: ic, Iterative: Iterative{MaxIter: 500, Tol: 1e-13, KeepPath: true}}.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		if cg.Stopped != StopTol {
			t.Errorf("%v: stopped by %q after %d iterations", ic, cg.Stopped, cg.Iterations)
		}
		if len(cg.Path) != cg.Iterations {
			t.Errorf("%v: path of %d models for %d iterations", ic, len(cg.Path), cg.Iterations)
		}
		if r := relDiff(predict(t, cg, xt), predict(t, want, xt)); r > 1e-9 {
			t.Errorf("%v: CG and Cholesky differ by %.3g", ic, r)
		}
		if last := cg.Residuals[len(cg.Residuals)-1]; last > 1e-12*cg.Residuals[0] {
			t.Errorf("%v: final residual %.3g of initial %.3g", ic, last, cg.Residuals[0])
		}
	}
}

// TestCGLS: on [K 1] the residual ‖y − K̃c̃‖ never increases, and run to
// convergence CGLS from 0 gives the minimum-norm least-squares solution,
// which is the λ → 0 limit of Tikhonov on [K 1].
func TestCGLS(t *testing.T) {
	x, y, xt := randDense(68, 30, 2), randDense(69, 30, 1), randDense(70, 8, 2)
	k := kernels.Laplacian{Sigma: 0.7}
	fit, err := CGLS{Kernel: k, Intercept: FreeIntercept, Iterative: Iterative{MaxIter: 400, Tol: 1e-12}}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(fit.Residuals); i++ {
		if fit.Residuals[i] > fit.Residuals[i-1]*(1+1e-12) {
			t.Fatalf("residual rose at iteration %d: %v → %v", i, fit.Residuals[i-1], fit.Residuals[i])
		}
	}
	if last := fit.Residuals[len(fit.Residuals)-1]; last > 1e-8*fit.Residuals[0] {
		t.Errorf("residual %.3g of %.3g: [K 1]c̃ = y is consistent, CGLS should solve it", last, fit.Residuals[0])
	}
	s, _ := NewSpectral(k, x, y)
	tikh, _ := s.FitAugmented(1e-14)
	if r := relDiff(predict(t, fit, xt), predict(t, tikh, xt)); r > 1e-6 {
		t.Errorf("CGLS limit and Tikhonov on [K 1] (λ→0) differ by %.3g", r)
	}
	// Early stopping: fewer iterations, a larger residual, and a callback
	// that stops the run.
	calls := 0
	early, err := CGLS{Kernel: k, Intercept: FreeIntercept, Iterative: Iterative{MaxIter: 50, Callback: func(it int, res float64, current *Model) bool {
		calls++
		return it < 3
	}}}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if early.Iterations != 3 || early.Stopped != StopCallback || calls != 3 {
		t.Errorf("callback stop: %d iterations, %q, %d calls", early.Iterations, early.Stopped, calls)
	}
	if early.Residuals[3] != fit.Residuals[3] {
		t.Errorf("the first iterations depend on MaxIter: %v vs %v", early.Residuals[3], fit.Residuals[3])
	}
}

// TestStreamMatchesStored: the streaming products (kernels.Rows) and the
// stored Gram matrix give the same iterates to rounding.
//
// CGLS on this ill-conditioned K amplifies rounding differences between the
// two ways of building K: in a GOEXPERIMENT=simd build (whose kernels round
// differently from the scalar row norms) the predictions agree to 7e-12
// after 5 iterations but only to 0.2 after 15, while the default build
// builds the same K both ways and agrees exactly. Hence 5 iterations for
// CGLS; the ν-method is not so sensitive.
func TestStreamMatchesStored(t *testing.T) {
	x, y, xt := randDense(71, 90, 4), randDense(72, 90, 1), randDense(73, 10, 4)
	k := kernels.Gaussian{Sigma: 1.1}
	a, err := CGLS{Kernel: k, Intercept: FreeIntercept, Iterative: Iterative{MaxIter: 5}}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	b, err := CGLS{Kernel: k, Intercept: FreeIntercept, Iterative: Iterative{MaxIter: 5, Stream: true}}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	if r := relDiff(predict(t, b, xt), predict(t, a, xt)); r > 1e-9 {
		t.Errorf("streaming and stored CGLS differ by %.3g", r)
	}
	c, _ := NuMethod{Kernel: k, Iterative: Iterative{MaxIter: 15}}.Fit(x, y)
	d, _ := NuMethod{Kernel: k, Iterative: Iterative{MaxIter: 15, Stream: true}}.Fit(x, y)
	if r := relDiff(predict(t, d, xt), predict(t, c, xt)); r > 1e-9 {
		t.Errorf("streaming and stored ν-method differ by %.3g", r)
	}
}

func TestIterativeBadInput(t *testing.T) {
	x, y := randDense(74, 10, 2), randDense(75, 10, 1)
	g := kernels.Gaussian{Sigma: 1}
	for _, tc := range []struct {
		name string
		err  error
	}{
		{"MaxIter 0", second(Landweber{Kernel: g}.Fit(x, y))},
		{"Tol NaN", second(CGLS{Kernel: g, Iterative: Iterative{MaxIter: 1, Tol: math.NaN()}}.Fit(x, y))},
		{"Eta negative", second(Landweber{Kernel: g, Eta: -1, Iterative: Iterative{MaxIter: 1}}.Fit(x, y))},
		{"Nu negative", second(NuMethod{Kernel: g, Nu: -1, Iterative: Iterative{MaxIter: 1}}.Fit(x, y))},
		{"CG lambda 0", second(CG{Kernel: g, Iterative: Iterative{MaxIter: 1}}.Fit(x, y))},
		{"rows differ", second(CGLS{Kernel: g, Iterative: Iterative{MaxIter: 1}}.Fit(x, randDense(1, 9, 1)))},
	} {
		if !errors.Is(tc.err, ErrInput) {
			t.Errorf("%s: err = %v, want ErrInput", tc.name, tc.err)
		}
	}
}

func second(_ *IterFit, err error) error { return err }

// TestLinearOperator: with the linear kernel the iterations use X·(Xᵀv);
// they must match the same iterations on the stored Gram matrix of a
// user kernel equal to xᵀz (generic path).
func TestLinearOperator(t *testing.T) {
	x, y, xt := randDense(76, 80, 5), randDense(77, 80, 1), randDense(78, 6, 5)
	for _, ic := range intercepts {
		a, err := CGLS{Kernel: kernels.Linear{}, Intercept: ic, Iterative: Iterative{MaxIter: 6}}.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		b, err := CGLS{Kernel: dotKernel{}, Intercept: ic, Iterative: Iterative{MaxIter: 6}}.Fit(x, y)
		if err != nil {
			t.Fatal(err)
		}
		if r := relDiff(predict(t, a, xt), predict(t, b, xt)); r > 1e-10 {
			t.Errorf("%v: linear operator and stored Gram differ by %.3g", ic, r)
		}
	}
}

// dotKernel is xᵀz as a user kernel, so it takes the stored-Gram path.
type dotKernel struct{}

func (dotKernel) Eval(x, z []float64) float64 { return kernels.Linear{}.Eval(x, z) }

// TestCallbackModel: every iterative solver hands its callback the model
// of the current iterate, the model KeepPath records for that iteration.
func TestCallbackModel(t *testing.T) {
	x, y, xt := randDense(71, 60, 2), randDense(72, 60, 2), randDense(73, 10, 2)
	k := kernels.Gaussian{Sigma: 1}
	for _, tc := range []struct {
		name string
		fit  func(Iterative) (*IterFit, error)
	}{
		{"Landweber", func(o Iterative) (*IterFit, error) {
			return Landweber{Kernel: k, Intercept: FreeIntercept, Iterative: o}.Fit(x, y)
		}},
		{"NuMethod", func(o Iterative) (*IterFit, error) {
			return NuMethod{Kernel: k, Nu: 1, Intercept: PenalizedIntercept, Iterative: o}.Fit(x, y)
		}},
		{"CGLS", func(o Iterative) (*IterFit, error) {
			return CGLS{Kernel: k, Intercept: FreeIntercept, Iterative: o}.Fit(x, y)
		}},
		{"CG", func(o Iterative) (*IterFit, error) {
			return CG{Kernel: k, Lambda: 1e-3, Intercept: FreeIntercept, Iterative: o}.Fit(x, y)
		}},
	} {
		var seen []*linalg.Dense
		fit, err := tc.fit(Iterative{MaxIter: 5, KeepPath: true, Callback: func(it int, _ float64, cur *Model) bool {
			seen = append(seen, predict(t, cur, xt))
			return true
		}})
		if err != nil {
			t.Fatal(err)
		}
		if len(seen) != 5 || len(fit.Path) != 5 {
			t.Fatalf("%s: %d calls, %d path models, want 5", tc.name, len(seen), len(fit.Path))
		}
		for i, m := range fit.Path {
			if r := relDiff(seen[i], predict(t, m, xt)); r != 0 {
				t.Errorf("%s: the callback's model at iteration %d differs from the path's by %.3g", tc.name, i+1, r)
			}
		}
	}
}
