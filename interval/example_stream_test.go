package interval_test

import (
	"fmt"

	"rkhs/interval"
	"rkhs/kernels"
	"rkhs/loo"
	"rkhs/regress"
)

// Streamed CV+ in two passes over the rows, each in blocks as a stream
// gives them; the rows could as well be split over shards (NewFoldStats
// with the shard's first row, then Merge).
func ExampleNewFoldStats() {
	x, y, xt := data(400)
	centers, err := regress.NystromCenters(x, 15, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	k := kernels.Gaussian{Sigma: 1}
	fs, err := interval.NewFoldStats([]kernels.Kernel{k}, centers, 10, 7, 0)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := 0; i < x.Rows; i += 100 { // the first pass
		if err := fs.Add(x.Slice(i, i+100, 0, 1), y.Slice(i, i+100, 0, 1)); err != nil {
			fmt.Println(err)
			return
		}
	}
	fits, err := fs.Models(1e-3, regress.FreeIntercept)
	if err != nil {
		fmt.Println(err)
		return
	}
	pass, err := fits.Pass(0)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := 0; i < x.Rows; i += 100 { // the second pass, the same rows in the same order
		if err := pass.Add(x.Slice(i, i+100, 0, 1), y.Slice(i, i+100, 0, 1)); err != nil {
			fmt.Println(err)
			return
		}
	}
	cv, err := pass.CV()
	if err != nil {
		fmt.Println(err)
		return
	}
	iv, err := cv.Predict(xt, 0.9)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d rows, %d fold models; %.2f in [%.2f, %.2f]\n", cv.Rows(), len(cv.Models()), iv.Prediction.At(1, 0), iv.Lower.At(1, 0), iv.Upper.At(1, 0))
	// Output:
	// 400 rows, 10 fold models; 0.25 in [0.04, 0.45]
}

// Each fold chooses its own σ and λ by GCV from the merged statistics of
// the other folds: the honest CV+ of a selection, streamed.
func ExampleFoldStats_Choose() {
	x, y, xt := data(400)
	centers, err := regress.NystromCenters(x, 15, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	sigmas := []float64{0.5, 1, 2}
	ks := make([]kernels.Kernel, len(sigmas))
	for s, sg := range sigmas {
		ks[s] = kernels.Gaussian{Sigma: sg}
	}
	fs, err := interval.NewFoldStats(ks, centers, 5, 7, 0)
	if err == nil {
		err = fs.Add(x, y)
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	sn := loo.SelectNystrom{Sigmas: sigmas, Lambdas: loo.Geometric(1e-6, 1e-1, 6), Intercept: regress.FreeIntercept, Criterion: loo.GCV}
	fits, err := fs.Choose(sn)
	if err != nil {
		fmt.Println(err)
		return
	}
	pass, err := fits.Pass(0)
	if err == nil {
		err = pass.Add(x, y)
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	cv, err := pass.CV()
	if err != nil {
		fmt.Println(err)
		return
	}
	full, folds, _ := cv.Choices()
	fmt.Printf("all rows: σ = %g; fold 0: σ = %g\n", full.Sigma, folds[0].Sigma)
	iv, err := cv.Predict(xt, 0.9)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.2f in [%.2f, %.2f]\n", iv.Prediction.At(1, 0), iv.Lower.At(1, 0), iv.Upper.At(1, 0))
	// Output:
	// all rows: σ = 2; fold 0: σ = 2
	// 0.25 in [0.05, 0.45]
}

func ExampleRLSCVChosen() {
	x, y, xt := data(40)
	folds, _ := interval.Folds(x.Rows, 5, 1)
	gauss := func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} }
	cv, err := interval.RLSCVChosen(gauss, []float64{1, 2}, loo.Geometric(1e-6, 1e-1, 6), regress.FreeIntercept, x, y, folds)
	if err != nil {
		fmt.Println(err)
		return
	}
	full, each, _ := cv.Choices()
	fmt.Printf("all rows: σ = %g, λ = %.0e; %d folds chose their own\n", full.Sigma, full.Lambda, len(each))
	iv, err := cv.Predict(xt, 0.9)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("[%.2f, %.2f]\n", iv.Lower.At(2, 0), iv.Upper.At(2, 0))
	// Output:
	// all rows: σ = 1, λ = 1e-06; 5 folds chose their own
	// [1.09, 1.11]
}

func ExampleNystromCVChosen() {
	x, y, xt := data(120)
	centers, err := regress.NystromCenters(x, 15, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	folds, _ := interval.Folds(x.Rows, 4, 1)
	sn := loo.SelectNystrom{
		Kernel:    func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} },
		Centers:   centers,
		Sigmas:    []float64{0.5, 1, 2},
		Lambdas:   loo.Geometric(1e-6, 1e-1, 6),
		Intercept: regress.FreeIntercept,
	}
	cv, err := interval.NystromCVChosen(sn, x, y, folds)
	if err != nil {
		fmt.Println(err)
		return
	}
	full, _, _ := cv.Choices()
	iv, err := cv.Predict(xt, 0.9)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("σ = %g; [%.2f, %.2f]\n", full.Sigma, iv.Lower.At(2, 0), iv.Upper.At(2, 0))
	// Output:
	// σ = 2; [0.67, 1.14]
}

func ExampleStreamFold() {
	for i := range 6 {
		fmt.Print(interval.StreamFold(1, i, 3), " ")
	}
	fmt.Println()
	// Output:
	// 1 2 2 1 1 2
}
