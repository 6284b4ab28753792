package optimize

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"rkhs/internal/testmat"
	"rkhs/linalg"
)

// The test functions, each with its exact gradient (TestGradients checks
// them against central differences).

// rosenbrock is Σᵢ 100(xᵢ₊₁ − xᵢ²)² + (1 − xᵢ)², minimum 0 at (1, …, 1).
func rosenbrock(x, g []float64) float64 {
	clear(g)
	f := 0.0
	for i := 0; i+1 < len(x); i++ {
		a, b := x[i+1]-x[i]*x[i], 1-x[i]
		f += 100*a*a + b*b
		g[i] += -400*x[i]*a - 2*b
		g[i+1] += 200 * a
	}
	return f
}

// rosenStart is the classic start (−1.2, 1, −1.2, 1, …).
func rosenStart(d int) []float64 {
	x := make([]float64, d)
	for i := range x {
		x[i] = 1
		if i%2 == 0 {
			x[i] = -1.2
		}
	}
	return x
}

// beale has its minimum 0 at (3, 0.5).
func beale(x, g []float64) float64 {
	u, v := x[0], x[1]
	t1, t2, t3 := 1.5-u+u*v, 2.25-u+u*v*v, 2.625-u+u*v*v*v
	g[0] = 2*t1*(v-1) + 2*t2*(v*v-1) + 2*t3*(v*v*v-1)
	g[1] = 2*t1*u + 4*t2*u*v + 6*t3*u*v*v
	return t1*t1 + t2*t2 + t3*t3
}

// powell is Powell's singular function, minimum 0 at 0, where its Hessian
// is singular.
func powell(x, g []float64) float64 {
	a, b, c, d := x[0]+10*x[1], x[2]-x[3], x[1]-2*x[2], x[0]-x[3]
	g[0] = 2*a + 40*d*d*d
	g[1] = 20*a + 4*c*c*c
	g[2] = 10*b - 8*c*c*c
	g[3] = -10*b - 40*d*d*d
	return a*a + 5*b*b + c*c*c*c + 10*d*d*d*d
}

// quadratic returns ½(x − c)ᵀA(x − c), whose minimum without bounds is 0
// at c.
func quadratic(a *linalg.Dense, c []float64) Objective {
	return func(x, g []float64) float64 {
		r := make([]float64, len(x))
		for i := range x {
			r[i] = x[i] - c[i]
		}
		f := 0.0
		for i := range x {
			g[i] = linalg.Dot(a.Row(i), r)
			f += 0.5 * r[i] * g[i]
		}
		return f
	}
}

// illConditioned returns A = Q·diag(λ)·Qᵀ, λ geometric from 1 to 10⁴
// (κ = 10⁴), and a random c.
func illConditioned(d int) (a *linalg.Dense, c []float64) {
	rnd := rand.New(rand.NewPCG(1, 2))
	spec := testmat.GeometricSpectrum(d, 1e4)
	for i := range spec {
		spec[i] *= 1e4
	}
	m := linalg.Dense(testmat.WithSpectrum(rnd, spec, 0))
	c = make([]float64, d)
	for i := range c {
		c[i] = rnd.NormFloat64()
	}
	return &m, c
}

// TestGradients: the gradients of the test functions agree with central
// differences to 1e-6 relative, so the known-answer tests below test the
// minimizer, not the test functions.
func TestGradients(t *testing.T) {
	a, c := illConditioned(6)
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		f    Objective
		d    int
	}{{"rosenbrock", rosenbrock, 5}, {"beale", beale, 2}, {"powell", powell, 4}, {"quadratic", quadratic(a, c), 6}} {
		x := make([]float64, tc.d)
		for i := range x {
			x[i] = rnd.Float64()*2 - 0.5
		}
		g, scratch := make([]float64, tc.d), make([]float64, tc.d)
		tc.f(x, g)
		for i := range x {
			const h = 1e-6
			xp, xm := slices.Clone(x), slices.Clone(x)
			xp[i] += h
			xm[i] -= h
			fd := (tc.f(xp, scratch) - tc.f(xm, scratch)) / (2 * h)
			if math.Abs(fd-g[i]) > 1e-6*math.Max(1, math.Abs(g[i])) {
				t.Errorf("%s: gradient[%d] = %v, central difference %v", tc.name, i, g[i], fd)
			}
		}
	}
}

