package interval_test

import (
	"encoding/json"
	"fmt"
	"math"

	"rkhs/classify"
	"rkhs/interval"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// data returns n rows on [−3, 3] with targets sin(x) + small deterministic
// noise, and three test rows.
func data(n int) (x, y, xt *linalg.Dense) {
	x, y = linalg.NewDense(n, 1, nil), linalg.NewDense(n, 1, nil)
	for i := 0; i < n; i++ {
		v := -3 + 6*float64(i)/float64(n-1)
		x.Set(i, 0, v)
		y.Set(i, 0, math.Sin(v)+0.2*math.Sin(37*v))
	}
	return x, y, linalg.NewDense(3, 1, []float64{-1.5, 0.25, 2})
}

// classLine returns n rows x = 0, 0.1, 0.2, … labelled 0, 1, 2, … in
// runs of per rows.
func classLine(n, per int) (*linalg.Dense, []float64) {
	x := linalg.NewDense(n, 1, nil)
	labels := make([]float64, n)
	for i := range labels {
		x.Set(i, 0, float64(i)/10)
		labels[i] = float64(i / per)
	}
	return x, labels
}

func ExampleRLS() {
	x, y, xt := data(40)
	jk, err := interval.RLS(regress.RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3, Intercept: regress.FreeIntercept}, x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	iv, err := jk.Predict(xt, 0.9)
	if err != nil {
		fmt.Println(err)
		return
	}
	for j := 0; j < xt.Rows; j++ {
		fmt.Printf("x = %5.2f: %6.3f in [%6.3f, %6.3f], GP sd %.3f\n", xt.At(j, 0), iv.Prediction.At(j, 0), iv.Lower.At(j, 0), iv.Upper.At(j, 0), iv.StdDev[j])
	}
	// Output:
	// x = -1.50: -0.953 in [-1.125, -0.797], GP sd 0.083
	// x =  0.25:  0.291 in [ 0.131,  0.447], GP sd 0.082
	// x =  2.00:  0.984 in [ 0.819,  1.141], GP sd 0.084
}

func ExampleNewPath() {
	x, y, xt := data(40)
	s, err := regress.NewSpectral(kernels.Gaussian{Sigma: 1}, x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := interval.NewPath(s, []float64{1e-4, 1e-2, 1}, regress.NoIntercept)
	if err != nil {
		fmt.Println(err)
		return
	}
	ivs, err := p.Predict(xt, 0.8)
	if err != nil {
		fmt.Println(err)
		return
	}
	for l, iv := range ivs {
		fmt.Printf("λ = %g: width at x = 0.25 is %.3f\n", p.Lambdas()[l], iv.Upper.At(1, 0)-iv.Lower.At(1, 0))
	}
	// Output:
	// λ = 0.0001: width at x = 0.25 is 0.138
	// λ = 0.01: width at x = 0.25 is 0.431
	// λ = 1: width at x = 0.25 is 1.589
}

func ExampleNystrom() {
	x, y, xt := data(60)
	jk, err := interval.Nystrom(regress.Nystrom{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3, Centers: 12, Seed: 1}, x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	iv, err := jk.Predict(xt, 0.9)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("[%.3f, %.3f]\n", iv.Lower.At(0, 0), iv.Upper.At(0, 0))
	// Output:
	// [-1.222, -0.755]
}

func ExampleRLSCV() {
	x, y, xt := data(40)
	folds, err := interval.Folds(x.Rows, 5, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	cv, err := interval.RLSCV(regress.RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3}, x, y, folds)
	if err != nil {
		fmt.Println(err)
		return
	}
	iv, err := cv.Predict(xt, 0.9)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d fold models; [%.3f, %.3f]\n", len(cv.Models()), iv.Lower.At(2, 0), iv.Upper.At(2, 0))
	// Output:
	// 5 fold models; [0.804, 1.149]
}

// Streamed CV+: each fold's statistics are summed on their own (here in
// memory, in general a block of rows at a time anywhere), the fold models
// come from merges, and a second pass gives each row's held-out residual.
func ExampleFoldModels() {
	x, y, xt := data(60)
	k := kernels.Gaussian{Sigma: 1}
	centers, err := regress.NystromCenters(x, 12, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	folds, _ := interval.Folds(x.Rows, 4, 2)
	rowsOf := func(m *linalg.Dense, idx []int) *linalg.Dense {
		out := linalg.NewDense(len(idx), m.Cols, nil)
		for r, i := range idx {
			copy(out.Row(r), m.Row(i))
		}
		return out
	}
	stats := make([]*regress.NystromStats, len(folds))
	for f, idx := range folds {
		if stats[f], err = regress.NewNystromStats(k, centers); err != nil {
			fmt.Println(err)
			return
		}
		if err := stats[f].Add(rowsOf(x, idx), rowsOf(y, idx)); err != nil {
			fmt.Println(err)
			return
		}
	}
	models, err := interval.FoldModels(stats, 1e-3, regress.FreeIntercept)
	if err != nil {
		fmt.Println(err)
		return
	}
	residuals := make([]*linalg.Dense, len(folds))
	for f, idx := range folds { // the second pass
		p, err := models[f].Predict(rowsOf(x, idx))
		if err != nil {
			fmt.Println(err)
			return
		}
		for r, i := range idx {
			p.Set(r, 0, y.At(i, 0)-p.At(r, 0))
		}
		residuals[f] = p
	}
	cv, err := interval.NewCV(models, residuals)
	if err != nil {
		fmt.Println(err)
		return
	}
	iv, err := cv.Predict(xt, 0.8)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d rows; [%.3f, %.3f]\n", cv.Rows(), iv.Lower.At(1, 0), iv.Upper.At(1, 0))
	// Output:
	// 60 rows; [0.030, 0.459]
}

func ExampleNystromCV() {
	x, y, xt := data(60)
	folds, _ := interval.Folds(x.Rows, 5, 3)
	cv, err := interval.NystromCV(regress.Nystrom{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3, Centers: 12, Seed: 1}, x, y, folds)
	if err != nil {
		fmt.Println(err)
		return
	}
	iv, err := cv.Predict(xt, 0.9)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.3f in [%.3f, %.3f]\n", iv.Prediction.At(1, 0), iv.Lower.At(1, 0), iv.Upper.At(1, 0))
	// Output:
	// 0.247 in [-0.001, 0.510]
}

func ExampleClassifyRLS() {
	x, labels := classLine(30, 10) // three classes 0, 1, 2 along the line
	labels[12] = 2                 // one wrong label
	c, err := interval.ClassifyRLS(classify.RLS{Kernel: kernels.Gaussian{Sigma: 0.3}, Lambda: 1e-2}, x, labels)
	if err != nil {
		fmt.Println(err)
		return
	}
	xt := linalg.NewDense(3, 1, []float64{0.3, 0.95, 2.5})
	s, err := c.Predict(xt, 0.8)
	if err != nil {
		fmt.Println(err)
		return
	}
	for j, set := range s.Sets {
		fmt.Printf("x = %.2f: predicted %v, set %v\n", xt.At(j, 0), s.Predicted[j], set)
	}
	cov, size := s.Coverage([]float64{0, 0, 2})
	fmt.Printf("coverage %.2f, mean size %.2f\n", cov, size)
	// Output:
	// x = 0.30: predicted 0, set [0]
	// x = 0.95: predicted 0, set []
	// x = 2.50: predicted 2, set [2]
	// coverage 0.67, mean size 0.67
}

func ExampleMaxLevel() {
	fmt.Printf("%.3f\n", interval.MaxLevel(20))
	// Output:
	// 0.952
}

func ExampleIntervals_Coverage() {
	x, y, _ := data(40)
	jk, err := interval.RLS(regress.RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3}, x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	xt, yt, _ := data(17) // other rows of the same curve
	iv, err := jk.Predict(xt, 0.9)
	if err != nil {
		fmt.Println(err)
		return
	}
	cov, width := iv.Coverage(yt)
	fmt.Printf("coverage %.2f, mean width %.3f\n", cov, width)
	// Output:
	// coverage 1.00, mean width 0.317
}

func ExampleClassifyNystrom() {
	x, labels := classLine(40, 20) // two classes along the line
	c, err := interval.ClassifyNystrom(regress.Nystrom{Kernel: kernels.Gaussian{Sigma: 0.5}, Lambda: 1e-2, Centers: 10, Seed: 1}, false, x, labels)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := c.Predict(linalg.NewDense(2, 1, []float64{0.5, 3.5}), 0.8)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Sets)
	// Output:
	// [[0] [1]]
}

// CV+ label sets from 5 fold models: each row is scored by the model
// that did not see its fold.
func ExampleClassifyRLSCV() {
	x, labels := classLine(30, 10)
	labels[12] = 2
	folds, _ := interval.Folds(x.Rows, 5, 1)
	c, err := interval.ClassifyRLSCV(classify.RLS{Kernel: kernels.Gaussian{Sigma: 0.3}, Lambda: 1e-2}, x, labels, folds)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := c.Predict(linalg.NewDense(3, 1, []float64{0.3, 1.5, 2.5}), 0.8)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Sets, s.Predicted)
	// Output:
	// [[0] [1] [2]] [0 1 2]
}

func ExampleClassifyNystromCV() {
	x, labels := classLine(40, 20)
	folds, _ := interval.Folds(x.Rows, 4, 1)
	c, err := interval.ClassifyNystromCV(regress.Nystrom{Kernel: kernels.Gaussian{Sigma: 0.5}, Lambda: 1e-2, Centers: 10, Seed: 1}, false, x, labels, folds)
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := c.Predict(linalg.NewDense(2, 1, []float64{0.5, 3.5}), 0.8)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Sets)
	// Output:
	// [[0] [1]]
}

// A CV+ is saved with its fold models and sorted residuals, O(K·m + n)
// numbers, and read back to predict the same intervals.
func ExampleCV_MarshalJSON() {
	x, y, xt := data(40)
	folds, _ := interval.Folds(x.Rows, 5, 1)
	cv, err := interval.RLSCV(regress.RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3}, x, y, folds)
	if err != nil {
		fmt.Println(err)
		return
	}
	b, err := json.Marshal(cv)
	if err != nil {
		fmt.Println(err)
		return
	}
	var back interval.CV
	if err := json.Unmarshal(b, &back); err != nil {
		fmt.Println(err)
		return
	}
	iv, _ := back.Predict(xt, 0.9)
	fmt.Printf("%d rows; [%.3f, %.3f]\n", back.Rows(), iv.Lower.At(2, 0), iv.Upper.At(2, 0))
	// Output:
	// 40 rows; [0.804, 1.149]
}

// WithModel gives the fold models of a CV+ fitted on standardized rows
// the map of raw rows of the model that is saved.
func ExampleCV_WithModel() {
	x, y, _ := data(40)
	s := &kernels.Standardization{Mean: []float64{0}, Scale: []float64{2}} // raw rows are 2× the fitted ones
	folds, _ := interval.Folds(x.Rows, 5, 1)
	cv, err := interval.RLSCV(regress.RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3}, x, y, folds)
	if err != nil {
		fmt.Println(err)
		return
	}
	full := *cv.Model()
	full.Standardization = s
	raw, err := cv.WithModel(&full)
	if err != nil {
		fmt.Println(err)
		return
	}
	iv, _ := raw.Predict(linalg.NewDense(1, 1, []float64{4}), 0.9) // the fitted row 2
	fmt.Printf("[%.3f, %.3f]\n", iv.Lower.At(0, 0), iv.Upper.At(0, 0))
	// Output:
	// [0.804, 1.149]
}
