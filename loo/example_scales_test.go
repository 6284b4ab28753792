package loo_test

import (
	"fmt"
	"math"
	"slices"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// One length scale per feature, learnt from the isotropic choice of a
// grid: SelectNystrom chooses (σ₀, λ₀) on 40 centres, SelectScales
// starts there and descends on the exact leave-one-out error, here for a
// budget of 15 iterations, then fits every row. The ranking puts the
// features whose scale came out shortest first; the model predicts raw
// rows.
func ExampleSelectScales() {
	x, y := housing(300)
	centers := x.Slice(0, 40, 0, x.Cols)
	grid, err := loo.SelectNystrom{
		Kernel:    func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} },
		Centers:   centers,
		Sigmas:    []float64{1, 2, 4, 8},
		Lambdas:   loo.Geometric(1e-8, 1e-2, 7),
		Intercept: regress.FreeIntercept,
	}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	sel, err := loo.SelectScales{
		Objective: loo.ScaleObjective{Centers: centers, Intercept: regress.FreeIntercept},
		Sigma:     grid.Sigma, Lambda: grid.Lambda, MaxIter: 15,
	}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	pred, err := sel.Fit.Model.Predict(x.Slice(0, 3, 0, x.Cols))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("grid: σ = %g, λ = %.0e, LOO MSE %.1f\n", grid.Sigma, grid.Lambda, grid.Score)
	top := sel.Ranking()[:4]
	slices.Sort(top)
	fmt.Printf("scales: LOO MSE %.1f, the 4 most relevant features %v\n", sel.Objective, top)
	fmt.Printf("predictions %.0f, targets %.0f\n", pred.Data, y.Data[:3])
	// Output:
	// grid: σ = 8, λ = 1e-07, LOO MSE 6.9
	// scales: LOO MSE 5.6, the 4 most relevant features [1 2 10 12]
	// predictions [27 22 33], targets [24 22 35]
}

// The objective and its gradient at one θ = (log σ₁ … log σ_d, log λ):
// every σ_j = 4 and λ = 10⁻⁶. A negative ∂J/∂log σ_j asks for a longer
// scale along feature j.
func ExampleScaleObjective_Evaluate() {
	x, y := housing(300)
	o := loo.ScaleObjective{Centers: x.Slice(0, 40, 0, x.Cols), Intercept: regress.FreeIntercept}
	theta := make([]float64, x.Cols+1)
	for j := 0; j < x.Cols; j++ {
		theta[j] = math.Log(4)
	}
	theta[x.Cols] = math.Log(1e-6)
	ev, err := o.Evaluate(x, y, theta)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("LOO MSE %.2f over %d rows, tr H = %.1f\n", ev.Value, ev.LOORows, ev.DF)
	fmt.Printf("∂J/∂log σ_3 = %.3f, ∂J/∂log σ_12 = %.3f, ∂J/∂log λ = %.3f\n", ev.Gradient[3], ev.Gradient[12], ev.Gradient[13])
	// Output:
	// LOO MSE 7.16 over 300 rows, tr H = 36.1
	// ∂J/∂log σ_3 = -0.621, ∂J/∂log σ_12 = -0.074, ∂J/∂log λ = -0.095
}

