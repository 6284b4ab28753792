package classify_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"rkhs/classify"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// xor is the four corners of the unit square labelled by exclusive or:
// no line separates the classes, a Gaussian kernel does.
func xor() (*linalg.Dense, []float64) {
	return linalg.NewDense(4, 2, []float64{0, 0, 0, 1, 1, 0, 1, 1}), []float64{0, 1, 1, 0}
}

// line is ten points on a line, labelled 1 left of 0.5 and 2 right of it.
func line() (*linalg.Dense, []float64) {
	x := linalg.NewDense(10, 1, []float64{-2, -1.5, -1, -0.5, 0, 1, 1.5, 2, 2.5, 3})
	return x, []float64{1, 1, 1, 1, 1, 2, 2, 2, 2, 2}
}

var queries = linalg.NewDense(3, 1, []float64{-1, 0.4, 2})

func ExamplePerceptron_Fit() {
	x, y := xor()
	m, err := classify.Perceptron{Kernel: kernels.Gaussian{Sigma: 0.5}}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("converged:", m.Converged, "after", m.Passes, "passes")
	fmt.Println("mistakes per point:", m.Alpha)
	// Output:
	// converged: true after 2 passes
	// mistakes per point: [1 1 1 1]
}

func ExamplePerceptron_Fit_nonSeparable() {
	// The same point with both labels: no pass is ever clean.
	x := linalg.NewDense(3, 1, []float64{0, 0, 1})
	m, err := classify.Perceptron{Kernel: kernels.Linear{}, Intercept: regress.FreeIntercept, MaxPasses: 10}.Fit(x, []float64{-1, 1, 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("converged:", m.Converged, "after", m.Passes, "passes")
	// Output:
	// converged: false after 10 passes
}

func ExamplePerceptronModel_Predict() {
	x, y := line()
	m, err := classify.Perceptron{Kernel: kernels.Linear{}, Intercept: regress.FreeIntercept}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := m.Predict(queries)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p)
	// Output:
	// [1 1 2]
}

func ExamplePerceptronModel_Scores() {
	x, y := xor()
	m, _ := classify.Perceptron{Kernel: kernels.Gaussian{Sigma: 0.5}}.Fit(x, y)
	s, err := m.Scores(linalg.NewDense(2, 2, []float64{0.1, 0.9, 0.9, 0.9}))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.3f\n", s.Data)
	// Output:
	// [0.612 -0.612]
}

func ExampleKNN_Fit() {
	x, y := line()
	_, err := classify.KNN{Kernel: kernels.Linear{}, K: 10}.Fit(x, y)
	fmt.Println(err)
	m, err := classify.KNN{Kernel: kernels.Linear{}, K: 3}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("classes:", m.Classes)
	// Output:
	// classify: invalid input: KNN.Fit: K: 10, must satisfy 1 ≤ K < n = 10
	// classes: [1 2]
}

func ExampleKNNModel_Predict() {
	x, y := line()
	m, err := classify.KNN{Kernel: kernels.Gaussian{Sigma: 1}, K: 3}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := m.Predict(queries)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p)
	// Output:
	// [1 1 2]
}

func ExampleKNNModel_Mean() {
	// k-NN regression of y = x² on five points; the query 1.2 has the
	// neighbours 1 and 2 (K = 2).
	x := linalg.NewDense(5, 1, []float64{-2, -1, 0, 1, 2})
	m, err := classify.KNN{Kernel: kernels.Linear{}, K: 2}.Fit(x, []float64{4, 1, 0, 1, 4})
	if err != nil {
		fmt.Println(err)
		return
	}
	mean, err := m.Mean(linalg.NewDense(2, 1, []float64{1.2, 0}))
	if err != nil {
		fmt.Println(err)
		return
	}
	// At 0 the neighbours −1 and 1 tie for second place: both count.
	fmt.Printf("%.3f\n", mean)
	// Output:
	// [2.500 0.667]
}

