package optimize_test

import (
	"fmt"

	"rkhs/optimize"
)

// rosenbrock is 100(y − x²)² + (1 − x)², with its gradient.
func rosenbrock(p, grad []float64) float64 {
	x, y := p[0], p[1]
	grad[0] = -400*x*(y-x*x) - 2*(1-x)
	grad[1] = 200 * (y - x*x)
	return 100*(y-x*x)*(y-x*x) + (1-x)*(1-x)
}

func ExampleLBFGS_Minimize() {
	// Without bounds the minimum is f(1, 1) = 0. With x ≤ 0.5 it is
	// f(0.5, 0.25) = 0.25, on the bound, where ∂f/∂x = −1 < 0 points out
	// of the box.
	x0 := []float64{-1.2, 1}
	free, err := optimize.LBFGS{}.Minimize(rosenbrock, x0, nil, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	boxed, err := optimize.LBFGS{}.Minimize(rosenbrock, x0, []float64{-2, -2}, []float64{0.5, 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("free:  x = (%.4f, %.4f), f = %.4f\n", free.X[0], free.X[1], free.F)
	fmt.Printf("boxed: x = (%.4f, %.4f), f = %.4f, ∂f/∂x = %.4f\n", boxed.X[0], boxed.X[1], boxed.F, boxed.Grad[0])
	// Output:
	// free:  x = (1.0000, 1.0000), f = 0.0000
	// boxed: x = (0.5000, 0.2500), f = 0.2500, ∂f/∂x = -1.0000
}
