package regress_test

import (
	"encoding/json"
	"fmt"
	"math"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// Fitting on standardized features: standardize the training rows, fit
// any estimator on them, and give the model the standardization; it then
// takes raw rows, in Predict and once saved and loaded.
func ExampleModel_standardized() {
	// Pressure (hPa) and temperature (°C): features hundreds apart.
	x := linalg.NewDense(30, 2, nil)
	y := linalg.NewDense(30, 1, nil)
	for i := 0; i < 30; i++ {
		p, t := 1000+float64(i), 10+float64(i%7)
		x.Set(i, 0, p)
		x.Set(i, 1, t)
		y.Set(i, 0, math.Sin((p-1000)/5)+0.2*t)
	}
	s, err := kernels.StandardizationOf(x)
	if err != nil {
		fmt.Println(err)
		return
	}
	xs, _ := s.Apply(x)
	m, err := regress.RLS{Kernel: kernels.Gaussian{Sigma: 1}, Lambda: 1e-6, Intercept: regress.FreeIntercept}.Fit(xs, y)
	if err != nil {
		fmt.Println(err)
		return
	}
	m.Standardization = s

	raw := linalg.NewDense(1, 2, []float64{1012, 13})
	p, _ := m.Predict(raw)
	b, _ := json.Marshal(m)
	var loaded regress.Model
	if err := json.Unmarshal(b, &loaded); err != nil {
		fmt.Println(err)
		return
	}
	q, _ := loaded.Predict(raw)
	fmt.Printf("f(1012 hPa, 13 °C) = %.3f (true %.3f), after loading %.3f\n", p.At(0, 0), math.Sin(12.0/5)+0.2*13, q.At(0, 0))
	// Output:
	// f(1012 hPa, 13 °C) = 3.296 (true 3.275), after loading 3.296
}
