package linalg_test

import (
	"fmt"
	"math"

	"rkhs/linalg"
)

// rounded returns the rows of m rounded to four decimals, with −0 printed
// as 0, so that the output is the same on every architecture.
func rounded(m *linalg.Dense) [][]float64 {
	out := make([][]float64, m.Rows)
	for i := range out {
		for _, x := range m.Row(i) {
			out[i] = append(out[i], math.Round(x*1e4)/1e4+0)
		}
	}
	return out
}

func ExampleQR() {
	a := linalg.NewDense(3, 2, []float64{
		3, 1,
		4, 2,
		0, 2,
	})
	var qr linalg.QR
	if err := qr.Factorize(a); err != nil {
		fmt.Println(err)
		return
	}
	r := qr.RTo(nil) // 2×2 upper triangular; the diagonal may be negative
	q := qr.QTo(nil) // 3×2 with orthonormal columns
	fmt.Println("R =", rounded(r))
	fmt.Println("Q =", rounded(q))

	// Q·R reproduces A.
	qrProd := linalg.NewDense(3, 2, nil)
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 1, q, r, 0, qrProd)
	fmt.Println("QR =", rounded(qrProd))
	// Output:
	// R = [[-5 -2.2] [0 -2.0396]]
	// Q = [[-0.6 0.1569] [-0.8 -0.1177] [0 -0.9806]]
	// QR = [[3 1] [4 2] [0 2]]
}

func ExampleSVD() {
	// The rows of A are orthogonal, with norms 5 and 3, so σ = (5, 3), V holds
	// the normalized rows and U is diagonal. Singular vectors are determined
	// only up to sign (a pair uᵢ, vᵢ may both be negated).
	a := linalg.NewDense(2, 3, []float64{
		3, 4, 0,
		0, 0, 3,
	})
	var svd linalg.SVD
	if err := svd.Factorize(a, linalg.SVDThin); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("σ =", svd.Values(nil)) // descending
	fmt.Println("U =", rounded(svd.UTo(nil)))
	fmt.Println("V =", rounded(svd.VTo(nil)))
	// Output:
	// σ = [5 3]
	// U = [[-1 0] [0 -1]]
	// V = [[-0.6 0] [-0.8 0] [0 -1]]
}

func ExampleSVD_Factorize() {
	// What Factorize computes is chosen by its kind: SVDThin (the zero
	// value), SVDFull or SVDValues, optionally with a route: SVDJacobi for
	// high relative accuracy, SVDBidiagonal for speed on large matrices.
	a := linalg.NewDense(2, 3, []float64{
		3, 4, 0,
		0, 0, 3,
	})
	var svd linalg.SVD
	if err := svd.Factorize(a, linalg.SVDValues|linalg.SVDBidiagonal); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("σ =", svd.Values(nil))

	// The full V is 3×3: its last column spans the null space of A.
	if err := svd.Factorize(a, linalg.SVDFull); err != nil {
		fmt.Println(err)
		return
	}
	v := svd.VTo(nil)
	null := []float64{v.At(0, 2), v.At(1, 2), v.At(2, 2)}
	if null[0] < 0 { // a singular vector's sign is arbitrary
		null = []float64{-null[0], -null[1], -null[2]}
	}
	fmt.Printf("V is %d×%d, null space %v\n", v.Rows, v.Cols, rounded(linalg.NewDense(1, 3, null))[0])
	// Output:
	// σ = [5 3]
	// V is 3×3, null space [0.8 -0.6 0]
}

func ExampleSVD_Rank() {
	// The third column is the sum of the first two, so the rank is 2. The
	// smallest singular value is rounding noise, below the default cutoff
	// max(m, n)·ε·σ₁.
	a := linalg.NewDense(4, 3, []float64{
		1, 2, 3,
		4, 5, 9,
		7, 8, 15,
		1, 0, 1,
	})
	var svd linalg.SVD
	if err := svd.Factorize(a, linalg.SVDThin); err != nil {
		fmt.Println(err)
		return
	}
	s := svd.Values(nil)
	fmt.Printf("σ₁ = %.4f, σ₂ = %.4f, σ₃ < 1e-14: %v\n", s[0], s[1], s[2] < 1e-14)
	fmt.Println("rank:", svd.Rank(0))
	// Output:
	// σ₁ = 21.7961, σ₂ = 0.9635, σ₃ < 1e-14: true
	// rank: 2
}

func ExampleSVD_SolveTo() {
	// Least-squares line y = c₀ + c₁·x through (0, 1), (1, 3), (2, 4), (3, 8).
	a := linalg.NewDense(4, 2, []float64{
		1, 0,
		1, 1,
		1, 2,
		1, 3,
	})
	b := linalg.NewDense(4, 1, []float64{1, 3, 4, 8})
	var svd linalg.SVD
	if err := svd.Factorize(a, linalg.SVDThin); err != nil {
		fmt.Println(err)
		return
	}
	c, rank := svd.SolveTo(nil, b, 0)
	fmt.Printf("c = %.4f, rank %d\n", c.Data, rank)

	// An underdetermined system x₁ + x₂ = 2 has many solutions; SolveTo
	// returns the one of least norm.
	u := linalg.NewDense(1, 2, []float64{1, 1})
	if err := svd.Factorize(u, linalg.SVDThin); err != nil {
		fmt.Println(err)
		return
	}
	x, _ := svd.SolveTo(nil, linalg.NewDense(1, 1, []float64{2}), 0)
	fmt.Printf("x = %.4f\n", x.Data)
	// Output:
	// c = [0.7000 2.2000], rank 2
	// x = [1.0000 1.0000]
}
