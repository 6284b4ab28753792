package regress_test

import (
	"fmt"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// The rows of K(X, C) evaluated once a block, folded into the statistics
// of two widths through one workspace: the statistics Add gives.
func ExampleNystromStats_AddKernelRows() {
	x := linalg.NewDense(6, 1, []float64{-1, -0.6, -0.2, 0.2, 0.6, 1})
	y := linalg.NewDense(6, 1, []float64{1, 0.36, 0.04, 0.04, 0.36, 1})
	centers := linalg.NewDense(2, 1, []float64{-0.5, 0.5})
	ks := []kernels.Kernel{kernels.Gaussian{Sigma: 0.5}, kernels.Gaussian{Sigma: 2}}
	w, _ := kernels.NewWidths(ks, x, centers)
	work := make([]float64, regress.NystromWorkLen(centers.Rows, y.Cols))
	stats := make([]*regress.NystromStats, len(ks))
	for s, k := range ks {
		stats[s], _ = regress.NewNystromStats(k, centers)
	}
	for i0, blk := range w.Blocks(regress.NystromGroupRows, nil) {
		for s, st := range stats {
			kb := blk.Kernel(s)
			if err := st.AddKernelRows(kb, y.Slice(i0, i0+kb.Rows, 0, 1), work); err != nil {
				fmt.Println(err)
				return
			}
		}
	}
	for s, st := range stats {
		fit, _ := st.Solve(1e-3, regress.FreeIntercept)
		one, _ := regress.NewNystromStats(ks[s], centers)
		one.Add(x, y)
		want, _ := one.Solve(1e-3, regress.FreeIntercept)
		fmt.Printf("σ = %g: %d rows, coefficients %.4f, with Add %.4f\n", ks[s].(kernels.Gaussian).Sigma, st.Rows(), fit.Model.Coef.Data, want.Model.Coef.Data)
	}
	// Output:
	// σ = 0.5: 6 rows, coefficients [-1.5162 -1.5162], with Add [-1.5162 -1.5162]
	// σ = 2: 6 rows, coefficients [-3.0849 -3.0849], with Add [-3.0849 -3.0849]
}

// The workspace of AddKernelRows for 1000 centres and one output, in MiB.
func ExampleNystromWorkLen() {
	fmt.Printf("%.2f MiB\n", float64(regress.NystromWorkLen(1000, 1))*8/(1<<20))
	// Output:
	// 8.06 MiB
}

// The ridge problem of the statistics in the frame of a free intercept:
// G = Σ(bᵢ − μ)(bᵢ − μ)ᵀ, solved for one λ as Solve solves it.
func ExampleNystromStats_Gram() {
	x := linalg.NewDense(5, 1, []float64{-1, -0.5, 0, 0.5, 1})
	y := linalg.NewDense(5, 1, []float64{1, 0.25, 0, 0.25, 1})
	centers := linalg.NewDense(2, 1, []float64{-0.5, 0.5})
	st, _ := regress.NewNystromStats(kernels.Gaussian{Sigma: 1}, centers)
	st.Add(x, y)
	g, err := st.Gram(regress.FreeIntercept)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("n = %d, G = %.4f, R = %.4f, Σ(y − ȳ)² = %.4f\n", g.N, g.G.Data, g.R.Data, g.YY)
	// (G + nλI)a = R, c = L⁻ᵀa: Solve's coefficients.
	lambda := 1e-2
	for i := range g.G.Rows {
		g.G.Set(i, i, g.G.At(i, i)+float64(g.N)*lambda)
	}
	var ch linalg.Cholesky
	ch.Factorize(g.G)
	a := ch.SolveTo(nil, g.R)
	linalg.Trsm(linalg.Lower, linalg.Trans, g.L, a)
	fit, _ := st.Solve(lambda, regress.FreeIntercept)
	fmt.Printf("c = %.4f, Solve: %.4f\n", a.Data, fit.Model.Coef.Data)
	// Output:
	// n = 5, G = [0.2985 -0.4384 -0.4384 0.9674], R = [-0.2393 -0.1184], Σ(y − ȳ)² = [0.8750]
	// c = [-1.1321 -1.1321], Solve: [-1.1321 -1.1321]
}

// The problem formed in the statistics' own storage: the statistics are
// spent, and say so.
func ExampleNystromStats_GramInPlace() {
	x := linalg.NewDense(4, 1, []float64{0, 1, 2, 3})
	y := linalg.NewDense(4, 1, []float64{0, 1, 4, 9})
	centers := linalg.NewDense(2, 1, []float64{0.5, 2.5})
	st, _ := regress.NewNystromStats(kernels.Laplacian{Sigma: 2}, centers)
	st.Add(x, y)
	g, _ := st.GramInPlace(regress.NoIntercept)
	fmt.Printf("G = %.4f, R = %.4f, Σy² = %.4f\n", g.G.Data, g.R.Data, g.YY)
	_, err := st.Solve(1e-3, regress.NoIntercept)
	fmt.Println(err)
	// Output:
	// G = [1.5183 0.6705 0.6705 0.9877], R = [5.2468 9.3202], Σy² = [98.0000]
	// regress: invalid input: NystromStats.Solve: NystromStats: zero value: make it with NewNystromStats or UnmarshalBinary
}