// The three passes of one evaluation on two workers, as a pipeline runs
// them: each pass on each worker's rows, the sums encoded, decoded by the
// driver and merged. Pass 0 gives the statistics, from which every worker
// builds the same path; pass A sums the leave-one-out rows (here every
// row), pass B the adjoint. The result is Evaluate's, to the rounding of
// the statistics' merge.
func ExampleScaleAdjoint_MarshalBinary() {
	x, y := housing(300)
	o := loo.ScaleObjective{Centers: x.Slice(0, 40, 0, x.Cols), Intercept: regress.FreeIntercept}
	theta := make([]float64, x.Cols+1)
	for j := 0; j < x.Cols; j++ {
		theta[j] = math.Log(4)
	}
	theta[x.Cols] = math.Log(1e-6)
	parts := [][2]int{{0, 150}, {150, 300}}
	rows := func(a *linalg.Dense, k int) *linalg.Dense { return a.Slice(parts[k][0], parts[k][1], 0, a.Cols) }
	check := func(err error) {
		if err != nil {
			panic(err)
		}
	}

	// Pass 0: each worker's statistics, merged by the driver.
	stats, err := o.NewStats(theta)
	check(err)
	for k := range parts {
		w, err := o.NewStats(theta) // on worker k
		check(err)
		check(w.Add(rows(x, k), rows(y, k)))
		b, err := w.MarshalBinary()
		check(err)
		part, err := o.NewStats(theta) // on the driver
		check(err)
		check(part.UnmarshalBinary(b))
		if k == 0 {
			stats = part
		} else {
			check(stats.Merge(part))
		}
	}
	path, err := loo.NewScalePath(stats) // every worker builds the same path
	check(err)

	// Pass A over the rows of S, every row here.
	sums, err := path.NewLOO()
	check(err)
	for k := range parts {
		w, err := path.NewLOO()
		check(err)
		check(w.Add(rows(x, k), rows(y, k)))
		b, err := w.MarshalBinary()
		check(err)
		part, err := path.NewLOO()
		check(err)
		check(part.UnmarshalBinary(b))
		check(sums.Merge(part))
	}

	// Pass B over every row.
	adj, err := path.NewAdjoint(sums)
	check(err)
	for k := range parts {
		w, err := path.NewAdjoint(sums)
		check(err)
		check(w.Add(rows(x, k), rows(y, k), nil))
		b, err := w.MarshalBinary()
		check(err)
		part, err := path.NewAdjoint(sums)
		check(err)
		check(part.UnmarshalBinary(b))
		check(adj.Merge(part))
	}
	got, err := adj.Result()
	check(err)
	want, err := o.Evaluate(x, y, theta)
	check(err)
	var diff, size float64 // the largest difference, and the largest entry
	for j, g := range got.Gradient {
		diff, size = max(diff, math.Abs(g-want.Gradient[j])), max(size, math.Abs(want.Gradient[j]))
	}
	fmt.Printf("LOO MSE %.2f over %d rows; gradient as Evaluate's to 1e-6: %v\n", got.Value, got.LOORows, diff < 1e-6*size)
	// Output:
	// LOO MSE 7.16 over 300 rows; gradient as Evaluate's to 1e-6: true
}

