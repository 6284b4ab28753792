package regress_test

import (
	"fmt"
	"math"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// sine returns n points of y = sin(2πx) on [0, 1).
func sine(n int) (x, y *linalg.Dense) {
	x, y = linalg.NewDense(n, 1, nil), linalg.NewDense(n, 1, nil)
	for i := range n {
		t := float64(i) / float64(n)
		x.Set(i, 0, t)
		y.Set(i, 0, math.Sin(2*math.Pi*t))
	}
	return x, y
}

func ExampleFalkon_Fit() {
	x, y := sine(2000)
	f := &regress.Falkon{
		Kernel: kernels.Gaussian{Sigma: 0.2}, Lambda: 1e-8, Centers: 50, Seed: 1,
		Intercept: regress.FreeIntercept, Tol: 1e-6,
	}
	fit, err := f.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, _ := fit.Predict(linalg.NewDense(1, 1, []float64{0.25}))
	fmt.Printf("%d centres, stopped by %v, f(0.25) = %.3f\n", len(fit.Indices), fit.Stopped, p.At(0, 0))
	// Output:
	// 50 centres, stopped by tolerance, f(0.25) = 1.000
}

// Early stopping on a validation set: the callback sees the current model.
func ExampleFalkon_Fit_validation() {
	x, y := sine(1000)
	xv, yv := sine(37)
	best, bestIter := math.Inf(1), 0
	f := &regress.Falkon{
		Kernel: kernels.Gaussian{Sigma: 0.2}, Lambda: 1e-8, Centers: 40, Seed: 1, MaxIter: 50,
		Callback: func(iter int, residual float64, current *regress.Model) bool {
			p, err := current.Predict(xv)
			if err != nil {
				return false
			}
			mse, _ := regress.MSE(yv, p)
			if mse < best {
				best, bestIter = mse, iter
			}
			return iter < bestIter+5 // stop after five iterations without progress
		},
	}
	fit, err := f.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("validation MSE below 1e-6: %v, stopped by %v\n", best < 1e-6, fit.Stopped)
	// Output:
	// validation MSE below 1e-6: true, stopped by callback
}
