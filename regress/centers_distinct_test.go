package regress

import (
	"errors"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
)

// TestCentresDistinct: Nystrom and Falkon follow one rule for the centres,
// m distinct rows of X: on 1000 rows holding 10 distinct values, 10
// centres are the 10 values and 11 are an error naming Centers, for both.
func TestCentersDistinct(t *testing.T) {
	const n = 1000
	x := linalg.NewDense(n, 1, nil)
	y := linalg.NewDense(n, 1, nil)
	for i := range n {
		x.Data[i] = float64(i % 10)
		y.Data[i] = float64(i%10) + float64(i%3)
	}
	k := kernels.Gaussian{Sigma: 1}
	fits := map[string]func(m int) ([]int, error){
		"Nystrom": func(m int) ([]int, error) {
			f, err := Nystrom{Kernel: k, Lambda: 1e-4, Centers: m, Seed: 1, Intercept: FreeIntercept}.Fit(x, y)
			if err != nil {
				return nil, err
			}
			return f.Indices, nil
		},
		"Falkon": func(m int) ([]int, error) {
			f, err := Falkon{Kernel: k, Lambda: 1e-4, Centers: m, Seed: 1, Intercept: FreeIntercept}.Fit(x, y)
			if err != nil {
				return nil, err
			}
			return f.Indices, nil
		},
	}
	for name, fit := range fits {
		idx, err := fit(10)
		if err != nil {
			t.Fatalf("%s, 10 centres: %v", name, err)
		}
		seen := map[float64]bool{}
		for _, i := range idx {
			seen[x.Data[i]] = true
		}
		if len(idx) != 10 || len(seen) != 10 {
			t.Errorf("%s: %d centres with %d distinct values, want 10 and 10", name, len(idx), len(seen))
		}
		_, err = fit(11)
		var ie *linalg.InputError
		if !errors.Is(err, ErrInput) || !errors.As(err, &ie) || ie.Arg != "Centers" {
			t.Errorf("%s, 11 centres of 10 distinct rows: err = %v, want ErrInput naming Centers", name, err)
		}
	}
}