// A model fitted on standardized rows with learnt scales predicts raw
// rows through one standardization: the caller's (Mean μ, Scale s)
// composed with the scales σ is (Mean μ, Scale s∘σ).
func ExampleComposeScales() {
	std := &kernels.Standardization{Mean: []float64{1, 10}, Scale: []float64{2, 5}}
	c, err := loo.ComposeScales(std, []float64{0.5, 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("mean %v, scale %v\n", c.Mean, c.Scale)
	// Output:
	// mean [1 10], scale [1 20]
}

// Features ranked by their learnt scales: the shortest scale first, a
// constant feature (held at σ₀) last.
func ExampleScaleSelection_Ranking() {
	sel := &loo.ScaleSelection{Sigmas: []float64{40, 0.8, 2, 2.5, 900}, Constant: []int{2}}
	fmt.Println(sel.Ranking())
	// Output:
	// [1 3 0 4 2]
}

// The leave-one-out mean over a subset of the rows, streamed: pass A runs
// on the rows SubsetRows names, and pass B over every row marks them.
func ExampleScaleObjective_SubsetRows() {
	x, y := housing(300)
	o := loo.ScaleObjective{Centers: x.Slice(0, 40, 0, x.Cols), Intercept: regress.FreeIntercept, Subset: 100, Seed: 3}
	theta := make([]float64, x.Cols+1)
	for j := 0; j < x.Cols; j++ {
		theta[j] = math.Log(2)
	}
	theta[x.Cols] = math.Log(1e-5)
	idx := o.SubsetRows(x.Rows)
	mark := make([]bool, x.Rows)
	sx, sy := linalg.NewDense(len(idx), x.Cols, nil), linalg.NewDense(len(idx), 1, nil)
	for r, i := range idx {
		mark[i] = true
		copy(sx.Row(r), x.Row(i))
		copy(sy.Row(r), y.Row(i))
	}
	stats, err := o.NewStats(theta)
	if err == nil {
		err = stats.Add(x, y)
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	path, err := loo.NewScalePath(stats)
	if err != nil {
		fmt.Println(err)
		return
	}
	sums, err := path.NewLOO()
	if err == nil {
		err = sums.Add(sx, sy)
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	adj, err := path.NewAdjoint(sums)
	if err == nil {
		err = adj.Add(x, y, mark)
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	ev, err := adj.Result()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d rows of S, the first %v; LOO MSE %.1f ± %.1f, ∂J/∂log λ = %.2f\n", len(idx), idx[:3], ev.Value, ev.StdErr, ev.Gradient[x.Cols])
	// Output:
	// 100 rows of S, the first [0 2 3]; LOO MSE 8.3 ± 1.4, ∂J/∂log λ = -0.36
}

// The fit at one θ, read from its path: a model of the Gaussian kernel of
// width 1 on the centres divided by σ, whose Standardization (Mean 0,
// Scale σ) lets it predict raw rows.
func ExampleScalePath_Fit() {
	x, y := housing(300)
	o := loo.ScaleObjective{Centers: x.Slice(0, 40, 0, x.Cols), Intercept: regress.FreeIntercept}
	theta := make([]float64, x.Cols+1)
	for j := 0; j < x.Cols; j++ {
		theta[j] = math.Log(2)
	}
	theta[x.Cols] = math.Log(1e-5)
	stats, err := o.NewStats(theta)
	if err == nil {
		err = stats.Add(x, y)
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	path, err := loo.NewScalePath(stats)
	if err != nil {
		fmt.Println(err)
		return
	}
	fit, err := path.Fit()
	if err != nil {
		fmt.Println(err)
		return
	}
	pred, err := fit.Model.Predict(x.Slice(0, 3, 0, x.Cols))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("scale %v, predictions %.0f, targets %.0f\n", fit.Model.Standardization.Scale[:2], pred.Data, y.Data[:3])
	// Output:
	// scale [2 2], predictions [27 23 34], targets [24 22 35]
}

// The descent of SelectScales on an objective evaluated elsewhere: here
// each evaluation runs the three passes of the objective by hand, as the
// workers of a pipeline would run them on shards of the rows (pass 0,
// the path, pass A over S, pass B over every row), and Descend drives
// L-BFGS on them. The model is then the path's fit at the θ found, with
// the caller's standardization composed.
func ExampleSelectScales_Descend() {
	x, y := housing(200)
	obj := loo.ScaleObjective{Centers: x.Slice(0, 25, 0, x.Cols), Intercept: regress.FreeIntercept}
	passes := func(theta []float64) (*loo.ScaleEval, *loo.ScalePath, error) {
		st, err := obj.NewStats(theta)
		if err != nil {
			return nil, nil, err
		}
		if err := st.Add(x, y); err != nil { // pass 0
			return nil, nil, err
		}
		path, err := loo.NewScalePath(st)
		if err != nil {
			return nil, nil, err
		}
		a, err := path.NewLOO()
		if err == nil {
			err = a.Add(x, y) // pass A: S is every row
		}
		if err != nil {
			return nil, nil, err
		}
		ad, err := path.NewAdjoint(a)
		if err == nil {
			err = ad.Add(x, y, nil) // pass B
		}
		if err != nil {
			return nil, nil, err
		}
		ev, err := ad.Result()
		return ev, path, err
	}
	ss := loo.SelectScales{Objective: obj, Sigma: 8, Lambda: 1e-6, MaxIter: 8}
	sel, theta, err := ss.Descend(x.Cols, nil, func(theta []float64) (*loo.ScaleEval, error) {
		ev, _, err := passes(theta)
		return ev, err
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	_, path, err := passes(theta)
	if err != nil {
		fmt.Println(err)
		return
	}
	fit, err := path.Fit()
	if err != nil {
		fmt.Println(err)
		return
	}
	same, err := ss.Fit(x, y) // the same descent on the rows in memory
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("LOO MSE %.1f → %.1f in %d iterations\n", sel.Start, sel.Objective, sel.Iterations)
	fmt.Printf("as SelectScales.Fit: %v; the model's coefficients %v\n", slices.Equal(sel.Sigmas, same.Sigmas), slices.Equal(fit.Model.Coef.Data, same.Fit.Model.Coef.Data))
	// Output:
	// LOO MSE 10.4 → 5.4 in 8 iterations
	// as SelectScales.Fit: true; the model's coefficients true
}

// The rows a descent with Rows fits on, drawn with the objective's seed:
// a pipeline gathers these rows, runs Descend on them in memory, and
// fits the scales on every row.
func ExampleSelectScales_DescentRows() {
	ss := loo.SelectScales{Objective: loo.ScaleObjective{Seed: 1}, Rows: 30}
	idx, err := ss.DescentRows(40)
	fmt.Println(len(idx), idx[:5], err)
	idx, err = ss.DescentRows(30)
	fmt.Println(idx == nil, err) // every row
	ss.Rows = 20                 // below loo.MinDescentRows: 30 rows, or twice the centres
	_, err = ss.DescentRows(40)
	fmt.Println(err != nil)
	// Output:
	// 30 [0 1 2 3 5] <nil>
	// true <nil>
	// true
}
