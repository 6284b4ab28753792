package classify_test

import (
	"fmt"
	"math"

	"rkhs/classify"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// twoRings returns points on two circles, radius 1 (label 0) and 3
// (label 1): no line separates them, a Gaussian kernel of the right width
// does.
func twoRings(n int) (*linalg.Dense, []float64) {
	x := linalg.NewDense(n, 2, nil)
	y := make([]float64, n)
	for i := range n {
		r := 1.0 + 2*float64(i%2)
		a := float64(i) * 0.7
		x.Set(i, 0, r*math.Cos(a))
		x.Set(i, 1, r*math.Sin(a))
		y[i] = float64(i % 2)
	}
	return x, y
}

// σ and λ of RLS classification chosen by the leave-one-out error rate.
func ExampleSelectRLS_Fit() {
	x, y := twoRings(60)
	sel, err := classify.SelectRLS{
		Kernel:    func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} },
		Sigmas:    []float64{0.01, 1, 100},
		Lambdas:   loo.Geometric(1e-6, 1e-2, 3),
		Intercept: regress.FreeIntercept,
	}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("σ = %g, λ = %g: leave-one-out error %.2f\n", sel.Sigma, sel.Lambda, sel.Score)
	p, _ := sel.Model.Predict(linalg.NewDense(2, 2, []float64{0, 1, 3, 0}))
	fmt.Println(p)
	// Output:
	// σ = 1, λ = 1e-06: leave-one-out error 0.00
	// [0 1]
}

// The same choice on Nyström features, the rows streamed.
func ExampleSelectNystrom_Fit() {
	x, y := twoRings(60)
	sel, err := classify.SelectNystrom{Selection: loo.SelectNystrom{
		Kernel:    func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} },
		Centers:   x.Slice(0, 20, 0, 2).Clone(),
		Sigmas:    []float64{0.01, 1, 100},
		Lambdas:   loo.Geometric(1e-6, 1e-2, 3),
		Intercept: regress.FreeIntercept,
	}}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("σ = %g, %v %.2f\n", sel.Sigma, sel.Criterion, sel.Score)
	p, _ := sel.Classifier.Predict(linalg.NewDense(2, 2, []float64{0, 1, 3, 0}))
	fmt.Println(p)
	// Output:
	// σ = 1, loo_error 0.00
	// [0 1]
}

// A label with as many values as rows is a continuous target, not classes.
func ExampleCheckClasses() {
	prices := []float64{210, 198.5, 305, 240, 199, 410, 385, 260}
	n := len(prices)
	fmt.Println(classify.CheckClasses(classify.CountClasses(prices), n, 4))
	fmt.Println(classify.CheckClasses(classify.CountClasses([]float64{0, 1, 1, 0, 1, 0, 0, 1}), n, 0))
	fmt.Println(classify.MaxClasses(80), classify.MaxClasses(1000))
	// Output:
	// classify: invalid input: CheckClasses: labels: 8 distinct labels in 8 rows, more than 4: this looks like a continuous target (regression), not classes
	// <nil>
	// 20 100
}

// One length scale per feature, from the isotropic choice of a grid: the
// two rings with a third feature of noise. The descent lengthens the
// noise's scale until it no longer matters, and ranks it last.
func ExampleSelectScales_Fit() {
	rings, y := twoRings(60)
	x := linalg.NewDense(60, 3, nil)
	for i := range 60 {
		copy(x.Row(i), rings.Row(i))
		x.Set(i, 2, 3*math.Sin(float64(i)*1.9)) // noise
	}
	centers := x.Slice(0, 20, 0, 3).Clone()
	grid, err := classify.SelectNystrom{Selection: loo.SelectNystrom{
		Kernel:    func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} },
		Centers:   centers,
		Sigmas:    []float64{0.5, 1, 2},
		Lambdas:   loo.Geometric(1e-6, 1e-2, 3),
		Intercept: regress.FreeIntercept,
	}}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	sel, err := classify.SelectScales{Selection: loo.SelectScales{
		Objective: loo.ScaleObjective{Centers: centers, Intercept: regress.FreeIntercept},
		Sigma:     grid.Sigma, Lambda: grid.Lambda,
	}}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("grid: σ = %g, %v %.2f\n", grid.Sigma, grid.Criterion, grid.Score)
	fmt.Printf("scales: loo_error %.2f, the noise ranked last: %v, its σ over 10× the rings': %v\n",
		sel.ErrorRate, sel.Ranking()[2] == 2, sel.Sigmas[2] > 10*max(sel.Sigmas[0], sel.Sigmas[1]))
	p, _ := sel.Classifier.Predict(linalg.NewDense(2, 3, []float64{0, 1, 2, 3, 0, -2}))
	fmt.Println(p)
	// Output:
	// grid: σ = 2, loo_error 0.00
	// scales: loo_error 0.00, the noise ranked last: true, its σ over 10× the rings': true
	// [0 1]
}

// MissingClasses names the classes a subset of the rows never holds: here
// class 2, on rows 4 and 5 only, which the subset {0, 1, 2, 3} misses.
func ExampleMissingClasses() {
	labels := []float64{0, 1, 0, 1, 2, 2}
	fmt.Println(classify.MissingClasses(labels, []int{0, 1, 2, 3}))
	fmt.Println(classify.MissingClasses(labels, nil))
	// Output:
	// [2]
	// []
}

// DescribeMissing words MissingClasses for a command's warning.
func ExampleDescribeMissing() {
	labels := []float64{0, 1, 0, 1, 2, 2}
	fmt.Println(classify.DescribeMissing(labels, []int{0, 1, 2, 3}))
	// Output:
	// the 4 rows drawn at random (-seed) of the 6 hold no row of class 2, so the choice never measures its error there
}

// DescribeMissingOf words the classes a streamed selection found missing
// from the rows it drew, without every row's label.
func ExampleDescribeMissingOf() {
	fmt.Println(classify.DescribeMissingOf([]float64{2, 7}, 40, 1000))
	// Output:
	// the 40 rows drawn at random (-seed) of the 1000 hold no row of classes 2, 7, so the choice never measures its error there
}
