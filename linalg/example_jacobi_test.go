package linalg_test

import (
	"fmt"
	"math"

	"rkhs/linalg"
)

func ExampleEigenSymJacobi_Factorize() {
	// The second-difference matrix, given by its lower triangle (the
	// upper one is not read). Its eigenvalues are 2 − √2, 2 and 2 + √2.
	a := linalg.NewDense(3, 3, []float64{
		2, 0, 0,
		-1, 2, 0,
		0, -1, 2,
	})
	var e linalg.EigenSymJacobi
	if err := e.Factorize(a, true); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("λ = %.4f\n", e.Values(nil))
	fmt.Printf("2 ∓ √2 = %.4f, %.4f\n", 2-math.Sqrt2, 2+math.Sqrt2)
	// Output:
	// λ = [0.5858 2.0000 3.4142]
	// 2 ∓ √2 = 0.5858, 3.4142
}

func ExampleEigenSymJacobi_Values() {
	a := linalg.NewDense(2, 2, []float64{
		5, 0,
		2, 2,
	})
	var e linalg.EigenSymJacobi
	w := make([]float64, 2) // reused for every factorization
	for _, shift := range []float64{0, 10} {
		// A + shift·I has the eigenvalues of A plus shift.
		a.Set(0, 0, 5+shift)
		a.Set(1, 1, 2+shift)
		if err := e.Factorize(a, false); err != nil { // values only
			fmt.Println(err)
			return
		}
		fmt.Printf("%.4f\n", e.Values(w)) // ascending
	}
	// Output:
	// [1.0000 6.0000]
	// [11.0000 16.0000]
}

func ExampleEigenSymJacobi_VectorsTo() {
	a := linalg.NewDense(2, 2, []float64{
		2, 1,
		1, 2,
	})
	var e linalg.EigenSymJacobi
	if err := e.Factorize(a, true); err != nil {
		fmt.Println(err)
		return
	}
	w := e.Values(nil)
	v := e.VectorsTo(nil)
	for j := range w {
		// Column j is the unit eigenvector of w[j]; its sign is not
		// specified, so make the first component positive.
		x, y := v.At(0, j), v.At(1, j)
		if x < 0 {
			x, y = -x, -y
		}
		fmt.Printf("λ = %.4f, v = (%.4f, %.4f)\n", w[j], x, y)
	}
	// Output:
	// λ = 1.0000, v = (0.7071, -0.7071)
	// λ = 3.0000, v = (0.7071, 0.7071)
}

// A graded matrix A = D·B·D with B the second-difference matrix (condition
// 5.8) and D = diag(1, 2⁻³⁰, 2⁻⁶⁰): its smallest eigenvalue, about 1e-36,
// is determined by the entries to nearly full precision, and Jacobi finds
// it so (all the digits printed are right: the tests check such values
// against exact rational arithmetic). A method accurate only to
// ε·‖A‖ ≈ 4e-16, such as tridiagonal QR, could return anything between
// −4e-16 and 4e-16 for it. As a check, the product of the eigenvalues is
// det A = det(D)²·det(B) = 4·2⁻¹⁸⁰, exactly, since powers of two scale
// without rounding.
func ExampleEigenSymJacobi_graded() {
	d := []float64{1, 0x1p-30, 0x1p-60}
	b := [][]float64{{2, -1, 0}, {-1, 2, -1}, {0, -1, 2}}
	a := linalg.NewDense(3, 3, nil)
	for i := range d {
		for j := 0; j <= i; j++ {
			a.Set(i, j, d[i]*b[i][j]*d[j])
		}
	}
	var e linalg.EigenSymJacobi
	if err := e.Factorize(a, false); err != nil {
		fmt.Println(err)
		return
	}
	w := e.Values(nil)
	fmt.Printf("λ = %.10e\n", w)
	det := 4 * math.Ldexp(1, -180)
	fmt.Printf("|λ₀λ₁λ₂/det A − 1| < 1e-15: %t\n", math.Abs(w[0]*w[1]*w[2]/det-1) < 1e-15)
	// Output:
	// λ = [1.0030885127e-36 1.3010426070e-18 2.0000000000e+00]
	// |λ₀λ₁λ₂/det A − 1| < 1e-15: true
}