func ExampleRLS_Fit() {
	// Three classes on a line: one-vs-all, one column per class.
	x := linalg.NewDense(6, 1, []float64{0, 0.5, 2, 2.5, 4, 4.5})
	m, err := classify.RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3}.Fit(x, []float64{10, 10, 20, 20, 30, 30})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("classes:", m.Classes, "one-vs-all:", m.OneVsAll)
	// With ChooseLambda, λ is chosen by leave-one-out over Lambdas: with a
	// free intercept and a huge λ, f is nearly the constant b, and leaving
	// a point out tips b towards the other class.
	xb := linalg.NewDense(8, 1, []float64{0, 0.3, 0.6, 0.9, 1.6, 1.9, 2.2, 2.5})
	b, err := classify.RLS{Kernel: kernels.Gaussian{Sigma: 0.5}, ChooseLambda: true, Lambdas: []float64{1e-4, 1e-2, 10}, Intercept: regress.FreeIntercept}.Fit(xb, []float64{0, 0, 0, 0, 1, 1, 1, 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("λ:", b.Lambda, "LOO errors:", b.LOOErrors)
	// Output:
	// classes: [10 20 30] one-vs-all: true
	// λ: 0.0001 LOO errors: [0 0 1]
}

func ExampleRLSModel_Predict() {
	x, y := line()
	m, err := classify.RLS{Kernel: kernels.Linear{}, Lambda: 1e-3, Intercept: 1}.Fit(x, y) // 1 = regress.FreeIntercept
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := m.Predict(queries)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p)
	// Output:
	// [1 1 2]
}

func ExampleRLSModel_Scores() {
	x := linalg.NewDense(6, 1, []float64{0, 0.5, 2, 2.5, 4, 4.5})
	m, err := classify.RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3}.Fit(x, []float64{10, 10, 20, 20, 30, 30})
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := m.Scores(linalg.NewDense(2, 1, []float64{0.25, 4}))
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := 0; i < s.Rows; i++ {
		fmt.Printf("%.2f\n", s.Row(i)) // scores of classes 10, 20, 30
	}
	// Output:
	// [1.07 -1.06 -1.02]
	// [-1.00 -0.99 0.98]
}

func ExampleLogistic_Fit() {
	x, y := line()
	m, err := classify.Logistic{Kernel: kernels.Linear{}, Lambda: 1e-3, Intercept: regress.FreeIntercept, Tol: 1e-8, MaxIter: 5000}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("converged:", m.Converged)
	fmt.Printf("objective %.4f → %.4f\n", m.History[0], m.Objective)
	// Output:
	// converged: true
	// objective 0.6931 → 0.0422
}

func ExampleLogisticModel_Predict() {
	x, y := line()
	m, err := classify.Logistic{Kernel: kernels.Linear{}, Lambda: 1e-3, Intercept: regress.FreeIntercept}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := m.Predict(queries)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p)
	// Output:
	// [1 1 2]
}

func ExampleLogisticModel_Scores() {
	x, y := line()
	m, _ := classify.Logistic{Kernel: kernels.Linear{}, Lambda: 1e-3, Intercept: regress.FreeIntercept, Tol: 1e-8, MaxIter: 5000}.Fit(x, y)
	s, err := m.Scores(queries) // log-odds of class 2
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.2f\n", s.Data)
	// Output:
	// [-7.32 -0.49 7.32]
}

func ExampleLogisticModel_Probabilities() {
	x, y := line()
	m, _ := classify.Logistic{Kernel: kernels.Linear{}, Lambda: 1e-3, Intercept: regress.FreeIntercept, Tol: 1e-8, MaxIter: 5000}.Fit(x, y)
	p, err := m.Probabilities(queries) // P(label = 2)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.3f\n", p)
	// Output:
	// [0.001 0.380 0.999]
}

func ExampleSVM_Fit() {
	x, y := xor()
	m, err := classify.SVM{Kernel: kernels.Gaussian{Sigma: 0.5}, Lambda: 0.01, MaxIter: 500}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("objective %.3f (from %.0f at c = 0), %d support vectors\n", m.Objective, m.History[0], len(m.Coef))
	// Output:
	// objective 0.054 (from 1 at c = 0), 4 support vectors
}

