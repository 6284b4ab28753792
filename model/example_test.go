package model_test

import (
	"fmt"

	"rkhs/classify"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/model"
)

// A classifier saved as a model file, loaded back by its format and asked
// for the label of two rows, written as the commands write predictions.
func ExampleLoad() {
	x := linalg.NewDense(4, 1, []float64{0, 1, 3, 4})
	fitted, err := classify.RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-3}.Fit(x, []float64{-1, -1, 1, 1})
	if err != nil {
		panic(err)
	}
	*model.Of(fitted).FeatureNames = []string{"t"}
	file, err := model.Marshal(fitted)
	if err != nil {
		panic(err)
	}
	m, err := model.Load(file)
	if err != nil {
		panic(err)
	}
	p, err := m.Predict(linalg.NewDense(2, 1, []float64{0.5, 3.5}))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%T, labels %v, width %d, features %v\n", m.Saved, m.Labels, m.Width, *m.FeatureNames)
	fmt.Print(string(m.Lines(p)))
	// Output:
	// *classify.RLSModel, labels true, width 1, features [t]
	// -1
	// 1
}
