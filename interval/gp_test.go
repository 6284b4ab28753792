package interval

import (
	"fmt"
	"math"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// solveDense solves a·x = b by Gaussian elimination with partial
// pivoting (a and b are overwritten): an oracle independent of the
// Cholesky and eigen routes.
func solveDense(a [][]float64, b []float64) []float64 {
	n := len(b)
	for c := 0; c < n; c++ {
		p := c
		for r := c + 1; r < n; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		a[c], a[p] = a[p], a[c]
		b[c], b[p] = b[p], b[c]
		for r := c + 1; r < n; r++ {
			f := a[r][c] / a[c][c]
			for j := c; j < n; j++ {
				a[r][j] -= f * a[c][j]
			}
			b[r] -= f * b[c]
		}
	}
	x := make([]float64, n)
	for r := n - 1; r >= 0; r-- {
		s := b[r]
		for j := r + 1; j < n; j++ {
			s -= a[r][j] * x[j]
		}
		x[r] = s / a[r][r]
	}
	return x
}

// gpVariance returns the posterior variance of f(x) of the Gaussian
// process of package documentation, from one dense solve: with the kernel
// k + 1 for the penalized intercept, and for the free intercept the
// bordered system [G 1; 1ᵀ 0] of a constant with a flat prior.
func gpVariance(k kernels.Kernel, x *linalg.Dense, lambda float64, ic regress.Intercept, xt []float64) float64 {
	n := x.Rows
	size := n
	if ic == regress.FreeIntercept {
		size++
	}
	a := make([][]float64, size)
	rhs := make([]float64, size)
	plus := 0.0
	if ic == regress.PenalizedIntercept {
		plus = 1
	}
	for i := range a {
		a[i] = make([]float64, size)
		if i == n {
			for j := 0; j < n; j++ {
				a[i][j] = 1
			}
			rhs[i] = 1
			continue
		}
		for j := 0; j < n; j++ {
			a[i][j] = k.Eval(x.Row(i), x.Row(j)) + plus
		}
		a[i][i] += float64(n) * lambda
		if size > n {
			a[i][n] = 1
		}
		rhs[i] = k.Eval(x.Row(i), xt) + plus
	}
	kv := append([]float64(nil), rhs...)
	sol := solveDense(a, rhs)
	v := k.Eval(xt, xt) + plus
	for i, s := range sol {
		v -= kv[i] * s
	}
	return v
}

// TestStdDevIsGaussianProcess: the standard deviations of RLS, of a path
// and of Nyström with every row a centre are those of the Gaussian
// process (a dense solve), in every intercept mode.
func TestStdDevIsGaussianProcess(t *testing.T) {
	x, y, xt := problem(3, 20, 5, 1)
	k := kernels.Gaussian{Sigma: 0.8}
	const lambda = 2e-3
	s, err := regress.NewSpectral(k, x, y)
	if err != nil {
		t.Fatal(err)
	}
	for _, ic := range intercepts {
		t.Run(fmt.Sprint(ic), func(t *testing.T) {
			jk, err := RLS(regress.RLS{Kernel: k, Lambda: lambda, Intercept: ic}, x, y)
			if err != nil {
				t.Fatal(err)
			}
			p, err := NewPath(s, []float64{lambda}, ic)
			if err != nil {
				t.Fatal(err)
			}
			ny, err := Nystrom(regress.Nystrom{Kernel: k, Lambda: lambda, Given: x, Intercept: ic}, x, y)
			if err != nil {
				t.Fatal(err)
			}
			// The subset of regressors is the process itself at its centres.
			at := x.Slice(0, 6, 0, x.Cols)
			fits := map[string]func() (*Intervals, error){
				"RLS":     func() (*Intervals, error) { return jk.Predict(xt, 0.9) },
				"Path":    func() (*Intervals, error) { r, err := p.Predict(xt, 0.9); return r[0], err },
				"Nystrom": func() (*Intervals, error) { return ny.Predict(at, 0.9) },
			}
			for name, f := range fits {
				got, err := f()
				if err != nil {
					t.Fatal(err)
				}
				pts := xt
				if name == "Nystrom" {
					pts = at
				}
				for j := 0; j < pts.Rows; j++ {
					want := gpVariance(k, x, lambda, ic, pts.Row(j))
					if g := got.StdDev[j] * got.StdDev[j]; math.Abs(g-want) > 1e-9 {
						t.Errorf("%s: variance at test row %d is %.12g, want %.12g", name, j, g, want)
					}
				}
			}
		})
	}
}