func ExampleSVMModel_Predict() {
	x, y := line()
	m, err := classify.SVM{Kernel: kernels.Linear{}, Lambda: 1e-2, Intercept: regress.PenalizedIntercept}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := m.Predict(queries)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p)
	// Output:
	// [1 1 2]
}

func ExampleSVMModel_Scores() {
	x, y := xor()
	m, _ := classify.SVM{Kernel: kernels.Gaussian{Sigma: 0.5}, Lambda: 0.01, MaxIter: 500}.Fit(x, y)
	s, err := m.Scores(x)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.3f\n", s.Data) // yᵢf(xᵢ) = 1: every point on the margin
	// Output:
	// [-1.000 1.000 1.000 -1.000]
}

// Errors about arguments are *linalg.InputError values that name the call
// and the argument, and wrap ErrInput.
func Example_inputError() {
	x, _ := line()
	_, err := classify.Logistic{Kernel: kernels.Linear{}, Lambda: 1}.Fit(x, []float64{1, 2, 3, 1, 2, 3, 1, 2, 3, 1})
	var ie *linalg.InputError
	if errors.As(err, &ie) {
		fmt.Println(ie.Op, ie.Arg, errors.Is(err, classify.ErrInput))
	}
	fmt.Println(err)
	// Output:
	// Logistic.Fit labels true
	// classify: invalid input: Logistic.Fit: labels: 3 classes {1, 2, 3}; this method is binary only
}

func ExamplePerceptronModel_MarshalJSON() {
	x, y := line()
	m, err := classify.Perceptron{Kernel: kernels.Linear{}, Intercept: regress.FreeIntercept}.Fit(x, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	b, err := json.Marshal(m) // the centres, coefficients and intercept, exactly
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s\n", b)

	var loaded classify.PerceptronModel
	if err := json.Unmarshal(b, &loaded); err != nil {
		fmt.Println(err)
		return
	}
	p, err := loaded.Predict(queries)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p)
	// The fit's outcome is kept; the per-point mistake counts are not.
	fmt.Println("converged:", loaded.Converged, "passes:", loaded.Passes, "alpha:", loaded.Alpha)

	// A file of another kind, or of a later version, is refused.
	err = json.Unmarshal([]byte(`{"format": "rkhs.classify.PerceptronModel", "version": 3}`), &loaded)
	fmt.Println(err)
	// Output:
	// {"format":"rkhs.classify.PerceptronModel","version":2,"kernel":{"type":"linear"},"classes":[1,2],"centers":{"rows":1,"cols":1,"data":[-2]},"coef":[-1],"intercept":-1,"passes":2,"mistakes":1,"converged":true}
	// [1 1 2]
	// converged: true passes: 2 alpha: []
	// classify: invalid input: PerceptronModel.UnmarshalJSON: version: rkhs.classify.PerceptronModel version 3, this build reads versions [1 2]
}

func ExampleAccuracy() {
	acc, _ := classify.Accuracy([]float64{1, 2, 2, 1}, []float64{1, 2, 1, 1})
	fmt.Println(acc)
	// Output:
	// 0.75
}

func ExampleFalkon_Fit() {
	// Two classes on a line, 1,000 points, 20 centres.
	x := linalg.NewDense(1000, 1, nil)
	labels := make([]float64, 1000)
	for i := range 1000 {
		x.Set(i, 0, float64(i)/1000)
		if i >= 400 {
			labels[i] = 1
		}
	}
	fit, err := classify.Falkon{Kernel: kernels.Gaussian{Sigma: 0.1}, Lambda: 1e-6, Centers: 20, Seed: 1, Intercept: regress.FreeIntercept}.Fit(x, labels)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := fit.Predict(linalg.NewDense(3, 1, []float64{0.1, 0.38, 0.42}))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p, fit.Iterations, "iterations")
	// Output:
	// [0 0 1] 20 iterations
}
