package regress_test

import (
	"fmt"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

func ExampleNystromStats() {
	// Two shards of the rows of y = x², summarised apart (as on two
	// machines), shipped as bytes, merged and solved: the same model as
	// Nystrom.Fit on all the rows with the same centres.
	x := linalg.NewDense(8, 1, []float64{-1, -0.7, -0.4, -0.1, 0.2, 0.5, 0.8, 1})
	y := linalg.NewDense(8, 1, nil)
	for i := range 8 {
		y.Set(i, 0, x.At(i, 0)*x.At(i, 0))
	}
	centers := linalg.NewDense(3, 1, []float64{-1, 0.2, 1})
	k := kernels.Gaussian{Sigma: 0.5}

	total, _ := regress.NewNystromStats(k, centers)
	for _, rows := range [][2]int{{0, 5}, {5, 8}} {
		shard, _ := regress.NewNystromStats(k, centers)
		if err := shard.Add(x.Slice(rows[0], rows[1], 0, 1), y.Slice(rows[0], rows[1], 0, 1)); err != nil {
			fmt.Println(err)
			return
		}
		b, _ := shard.MarshalBinary()
		var received regress.NystromStats
		if err := received.UnmarshalBinary(b); err != nil {
			fmt.Println(err)
			return
		}
		if err := total.Merge(&received); err != nil {
			fmt.Println(err)
			return
		}
	}
	fit, _ := total.Solve(1e-3, regress.FreeIntercept)
	want, _ := regress.Nystrom{Kernel: k, Lambda: 1e-3, Given: centers, Intercept: regress.FreeIntercept}.Fit(x, y)
	p, _ := fit.Predict(linalg.NewDense(1, 1, []float64{0.5}))
	q, _ := want.Predict(linalg.NewDense(1, 1, []float64{0.5}))
	fmt.Printf("%d rows, f(0.5) = %.4f, Nystrom.Fit: %.4f\n", total.Rows(), p.At(0, 0), q.At(0, 0))
	// Output:
	// 8 rows, f(0.5) = 0.2894, Nystrom.Fit: 0.2894
}
