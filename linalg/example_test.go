package linalg_test

import (
	"errors"
	"fmt"

	"rkhs/linalg"
)

func ExampleNewDense() {
	// A 2×3 matrix in row-major order: element (i, j) is Data[i*Stride+j].
	m := linalg.NewDense(2, 3, []float64{
		1, 2, 3,
		4, 5, 6,
	})
	m.Set(0, 0, 10)
	fmt.Println(m.At(1, 2), m.Row(0))
	// Output:
	// 6 [10 2 3]
}

func ExampleDense_Slice() {
	m := linalg.NewDense(3, 3, []float64{
		1, 2, 3,
		4, 5, 6,
		7, 8, 9,
	})
	// The lower-right 2×2 block, sharing storage with m.
	v := m.Slice(1, 3, 1, 3)
	v.Set(0, 0, -5)
	fmt.Println(v.Rows, v.Cols, v.Stride, m.At(1, 1), v.Clone().Data)
	// Output:
	// 2 2 3 -5 [-5 6 8 9]
}

func ExampleGemm() {
	a := linalg.NewDense(2, 3, []float64{
		1, 2, 3,
		4, 5, 6,
	})
	c := linalg.NewDense(2, 2, nil)
	// C = A·Aᵀ: the Gram matrix of the rows of A.
	linalg.Gemm(linalg.NoTrans, linalg.Trans, 1, a, a, 0, c)
	fmt.Println(c.Data)
	// C = 10·I·I + 1·C adds 10 to the diagonal: β = 1 keeps what C held.
	id := linalg.NewDense(2, 2, []float64{1, 0, 0, 1})
	linalg.Gemm(linalg.NoTrans, linalg.NoTrans, 10, id, id, 1, c)
	fmt.Println(c.Data)
	// Output:
	// [14 32 32 77]
	// [24 32 32 87]
}

func ExampleSyrk() {
	x := linalg.NewDense(3, 2, []float64{
		1, 0,
		1, 1,
		1, 2,
	})
	// Lower triangle of XᵀX (the normal-equations matrix); the upper
	// triangle of c is not touched.
	c := linalg.NewDense(2, 2, []float64{0, -1, 0, 0})
	linalg.Syrk(linalg.Lower, linalg.Trans, 1, x, 0, c)
	fmt.Println(c.Data)
	// Output:
	// [3 -1 3 5]
}

func ExampleTrsm() {
	// L·X = B with L lower triangular and two right-hand sides.
	l := linalg.NewDense(2, 2, []float64{
		2, 0,
		1, 4,
	})
	b := linalg.NewDense(2, 2, []float64{
		2, 4,
		5, 10,
	})
	linalg.Trsm(linalg.Lower, linalg.NoTrans, l, b) // b now holds X
	fmt.Println(b.Data)
	// Output:
	// [1 2 1 2]
}

func ExampleTrsv() {
	// Uᵀ·x = b with U upper triangular, given as the upper triangle of u.
	u := linalg.NewDense(2, 2, []float64{
		2, 1,
		0, 4,
	})
	x := []float64{2, 9}
	linalg.Trsv(linalg.Upper, linalg.Trans, u, x)
	fmt.Println(x)
	// Output:
	// [1 2]
}

func ExampleCholesky() {
	a := linalg.NewDense(3, 3, []float64{
		4, 2, 2,
		2, 5, 3,
		2, 3, 6,
	})
	var ch linalg.Cholesky
	if err := ch.Factorize(a); err != nil {
		fmt.Println(err)
		return
	}
	x := ch.SolveVecTo(nil, []float64{8, 10, 11}) // A·x = b
	fmt.Printf("x = %.4f\n", x)
	fmt.Printf("log det A = %.4f\n", ch.LogDet())
	// Output:
	// x = [1.0000 1.0000 1.0000]
	// log det A = 4.1589
}

func ExampleCholesky_LTo() {
	a := linalg.NewDense(2, 2, []float64{
		4, 2,
		2, 10,
	})
	var ch linalg.Cholesky
	if err := ch.Factorize(a); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ch.LTo(nil).Data)
	// Output:
	// [2 0 1 3]
}

func ExampleCholesky_SolveTo() {
	a := linalg.NewDense(2, 2, []float64{
		4, 2,
		2, 10,
	})
	var ch linalg.Cholesky
	if err := ch.Factorize(a); err != nil {
		fmt.Println(err)
		return
	}
	// Two right-hand sides at once, solved in place (dst = b).
	b := linalg.NewDense(2, 2, []float64{
		6, 4,
		12, 2,
	})
	ch.SolveTo(b, b)
	fmt.Println(b.Data)
	// Output:
	// [1 1 1 0]
}

func ExampleCholesky_FactorizeInPlace() {
	// The lower triangle of a is overwritten with L; the upper is untouched.
	a := linalg.NewDense(2, 2, []float64{
		9, -7,
		3, 5,
	})
	var ch linalg.Cholesky
	if err := ch.FactorizeInPlace(a); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(a.Data, ch.Size())
	// Output:
	// [3 -7 1 2] 2
}

func ExampleCholesky_InverseDiagTo() {
	a := linalg.NewDense(2, 2, []float64{
		2, 1,
		1, 2,
	})
	var ch linalg.Cholesky
	if err := ch.Factorize(a); err != nil {
		fmt.Println(err)
		return
	}
	// A⁻¹ = [2 −1; −1 2]/3.
	fmt.Printf("%.4f\n", ch.InverseDiagTo(nil))
	// Output:
	// [0.6667 0.6667]
}

func ExampleCholesky_Factorize_notPositiveDefinite() {
	a := linalg.NewDense(3, 3, []float64{
		1, 0, 0,
		2, 1, 0,
		0, 0, 1,
	})
	var ch linalg.Cholesky
	err := ch.Factorize(a) // reads the lower triangle: [1 2; 2 1] is indefinite
	var pe *linalg.PivotError
	if errors.As(err, &pe) {
		fmt.Println(errors.Is(err, linalg.ErrNotPositiveDefinite), pe.Col, pe.Value)
	}
	// Output:
	// true 1 -3
}

// Workspace for blocks of rows that shrink at the end: the last, shorter
// block reuses the storage of the first.
func ExampleDense_Reuse() {
	var w linalg.Dense
	for _, rows := range []int{3, 1} {
		b := w.Reuse(rows, 2)
		fmt.Println(b.Rows, b.Cols, b.Stride, cap(b.Data))
	}
	// Output:
	// 3 2 2 6
	// 1 2 2 6
}

func ExampleDense_TransposeInPlace() {
	m := linalg.NewDense(2, 2, []float64{
		1, 2,
		3, 4,
	})
	m.TransposeInPlace()
	fmt.Println(m.Data)
	// Output:
	// [1 3 2 4]
}
