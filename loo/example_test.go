package loo_test

import (
	"fmt"
	"math"

	"rkhs/datasets"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// housing returns the first n rows of the bundled housing data.
func housing(n int) (x, y *linalg.Dense) {
	d := datasets.MustLoad("housing")
	return d.X.Slice(0, n, 0, d.X.Cols).Clone(), linalg.NewDense(n, 1, append([]float64(nil), d.Y[:n]...))
}

func ExampleRLS() {
	x, y := housing(200)
	s, err := regress.NewSpectral(kernels.Gaussian{Sigma: 1.5}, x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	lambdas := loo.Geometric(1e-8, 1, 9)
	p, err := loo.RLS(s, lambdas, regress.FreeIntercept) // exact, all λ from one decomposition
	if err != nil {
		fmt.Println(err)
		return
	}
	b := p.Best()
	fmt.Printf("best λ = %g, LOO MSE %.2f (at λ = 1e-8: %.2f)\n", lambdas[b], p.MSE[b], p.MSE[0])
	// Output:
	// best λ = 0.0001, LOO MSE 5.67 (at λ = 1e-8: 50.44)
}

func ExampleAugmented() {
	x, y := housing(200)
	s, _ := regress.NewSpectral(kernels.Gaussian{Sigma: 1.5}, x, y)
	p, err := loo.Augmented(s, loo.Geometric(1e-8, 1, 9)) // hat-matrix approximation
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("best λ = %g\n", p.Params[p.Best()])
	// Output:
	// best λ = 1e-05
}

func ExampleFilters() {
	x, y := housing(200)
	s, _ := regress.NewSpectral(kernels.Gaussian{Sigma: 1.5}, x, y)
	fs := []regress.Filter{regress.TikhonovFilter{Lambda: 1e-4}, regress.TruncatedSVDFilter{Lambda: 1e-4}, regress.LandweberFilter{Steps: 200}}
	p, err := loo.Filters(s, fs, regress.FreeIntercept)
	if err != nil {
		fmt.Println(err)
		return
	}
	for j, f := range p.Filters {
		fmt.Printf("%-24v LOO MSE %6.2f, GCV %6.2f\n", f, p.MSE[j], p.GCV[j])
	}
	// The hat-matrix residuals are exact for Tikhonov only; for the
	// truncated SVD they are far from GCV's estimate.
	// Output:
	// tikhonov(λ=0.0001)       LOO MSE   5.67, GCV   4.78
	// tsvd(λ=0.0001)           LOO MSE  29.58, GCV   5.56
	// landweber(t=200, η=0)    LOO MSE   9.33, GCV   8.87
}

func ExampleNystrom() {
	x, y := housing(200)
	cfg := regress.Nystrom{Kernel: kernels.Gaussian{Sigma: 1.5}, Centers: 50, Seed: 1, Intercept: regress.FreeIntercept}
	p, err := loo.Nystrom(cfg, x, y, loo.Geometric(1e-8, 1, 9)) // exact, O(nm²)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("best λ = %g, LOO MSE %.2f\n", p.Params[p.Best()], p.MSE[p.Best()])
	// Output:
	// best λ = 1e-05, LOO MSE 7.79
}

func ExampleLinear() {
	x, y := housing(200)
	lp, err := regress.NewLinearPath(x, y, regress.FreeIntercept)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := loo.Linear(lp, loo.Geometric(1e-8, 1, 9)) // O(nd) per λ
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("best λ = %g, LOO MSE %.2f\n", p.Params[p.Best()], p.MSE[p.Best()])
	// Output:
	// best λ = 1e-05, LOO MSE 11.47
}

func ExamplePath_Score() {
	x, y := housing(200)
	s, _ := regress.NewSpectral(kernels.Gaussian{Sigma: 1.5}, x, y)
	p, _ := loo.RLS(s, []float64{1e-6, 1e-4}, regress.FreeIntercept)
	// Any metric on the leave-one-out predictions: here the mean absolute error.
	mae := p.Score(func(y, pred *linalg.Dense) float64 {
		var sum float64
		for i := range y.Data {
			sum += math.Abs(y.Data[i] - pred.Data[i])
		}
		return sum / float64(len(y.Data))
	})
	fmt.Printf("MAE %.2f %.2f; first LOO prediction %.2f (y = %.1f)\n", mae[0], mae[1], p.Predictions(1).At(0, 0), y.At(0, 0))
	// Output:
	// MAE 2.32 1.71; first LOO prediction 27.60 (y = 24.0)
}

func ExampleSelectRLS() {
	x, y := housing(200)
	sigmas, _ := loo.DistanceQuantiles(x, []float64{0.1, 0.5, 0.9}, 200, 1)
	best, table, err := loo.SelectRLS(func(s float64) kernels.Kernel { return kernels.Gaussian{Sigma: s} },
		x, y, sigmas, loo.Geometric(1e-8, 1, 9), regress.FreeIntercept)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("σ = %.3f, λ = %g, LOO MSE %.2f (a %d×%d table)\n", best.Sigma, best.Lambda, best.Score, len(table.Scores), len(table.Scores[0]))
	// Output:
	// σ = 2.868, λ = 1e-05, LOO MSE 5.68 (a 3×9 table)
}

func ExampleLambdaGrid() {
	x, y := housing(100)
	s, _ := regress.NewSpectral(kernels.Gaussian{Sigma: 1.5}, x, y)
	g, err := loo.LambdaGrid(s, 4)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.3g\n", g)
	// Output:
	// [2.86e-08 8.24e-06 0.00238 0.687]
}

func ExampleGeometric() {
	fmt.Println(loo.Geometric(1e-2, 1e1, 4))
	// Output:
	// [0.01 0.1 1 10]
}

func ExampleDistanceQuantiles() {
	x := linalg.NewDense(4, 1, []float64{0, 1, 3, 6})
	q, _ := loo.DistanceQuantiles(x, []float64{0, 0.5, 1}, 0, 1) // distances 1, 2, 3, 3, 5, 6
	fmt.Println(q)
	// Output:
	// [1 3 6]
}

func ExampleSplit() {
	train, test := loo.Split(10, 0.7, 1) // the split of dataset.Data.Split(0.7, 1)
	fmt.Println(len(train), len(test))
	// Output:
	// 7 3
}

func ExampleKFold() {
	folds := loo.KFold(10, 3, 1)
	for f, test := range folds {
		fmt.Println("fold", f, "test", len(test), "train", len(loo.Complement(10, test)))
	}
	// Output:
	// fold 0 test 4 train 6
	// fold 1 test 3 train 7
	// fold 2 test 3 train 7
}
