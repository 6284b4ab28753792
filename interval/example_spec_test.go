package interval_test

import (
	"errors"
	"fmt"

	"rkhs/interval"
	"rkhs/kernels"
	"rkhs/regress"
)

// One call fits the model and its CV+ intervals; the model it hands back
// is the one to save, and WithModel makes the intervals take raw rows as
// that model does.
func ExampleSpec_Build() {
	x, y, xt := data(200)
	s := interval.Spec{Method: interval.CVPlus, Level: 0.9, Folds: 10, Seed: 1,
		Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3, Intercept: regress.FreeIntercept}
	f, err := s.Build(x, y.Data)
	if err != nil {
		fmt.Println(err)
		return
	}
	f, err = f.WithModel(f.Model()) // a model without standardization: rows as fitted
	if err != nil {
		fmt.Println(err)
		return
	}
	iv, _, err := f.Predict(xt, 0.9)
	if err != nil {
		fmt.Println(err)
		return
	}
	for j := 0; j < xt.Rows; j++ {
		fmt.Printf("x = %5.2f: %.3f in [%.3f, %.3f]\n", xt.At(j, 0), iv.Prediction.At(j, 0), iv.Lower.At(j, 0), iv.Upper.At(j, 0))
	}
	fmt.Println("folds saved:", len(f.CV().Models()))
	// Output:
	// x = -1.50: -0.998 in [-1.207, -0.788]
	// x =  0.25: 0.246 in [0.039, 0.457]
	// x =  2.00: 0.905 in [0.694, 1.114]
	// folds saved: 10
}

// A level the rows cannot reach gives intervals that are the whole line:
// Reach says so before any work, CheckLevel refuses a level outside
// (0, 1).
func ExampleReach() {
	fmt.Println(interval.Reach(0.95, 20) == nil)
	err := interval.Reach(0.99, 20)
	fmt.Println(errors.Is(err, interval.ErrUnreachable), errors.Is(err, interval.ErrInput))
	fmt.Println(interval.CheckLevel(1) != nil)
	// Output:
	// true
	// true true
	// true
}

func ExampleDefaultMethod() {
	fmt.Println(interval.DefaultMethod(false), interval.DefaultMethod(true))
	// Output: jackknife+ cv+
}

// CheckFolds says, before anything is fitted, whether n rows hold K folds
// for CV+.
func ExampleCheckFolds() {
	fmt.Println(interval.CheckFolds(10, 200))
	fmt.Println(interval.CheckFolds(25, 20))
	// Output:
	// <nil>
	// interval: invalid input: CheckFolds: k: 25, want 2 ≤ K ≤ n = 20 (CV+ leaves out one of K non-empty folds)
}