// TestKnownMinima: the classic functions reach their known minima, with
// the stop reason and an evaluation budget that a regression in the line
// search or the memory would exceed.
func TestKnownMinima(t *testing.T) {
	a, c := illConditioned(10)
	tight := LBFGS{GradTol: 1e-9, Tol: 1e-20}
	for _, tc := range []struct {
		name     string
		opt      LBFGS
		f        Objective
		x0, want []float64
		tol      float64 // on ‖x − want‖∞
		maxEvals int
	}{
		{"rosenbrock-2", tight, rosenbrock, rosenStart(2), []float64{1, 1}, 1e-8, 60},
		{"rosenbrock-10", tight, rosenbrock, rosenStart(10), slices.Repeat([]float64{1}, 10), 1e-8, 130},
		{"quadratic κ=1e4", LBFGS{GradTol: 1e-8, Tol: 1e-30}, quadratic(a, c), make([]float64, 10), c, 1e-8, 260},
		{"beale", tight, beale, []float64{1, 1}, []float64{3, 0.5}, 1e-8, 40},
		{"powell", LBFGS{GradTol: 1e-10, Tol: 1e-30}, powell, []float64{3, -1, 0, 1}, make([]float64, 4), 2e-3, 120},
	} {
		res, err := tc.opt.Minimize(tc.f, tc.x0, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		t.Logf("%-16s %3d iterations %3d evaluations, f = %.3g, ‖pg‖∞ = %.2g, %v", tc.name, res.Iterations, res.Evaluations, res.F, res.ProjGrad, res.Stop)
		if e := maxDiff(res.X, tc.want); e > tc.tol {
			t.Errorf("%s: ‖x − x⋆‖∞ = %.3g, want ≤ %.3g (x = %v)", tc.name, e, tc.tol, res.X)
		}
		if res.Stop != StopGradTol {
			t.Errorf("%s: stopped by %v, want %v", tc.name, res.Stop, StopGradTol)
		}
		if res.Evaluations > tc.maxEvals {
			t.Errorf("%s: %d evaluations, want ≤ %d", tc.name, res.Evaluations, tc.maxEvals)
		}
		if res.NonFinite != 0 {
			t.Errorf("%s: %d non-finite evaluations, want 0", tc.name, res.NonFinite)
		}
		g := make([]float64, len(res.X))
		if f := tc.f(res.X, g); f != res.F || !slices.Equal(g, res.Grad) {
			t.Errorf("%s: Result holds f = %v and its gradient %v; f(X) = %v, ∇f(X) = %v", tc.name, res.F, res.Grad, f, g)
		}
	}
}

func maxDiff(x, y []float64) float64 {
	m := 0.0
	for i := range x {
		m = math.Max(m, math.Abs(x[i]-y[i]))
	}
	return m
}

// TestSeparableBox: Σ wᵢ(xᵢ − cᵢ)² with c partly outside the box, widely
// varying weights: the minimum is the projection of c onto the box, found
// exactly; half of c lies outside, so a minimizer that ignored the box
// would miss it.
func TestSeparableBox(t *testing.T) {
	c := []float64{-3, 0.5, 2, -0.25, 7, 0.9, 2, 3}
	w := []float64{1, 10, 100, 1e3, 0.1, 1, 5, 1e-2}
	lo := []float64{-1, -1, -1, -1, 0, 0, math.Inf(-1), 0}
	hi := []float64{1, 1, 1, 1, 5, 5, 0, 0} // the last variable is fixed
	f := func(x, g []float64) float64 {
		s := 0.0
		for i := range x {
			g[i] = 2 * w[i] * (x[i] - c[i])
			s += w[i] * (x[i] - c[i]) * (x[i] - c[i])
		}
		return s
	}
	want := make([]float64, len(c))
	outside := 0
	for i := range c {
		want[i] = clamp(c[i], lo[i], hi[i])
		if want[i] != c[i] {
			outside++
		}
	}
	x0 := []float64{0.5, 0.5, 0.5, 0.5, 1, 1, -5, 0}
	res, err := LBFGS{GradTol: 1e-10, Tol: 1e-20}.Minimize(f, x0, lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d iterations, %d evaluations, %v", res.Iterations, res.Evaluations, res.Stop)
	if outside < 5 {
		t.Fatalf("only %d of c outside the box: the test would not see a box ignored", outside)
	}
	for i := range want {
		if math.Abs(res.X[i]-want[i]) > 1e-9 {
			t.Errorf("x[%d] = %v, want the projection %v", i, res.X[i], want[i])
		}
	}
	if !converged(res.Stop) || res.Evaluations > 25 {
		t.Errorf("stopped by %v after %d evaluations, want %v or %v within 25", res.Stop, res.Evaluations, StopGradTol, StopLineSearch)
	}
}

// converged reports whether a run with a Tol too small to stop it ended
// on the gradient test, or on the line search once f's decreases fell
// below its rounding errors, which the box tests, whose minima are not 0,
// can reach before GradTol; the tests check the answer itself.
func converged(r StopReason) bool { return r == StopGradTol || r == StopLineSearch }

// boxQP solves min ½xᵀAx − bᵀx over lo ≤ x ≤ hi by brute force, for A
// positive definite: for each of the 3^d assignments of every variable to
// its lower bound, its upper bound or free, it solves A_FF·x_F = b_F −
// A_FB·x_B and returns the x that is inside the box and satisfies the KKT
// conditions — the unique minimizer — with its number of variables at a
// bound.
func boxQP(t *testing.T, a *linalg.Dense, b, lo, hi []float64) (x []float64, active int) {
	d := len(b)
	state := make([]int, d) // 0 free, 1 at lo, 2 at hi
	for {
		x = make([]float64, d)
		var free []int
		for i, s := range state {
			switch s {
			case 0:
				free = append(free, i)
			case 1:
				x[i] = lo[i]
			case 2:
				x[i] = hi[i]
			}
		}
		aff := linalg.NewDense(len(free), len(free), nil)
		rhs := make([]float64, len(free))
		for p, i := range free {
			rhs[p] = b[i]
			for j := range d {
				if state[j] != 0 {
					rhs[p] -= a.At(i, j) * x[j]
				}
			}
			for q, j := range free {
				aff.Set(p, q, a.At(i, j))
			}
		}
		var ch linalg.Cholesky
		if len(free) > 0 {
			if err := ch.Factorize(aff); err != nil {
				t.Fatal(err)
			}
			for p, v := range ch.SolveVecTo(nil, rhs) {
				x[free[p]] = v
			}
		}
		ok := true
		for i := range d {
			g := linalg.Dot(a.Row(i), x) - b[i]
			switch state[i] {
			case 0:
				ok = ok && x[i] > lo[i] && x[i] < hi[i]
			case 1:
				ok = ok && g >= 0
			case 2:
				ok = ok && g <= 0
			}
		}
		if ok {
			return x, d - len(free)
		}
		i := 0
		for ; i < d && state[i] == 2; i++ {
			state[i] = 0
		}
		if i == d {
			t.Fatal("boxQP: no assignment satisfies the KKT conditions")
		}
		state[i]++
	}
}

// TestCoupledBox: a non-separable quadratic, κ = 10⁴, on a box that cuts
// off its unconstrained minimum: the minimizer equals the brute-force
// solution, and at it each variable at a bound has its gradient pointing
// out of the box, each free one a gradient near 0 (KKT): below 10⁻⁸ of the
// starting gradient ‖b‖∞. That is what rounding allows: with eigenvalues
// up to 10⁴, an x within 10⁻⁸ of x⋆ (where f stops changing in double
// precision) has gradient entries up to 10⁻⁴, and which last bits a build
// rounds (fused multiply-adds on arm64 and x86-64-v3) moves them. The box
// holds several variables at bounds, so ignoring it fails the test.
func TestCoupledBox(t *testing.T) {
	a, c := illConditioned(6)
	b := make([]float64, len(c)) // the gradient is A·x − b
	for i := range b {
		b[i] = linalg.Dot(a.Row(i), c)
	}
	lo := []float64{-0.5, -0.5, -0.5, -0.5, -0.5, -0.5}
	hi := []float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5}
	want, active := boxQP(t, a, b, lo, hi)
	var gtol float64 // 10⁻⁸ of the gradient at the start, x = 0
	for _, v := range b {
		gtol = max(gtol, 1e-8*math.Abs(v))
	}
	if active < 2 || maxDiff(want, c) < 0.1 {
		t.Fatalf("%d variables at bounds, unconstrained minimum %v: the box must matter", active, c)
	}
	res, err := LBFGS{GradTol: 1e-9, Tol: 1e-20}.Minimize(quadratic(a, c), make([]float64, 6), lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d at bounds; %d iterations, %d evaluations, %v, ‖x − x⋆‖∞ = %.2g", active, res.Iterations, res.Evaluations, res.Stop, maxDiff(res.X, want))
	if e := maxDiff(res.X, want); e > 1e-7 {
		t.Errorf("x = %v, brute force %v (‖·‖∞ %.3g)", res.X, want, e)
	}
	for i, x := range res.X {
		g := res.Grad[i]
		switch {
		case x < lo[i] || x > hi[i]:
			t.Errorf("x[%d] = %v outside [%v, %v]", i, x, lo[i], hi[i])
		case x == lo[i] && g < 0, x == hi[i] && g > 0:
			t.Errorf("x[%d] = %v at a bound with gradient %v pointing into the box", i, x, g)
		case x > lo[i] && x < hi[i] && math.Abs(g) > gtol:
			t.Errorf("x[%d] = %v free with gradient %v (tolerance %.2g)", i, x, g, gtol)
		}
	}
	if !converged(res.Stop) || res.Evaluations > 70 {
		t.Errorf("stopped by %v after %d evaluations, want %v or %v within 70", res.Stop, res.Evaluations, StopGradTol, StopLineSearch)
	}
}

// TestRosenbrockBox: Rosenbrock with x ≤ 0.5 has its minimum at
// (0.5, 0.25), f = 0.25, where ∂f/∂x = −1 points out of the box.
func TestRosenbrockBox(t *testing.T) {
	res, err := LBFGS{GradTol: 1e-9, Tol: 1e-20}.Minimize(rosenbrock, []float64{-1.2, 1}, []float64{-2, -2}, []float64{0.5, 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d iterations, %d evaluations, %v", res.Iterations, res.Evaluations, res.Stop)
	if maxDiff(res.X, []float64{0.5, 0.25}) > 1e-9 || math.Abs(res.F-0.25) > 1e-12 || math.Abs(res.Grad[0]+1) > 1e-8 {
		t.Errorf("x = %v, f = %v, ∇f = %v; want (0.5, 0.25), 0.25, (−1, 0)", res.X, res.F, res.Grad)
	}
	if res.Stop != StopGradTol || res.Evaluations > 60 {
		t.Errorf("stopped by %v after %d evaluations, want %v within 60", res.Stop, res.Evaluations, StopGradTol)
	}
}

// TestLinearCorner: a linear objective cᵀx has its minimum at the corner
// of the box where xᵢ = loᵢ for cᵢ > 0 and hiᵢ for cᵢ < 0. The line search
// extrapolates until the direction meets the box and accepts that step on
// the sufficient decrease alone.
func TestLinearCorner(t *testing.T) {
	c := []float64{1, -2, 0.5}
	f := func(x, g []float64) float64 { copy(g, c); return linalg.Dot(c, x) }
	res, err := LBFGS{}.Minimize(f, []float64{0, 1, 0}, []float64{-1, 0, -2}, []float64{1, 3, 5})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d iterations, %d evaluations, %v", res.Iterations, res.Evaluations, res.Stop)
	if !slices.Equal(res.X, []float64{-1, 3, -2}) || res.ProjGrad != 0 || res.Stop != StopGradTol || res.Evaluations > 12 {
		t.Errorf("x = %v, ‖pg‖∞ = %v, stopped by %v after %d evaluations; want (−1, 3, −2), 0, %v within 12",
			res.X, res.ProjGrad, res.Stop, res.Evaluations, StopGradTol)
	}
}

// TestUnboundedBelow: −x without bounds decreases forever; each line
// search extrapolates through its whole budget and takes its last step,
// and the run ends on MaxIter, not an error.
func TestUnboundedBelow(t *testing.T) {
	f := func(x, g []float64) float64 { g[0] = -1; return -x[0] }
	res, err := LBFGS{MaxIter: 3}.Minimize(f, []float64{0}, nil, nil)
	// Each search tries 1, 4, …, 4¹⁹, and takes 4¹⁹ = 2³⁸.
	if err != nil || res.Stop != StopMaxIter || res.Iterations != 3 || res.Evaluations != 1+3*defaultMaxLineSearch || res.F != -3*0x1p38 {
		t.Errorf("%v: f = %v, stopped by %v after %d iterations, %d evaluations; want −3·2³⁸, %v after 3, %d",
			err, res.F, res.Stop, res.Iterations, res.Evaluations, StopMaxIter, 1+3*defaultMaxLineSearch)
	}
}

// TestLineSearchBudget: MaxLineSearch bounds the evaluations of every
// iteration (twice over when a failed search is retried from steepest
// descent), f decreases at every iteration, and a budget of 3 is enough
// for Rosenbrock.
func TestLineSearchBudget(t *testing.T) {
	for _, budget := range []int{1, 2, 3} {
		evals, last, worst := 0, 1, 0
		fs := []float64{rosenbrock(rosenStart(10), make([]float64, 10))}
		f := func(x, g []float64) float64 { evals++; return rosenbrock(x, g) }
		cb := func(_ int, _ []float64, f, _ float64) bool {
			worst, last = max(worst, evals-last), evals
			fs = append(fs, f)
			return true
		}
		res, err := LBFGS{MaxLineSearch: budget, GradTol: 1e-9, Tol: 1e-20, Callback: cb}.Minimize(f, rosenStart(10), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("budget %d: %d iterations, %d evaluations, at most %d an iteration, %v, f = %.3g", budget, res.Iterations, res.Evaluations, worst, res.Stop, res.F)
		if worst > 2*budget || res.Evaluations-last > 2*budget {
			t.Errorf("budget %d: %d evaluations in one iteration, %d after the last; want ≤ %d", budget, worst, res.Evaluations-last, 2*budget)
		}
		for i := 1; i < len(fs); i++ {
			if !(fs[i] < fs[i-1]) {
				t.Errorf("budget %d: f rose from %v to %v at iteration %d", budget, fs[i-1], fs[i], i)
				break
			}
		}
		if budget == 3 && (res.Stop != StopGradTol || maxDiff(res.X, slices.Repeat([]float64{1}, 10)) > 1e-8) {
			t.Errorf("budget 3: stopped by %v at %v, want %v at 1", res.Stop, res.X, StopGradTol)
		}
	}
}

// TestStartOutsideBox: a start outside the box is projected onto it (the
// first evaluation is there), the arguments are left as they were, and
// unbounded sides given as nil, as ±Inf or as a wide box agree.
func TestStartOutsideBox(t *testing.T) {
	x0, lo, hi := []float64{-5, 9}, []float64{-2, -2}, []float64{0.5, 2}
	keep := [][]float64{slices.Clone(x0), slices.Clone(lo), slices.Clone(hi)}
	var first []float64
	f := func(x, g []float64) float64 {
		if first == nil {
			first = slices.Clone(x)
		}
		return rosenbrock(x, g)
	}
	if _, err := (LBFGS{}).Minimize(f, x0, lo, hi); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(first, []float64{-2, 2}) {
		t.Errorf("first evaluation at %v, want the projection (−2, 2)", first)
	}
	for i, v := range [][]float64{x0, lo, hi} {
		if !slices.Equal(v, keep[i]) {
			t.Errorf("argument %d changed: %v, was %v", i, v, keep[i])
		}
	}
	inf := []float64{math.Inf(1), math.Inf(1)}
	r1, _ := LBFGS{}.Minimize(rosenbrock, rosenStart(2), nil, nil)
	r2, _ := LBFGS{}.Minimize(rosenbrock, rosenStart(2), []float64{math.Inf(-1), math.Inf(-1)}, inf)
	if !slices.Equal(r1.X, r2.X) || r1.Evaluations != r2.Evaluations {
		t.Errorf("nil bounds: %v in %d evaluations; infinite bounds: %v in %d", r1.X, r1.Evaluations, r2.X, r2.Evaluations)
	}
}

// TestStopReasons: each stopping rule ends the run where it should.
func TestStopReasons(t *testing.T) {
	x0 := rosenStart(2)
	t.Run("MaxIter", func(t *testing.T) {
		res, _ := LBFGS{MaxIter: 5}.Minimize(rosenbrock, x0, nil, nil)
		if res.Stop != StopMaxIter || res.Iterations != 5 {
			t.Errorf("stopped by %v after %d iterations, want %v after 5", res.Stop, res.Iterations, StopMaxIter)
		}
	})
	t.Run("GradTol at x0", func(t *testing.T) {
		res, _ := LBFGS{}.Minimize(rosenbrock, []float64{1, 1}, nil, nil)
		if res.Stop != StopGradTol || res.Iterations != 0 || res.Evaluations != 1 {
			t.Errorf("stopped by %v after %d iterations and %d evaluations, want %v after 0 and 1", res.Stop, res.Iterations, res.Evaluations, StopGradTol)
		}
	})
	t.Run("Tol", func(t *testing.T) {
		// An offset of 10⁹ makes every decrease below Tol·|f| = 1 while
		// the gradient is still large.
		var last, prev float64
		cb := func(_ int, _ []float64, f, _ float64) bool { prev, last = last, f; return true }
		f := func(x, g []float64) float64 { return 1e9 + rosenbrock(x, g) }
		res, _ := LBFGS{Callback: cb}.Minimize(f, x0, nil, nil)
		if res.Stop != StopTol || res.ProjGrad <= defaultGradTol || prev-last > 1 || res.Iterations < 2 {
			t.Errorf("stopped by %v with ‖pg‖∞ = %v, last decrease %v; want %v with a large gradient and a decrease ≤ 1", res.Stop, res.ProjGrad, prev-last, StopTol)
		}
	})
	t.Run("Callback", func(t *testing.T) {
		var iters []int
		var fs []float64
		cb := func(it int, x []float64, f, pg float64) bool {
			iters, fs = append(iters, it), append(fs, f)
			return it < 3
		}
		res, _ := LBFGS{Callback: cb}.Minimize(rosenbrock, x0, nil, nil)
		if res.Stop != StopCallback || res.Iterations != 3 || !slices.Equal(iters, []int{1, 2, 3}) || res.F != fs[2] {
			t.Errorf("stopped by %v after %d iterations, callback saw %v; want %v after 1, 2, 3", res.Stop, res.Iterations, iters, StopCallback)
		}
		if !(fs[0] > fs[1] && fs[1] > fs[2] && fs[0] < 24.2) {
			t.Errorf("f along the iterations %v, want decreasing from f(x0) = 24.2", fs)
		}
	})
	t.Run("LineSearch at rounding", func(t *testing.T) {
		// At 10²⁰ + x², steps of length up to 10⁴ change f by less than
		// its rounding: the run stops at once, without evaluating them.
		f := func(x, g []float64) float64 { g[0] = 2 * x[0]; return 1e20 + x[0]*x[0] }
		res, err := LBFGS{}.Minimize(f, []float64{1}, nil, nil)
		if err != nil || res.Stop != StopLineSearch || res.Evaluations != 1 || res.X[0] != 1 {
			t.Errorf("%v: stopped by %v at %v after %d evaluations, want %v at 1 after 1", err, res.Stop, res.X, res.Evaluations, StopLineSearch)
		}
		// A gradient of 10⁻³¹⁰ passes GradTol = 10⁻³²⁰, but the slope
		// gᵀd underflows to 0: no descent to search along.
		f = func(x, g []float64) float64 { g[0] = 1e-310; return 1e-310 * x[0] }
		res, err = LBFGS{GradTol: 1e-320}.Minimize(f, []float64{0}, nil, nil)
		if err != nil || res.Stop != StopLineSearch || res.Evaluations != 1 {
			t.Errorf("underflow: %v: stopped by %v after %d evaluations, want %v after 1", err, res.Stop, res.Evaluations, StopLineSearch)
		}
	})
	t.Run("LineSearch", func(t *testing.T) {
		// A gradient of the wrong sign: no step along −H·g decreases f.
		f := func(x, g []float64) float64 { g[0] = -2 * x[0]; return x[0] * x[0] }
		res, err := LBFGS{}.Minimize(f, []float64{1}, nil, nil)
		if err != nil || res.Stop != StopLineSearch || res.X[0] != 1 || res.F != 1 || res.Evaluations > 1+2*defaultMaxLineSearch {
			t.Errorf("%v: stopped by %v at %v (f = %v) after %d evaluations, want %v at 1 (f = 1) within %d",
				err, res.Stop, res.X, res.F, res.Evaluations, StopLineSearch, 1+2*defaultMaxLineSearch)
		}
	})
}

// TestRelTol: with RelTol the run ends after the first iteration whose
// decrease is at most RelTol·|f|, every earlier one larger, at a point no
// worse than the run without it reaches then; a line search whose steps
// could not decrease f by more ends the run at once; the bound set by
// Tol alone is that of a run without RelTol.
func TestRelTol(t *testing.T) {
	for _, relTol := range []float64{1e-2, 1e-4, 1e-7} {
		// An offset of 1 keeps |f| away from 0, where a relative test is
		// meaningless.
		f := func(x, g []float64) float64 { return 1 + rosenbrock(x, g) }
		var fs []float64
		cb := func(_ int, _ []float64, f, _ float64) bool { fs = append(fs, f); return true }
		res, err := LBFGS{RelTol: relTol, Callback: cb}.Minimize(f, rosenStart(4), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		f0 := f(rosenStart(4), make([]float64, 4))
		fs = append([]float64{f0}, fs...)
		k := len(fs) - 1
		switch {
		case res.Stop == StopRelTol && fs[k-1]-fs[k] <= relTol*math.Abs(fs[k]):
			// ended by an iteration's decrease
		case res.Stop == StopRelTol:
			// ended by a line search with no step above the bound
		default:
			t.Errorf("RelTol %g: stopped by %v, want %v", relTol, res.Stop, StopRelTol)
		}
		for i := 1; i < k; i++ {
			if fs[i-1]-fs[i] <= relTol*math.Abs(fs[i]) {
				t.Errorf("RelTol %g: iteration %d decreased f by %g ≤ RelTol·|f| = %g, but the run went on", relTol, i, fs[i-1]-fs[i], relTol*fs[i])
				break
			}
		}
		t.Logf("RelTol %g: %d iterations, %d evaluations, f − 1 = %.3g", relTol, res.Iterations, res.Evaluations, res.F-1)
	}

	// At 1 + x² from x = 10⁻³ a step can decrease f by at most 10⁻⁶:
	// below RelTol = 10⁻⁵. The first step, α = 1 along −g, is too long
	// (f = 1 + 10⁻⁶), and the bracket [0, 1] it makes can hold a decrease
	// of at most α·|gᵀd| = 4·10⁻⁶: the search ends there.
	f := func(x, g []float64) float64 { g[0] = 2 * x[0]; return 1 + x[0]*x[0] }
	res, err := LBFGS{RelTol: 1e-5}.Minimize(f, []float64{1e-3}, nil, nil)
	if err != nil || res.Stop != StopRelTol || res.Evaluations != 2 || res.X[0] != 1e-3 {
		t.Errorf("%v: stopped by %v at %v after %d evaluations, want %v at 0.001 after 2", err, res.Stop, res.X, res.Evaluations, StopRelTol)
	}
	res, err = LBFGS{}.Minimize(f, []float64{1e-3}, nil, nil)
	if err != nil || res.Stop != StopGradTol || math.Abs(res.X[0]) > 1e-5 {
		t.Errorf("without RelTol: %v: stopped by %v at %v, want %v near 0", err, res.Stop, res.X, StopGradTol)
	}
}

// TestRelTolIters: with a window of w iterations the run ends after the
// first iteration k ≥ w whose last w iterations together decreased f by
// at most RelTol·|f| (or on a line search that could not), none earlier:
// a single short step does not end it; w = 0 is w = 1.
func TestRelTolIters(t *testing.T) {
	f := func(x, g []float64) float64 { return 1 + rosenbrock(x, g) }
	x0 := rosenStart(4)
	run := func(w int, relTol float64) ([]float64, *Result) {
		fs := []float64{f(x0, make([]float64, len(x0)))}
		cb := func(_ int, _ []float64, f, _ float64) bool { fs = append(fs, f); return true }
		res, err := LBFGS{RelTol: relTol, RelTolIters: w, Callback: cb}.Minimize(f, x0, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return fs, res
	}
	for _, tc := range []struct {
		w      int
		relTol float64
	}{{1, 1e-2}, {2, 1e-2}, {3, 1e-2}, {3, 1e-4}, {5, 1e-3}} {
		fs, res := run(tc.w, tc.relTol)
		k := len(fs) - 1
		below := func(i int) bool { return i >= tc.w && fs[i-tc.w]-fs[i] <= tc.relTol*math.Abs(fs[i]) }
		// Ended by the window, or by a line search whose steps could not
		// decrease f by more than RelTol·|f| (see TestRelTol).
		if res.Stop != StopRelTol {
			t.Errorf("w %d, RelTol %g: stopped by %v after %d iterations, want %v", tc.w, tc.relTol, res.Stop, k, StopRelTol)
		}
		for i := 1; i < k; i++ {
			if below(i) {
				t.Errorf("w %d, RelTol %g: the %d iterations to %d decreased f by %g ≤ RelTol·|f|, but the run went on", tc.w, tc.relTol, tc.w, i, fs[i-tc.w]-fs[i])
				break
			}
		}
		t.Logf("w %d, RelTol %g: %d iterations, %d evaluations, f − 1 = %.3g", tc.w, tc.relTol, res.Iterations, res.Evaluations, res.F-1)
	}
	// Some iteration of this run decreases f by less than 1e-2·|f| before
	// the window of 3 does: the window runs longer than w = 1.
	fs1, r1 := run(1, 1e-2)
	_, r3 := run(3, 1e-2)
	if r3.Iterations <= r1.Iterations {
		t.Errorf("RelTol 1e-2: %d iterations with w = 3, %d with w = 1 (values %v): want more with the window", r3.Iterations, r1.Iterations, fs1)
	}
	// w = 0 is w = 1.
	_, r0 := run(0, 1e-2)
	if r0.Iterations != r1.Iterations || !slices.Equal(r0.X, r1.X) {
		t.Errorf("RelTolIters 0: %d iterations at %v, want those of 1: %d at %v", r0.Iterations, r0.X, r1.Iterations, r1.X)
	}
}

// TestRelTolZoom: on a function whose curvature condition is hard to meet
// near its minimum — 1 + x² with a ripple of size 10⁻⁹ and a slope of
// 10⁻² — RelTol = 10⁻⁶ stops the searches from refining steps that cannot
// matter: at most 3/4 of the evaluations of a run without it (24), to a
// value within RelTol of its.
func TestRelTolZoom(t *testing.T) {
	f := func(x, g []float64) float64 {
		g[0] = 2*x[0] + 1e-9*1e7*math.Cos(1e7*x[0])
		return 1 + x[0]*x[0] + 1e-9*math.Sin(1e7*x[0])
	}
	without, err := LBFGS{}.Minimize(f, []float64{3}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	with, err := LBFGS{RelTol: 1e-6}.Minimize(f, []float64{3}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("without RelTol: %v after %d evaluations, f − 1 = %.3g; with: %v after %d, f − 1 = %.3g",
		without.Stop, without.Evaluations, without.F-1, with.Stop, with.Evaluations, with.F-1)
	if with.Stop != StopRelTol || 4*with.Evaluations > 3*without.Evaluations || with.F-without.F > 1e-6*with.F {
		t.Errorf("with RelTol: %v after %d evaluations, f = %v; want %v after at most 3/4 of %d, f within 1e-6 of %v",
			with.Stop, with.Evaluations, with.F, StopRelTol, without.Evaluations, without.F)
	}
}

// TestSlopeOverflow: at f = 10³⁰⁷x² from x = 3 the slope gᵀd = −36·10⁶¹⁴
// overflows, yet the first step, α = 1/‖d‖, is acceptable: the run moves
// and decreases f instead of ending at x0 on the line search.
func TestSlopeOverflow(t *testing.T) {
	f := func(x, g []float64) float64 { g[0] = 2e307 * x[0]; return 1e307 * x[0] * x[0] }
	res, err := LBFGS{}.Minimize(f, []float64{3}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Iterations == 0 || !(res.F < 9e307) || math.Abs(res.X[0]) >= 3 {
		t.Errorf("stopped by %v at %v (f = %v) after %d iterations, want a step from 3 that decreases f from 9e307",
			res.Stop, res.X, res.F, res.Iterations)
	}
	t.Logf("%v at %v after %d iterations, %d evaluations", res.Stop, res.X, res.Iterations, res.Evaluations)
}

// TestLineSearchConditions: the sufficient decrease (armijo) and the
// strong Wolfe curvature condition (strongWolfe) at their boundaries.
func TestLineSearchConditions(t *testing.T) {
	r := &run{settings: settings{c1: 1e-4, c2: 0.9}}
	for _, tc := range []struct {
		name         string
		f0, dec, fa  float64
		d0, da       float64
		armijo, wolf bool
	}{
		{"on both boundaries", 1, -1, 1 - 1e-4, -1, 0.9, true, true},
		{"decrease just short", 1, -1, 1 - 0.99e-4, -1, -0.9, false, true},
		{"slope just steep", 1, -1, 0, -1, -0.9000001, true, false},
		{"slope just positive", 1, -1, 0, -1, 0.9000001, true, false},
		{"NaN value", 1, -1, math.NaN(), -1, 0, false, true},
	} {
		if got := r.armijo(tc.f0, tc.dec, tc.fa); got != tc.armijo {
			t.Errorf("%s: armijo(%v, %v, %v) = %v, want %v", tc.name, tc.f0, tc.dec, tc.fa, got, tc.armijo)
		}
		if got := r.strongWolfe(tc.d0, tc.da); got != tc.wolf {
			t.Errorf("%s: strongWolfe(%v, %v) = %v, want %v", tc.name, tc.d0, tc.da, got, tc.wolf)
		}
	}
}

// TestBacksOffNonFinite: x − log x from x = 10, where the second
// quasi-Newton step is about 80 long and lands where log x is NaN: the
// search backs off from the NaN values instead of failing, and finds
// x = 1. An objective that is NaN everywhere but at x0 ends the run on
// the line search at x0.
func TestBacksOffNonFinite(t *testing.T) {
	f := func(x, g []float64) float64 { g[0] = 1 - 1/x[0]; return x[0] - math.Log(x[0]) }
	res, err := LBFGS{GradTol: 1e-9}.Minimize(f, []float64{10}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d iterations, %d evaluations, %d of them non-finite, %v", res.Iterations, res.Evaluations, res.NonFinite, res.Stop)
	if math.Abs(res.X[0]-1) > 1e-9 || res.Stop != StopGradTol || res.NonFinite == 0 || res.Evaluations > 30 {
		t.Errorf("x = %v, stopped by %v after %d evaluations, %d non-finite; want 1 by %v within 30, some non-finite",
			res.X[0], res.Stop, res.Evaluations, res.NonFinite, StopGradTol)
	}
	nan := func(x, g []float64) float64 {
		g[0] = 2 * x[0]
		if x[0] != 3 {
			return math.NaN()
		}
		return 9
	}
	// Without bounds the Wolfe search backs off; in [2.9, 10] the first
	// step leaves the box and the search along the arc backs off.
	for _, hi := range [][]float64{nil, {10}} {
		var lo []float64
		if hi != nil {
			lo = []float64{2.9}
		}
		res, err = LBFGS{}.Minimize(nan, []float64{3}, lo, hi)
		if err != nil || res.Stop != StopLineSearch || res.X[0] != 3 || res.F != 9 || res.NonFinite != res.Evaluations-1 || res.NonFinite < 10 {
			t.Errorf("NaN beyond x0, box [%v, %v]: %v, stopped by %v at %v (f = %v) with %d of %d evaluations non-finite; want %v at 3 (f = 9), all but the first",
				lo, hi, err, res.Stop, res.X, res.F, res.NonFinite, res.Evaluations, StopLineSearch)
		}
	}
}

// TestDeterministic: two runs give bit-identical results.
func TestDeterministic(t *testing.T) {
	lo, hi := slices.Repeat([]float64{-2}, 10), slices.Repeat([]float64{0.9}, 10)
	for _, box := range [][2][]float64{{nil, nil}, {lo, hi}} {
		r1, err1 := LBFGS{M: 4}.Minimize(rosenbrock, rosenStart(10), box[0], box[1])
		r2, err2 := LBFGS{M: 4}.Minimize(rosenbrock, rosenStart(10), box[0], box[1])
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !slices.Equal(r1.X, r2.X) || !slices.Equal(r1.Grad, r2.Grad) || r1.F != r2.F || r1.Evaluations != r2.Evaluations || r1.Stop != r2.Stop {
			t.Errorf("two runs differ: %+v and %+v", r1, r2)
		}
	}
}

// TestErrors: every invalid argument is an InputError wrapping ErrInput
// that names it; NaN and ±Inf also wrap linalg.ErrNotFinite.
func TestErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	x0 := []float64{0, 0}
	bad := func(v float64) Objective { return func(x, g []float64) float64 { clear(g); return v } }
	badGrad := func(x, g []float64) float64 { g[0], g[1] = 0, inf; return 0 }
	for _, tc := range []struct {
		name       string
		opt        LBFGS
		f          Objective
		x0, lo, hi []float64
		arg        string
		notFinite  bool
	}{
		{"nil f", LBFGS{}, nil, x0, nil, nil, "f", false},
		{"no variables", LBFGS{}, rosenbrock, nil, nil, nil, "x0", false},
		{"x0 NaN", LBFGS{}, rosenbrock, []float64{0, nan}, nil, nil, "x0[1]", true},
		{"x0 Inf", LBFGS{}, rosenbrock, []float64{-inf, 0}, nil, nil, "x0[0]", true},
		{"lo length", LBFGS{}, rosenbrock, x0, []float64{0}, nil, "lo", false},
		{"hi length", LBFGS{}, rosenbrock, x0, nil, []float64{0, 1, 2}, "hi", false},
		{"lo > hi", LBFGS{}, rosenbrock, x0, []float64{0, 2}, []float64{1, 1}, "lo[1]", false},
		{"lo NaN", LBFGS{}, rosenbrock, x0, []float64{nan, 0}, nil, "lo[0]", true},
		{"lo +Inf", LBFGS{}, rosenbrock, x0, []float64{0, inf}, nil, "lo[1]", true},
		{"hi −Inf", LBFGS{}, rosenbrock, x0, nil, []float64{-inf, 0}, "hi[0]", true},
		{"M < 0", LBFGS{M: -1}, rosenbrock, x0, nil, nil, "M", false},
		{"MaxIter < 0", LBFGS{MaxIter: -1}, rosenbrock, x0, nil, nil, "MaxIter", false},
		{"MaxLineSearch < 0", LBFGS{MaxLineSearch: -2}, rosenbrock, x0, nil, nil, "MaxLineSearch", false},
		{"Tol < 0", LBFGS{Tol: -1e-3}, rosenbrock, x0, nil, nil, "Tol", false},
		{"RelTol < 0", LBFGS{RelTol: -1e-3}, rosenbrock, x0, nil, nil, "RelTol", false},
		{"RelTol ≥ 1", LBFGS{RelTol: 1}, rosenbrock, x0, nil, nil, "RelTol", false},
		{"RelTolIters < 0", LBFGS{RelTolIters: -1}, rosenbrock, x0, nil, nil, "RelTolIters", false},
		{"RelTol NaN", LBFGS{RelTol: nan}, rosenbrock, x0, nil, nil, "RelTol", true},
		{"GradTol NaN", LBFGS{GradTol: nan}, rosenbrock, x0, nil, nil, "GradTol", true},
		{"C1 ≥ 1", LBFGS{C1: 1}, rosenbrock, x0, nil, nil, "C1", false},
		{"C2 ≤ C1", LBFGS{C1: 0.5, C2: 0.4}, rosenbrock, x0, nil, nil, "C2", false},
		{"C2 ≥ 1", LBFGS{C2: 1.5}, rosenbrock, x0, nil, nil, "C2", false},
		{"C2 Inf", LBFGS{C2: inf}, rosenbrock, x0, nil, nil, "C2", true},
		{"f NaN at x0", LBFGS{}, bad(nan), x0, nil, nil, "f", true},
		{"f −Inf at x0", LBFGS{}, bad(-inf), x0, nil, nil, "f", true},
		{"gradient Inf at x0", LBFGS{}, badGrad, x0, nil, nil, "f", true},
	} {
		res, err := tc.opt.Minimize(tc.f, tc.x0, tc.lo, tc.hi)
		var ie *linalg.InputError
		switch {
		case res != nil || !errors.As(err, &ie) || !errors.Is(err, ErrInput):
			t.Errorf("%s: %v, %v; want an InputError wrapping ErrInput", tc.name, res, err)
		case ie.Op != "LBFGS.Minimize" || ie.Arg != tc.arg:
			t.Errorf("%s: %v names %s, %s; want LBFGS.Minimize, %s", tc.name, err, ie.Op, ie.Arg, tc.arg)
		case errors.Is(err, linalg.ErrNotFinite) != tc.notFinite:
			t.Errorf("%s: %v: wraps linalg.ErrNotFinite %v, want %v", tc.name, err, !tc.notFinite, tc.notFinite)
		}
	}
	_, err := LBFGS{}.Minimize(badGrad, x0, nil, nil)
	if !strings.Contains(err.Error(), "gradient[1] = +Inf at x0") {
		t.Errorf("%v: want the message to name gradient[1]", err)
	}
}

func TestStopReasonString(t *testing.T) {
	for _, tc := range []struct {
		r    StopReason
		want string
	}{{StopMaxIter, "iterations"}, {StopTol, "tolerance"}, {StopGradTol, "gradient tolerance"},
		{StopLineSearch, "line search"}, {StopCallback, "callback"}, {StopRelTol, "relative tolerance"},
		{StopReason(9), "StopReason(9)"}} {
		if got := tc.r.String(); got != tc.want {
			t.Errorf("StopReason(%d).String() = %q, want %q", int(tc.r), got, tc.want)
		}
	}
}

func BenchmarkLBFGS(b *testing.B) {
	const d = 10
	b.Run("n=10", func(b *testing.B) {
		b.ReportAllocs()
		evals := 0
		for b.Loop() {
			res, err := LBFGS{}.Minimize(rosenbrock, rosenStart(d), nil, nil)
			if err != nil {
				b.Fatal(err)
			}
			evals = res.Evaluations
		}
		b.ReportMetric(float64(evals), "evals/op")
	})
}
