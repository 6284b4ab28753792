package linalg

import "testing"

// TestEmptyShapes runs every entry point on shapes with a zero dimension,
// including views with rows but no columns (which have no storage at all):
// none may panic or report an error, and the non-empty operands must be
// left as the operation defines (C = β·C when the inner dimension is 0).
func TestEmptyShapes(t *testing.T) {
	big := NewDense(4, 4, nil)
	for i := range big.Data {
		big.Data[i] = float64(i*i%7 + 1)
	}
	want := big.Clone()
	a := NewDense(3, 3, []float64{4, 0, 0, 1, 5, 0, 1, 1, 6})
	run := func(name string, f func() error) {
		t.Helper()
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("%s: panic %v", name, r)
			}
		}()
		if err := f(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	noCols := big.Slice(0, 3, 4, 4) // 3×0
	noRows := big.Slice(4, 4, 0, 3) // 0×3
	run("Row of 3×0", func() error {
		for i := range noCols.Rows {
			if r := noCols.Row(i); len(r) != 0 {
				t.Errorf("Row(%d) of a 3×0 view has %d elements", i, len(r))
			}
		}
		for i := range 3 {
			_ = NewDense(3, 0, nil).Row(i)
		}
		return nil
	})
	run("Gemm n=0", func() error {
		Gemm(NoTrans, NoTrans, 1, big.Slice(0, 3, 0, 2), big.Slice(0, 2, 4, 4), 0.5, noCols)
		return nil
	})
	run("Trsm 3×0", func() error { Trsm(Lower, NoTrans, a, noCols); return nil })
	run("checkFinite 3×0", func() error { return checkFinite(*noCols) })
	run("Cholesky.SolveTo 3×0", func() error {
		var ch Cholesky
		if err := ch.Factorize(a); err != nil {
			return err
		}
		ch.SolveTo(nil, noCols)
		ch.SolveTo(NewDense(3, 0, nil), noCols)
		return nil
	})
	for _, v := range []*Dense{noCols, noRows, {}} {
		run("SVD", func() error { var s SVD; return s.Factorize(v, SVDThin) })
		if v.Rows >= v.Cols {
			run("QR", func() error { var q QR; return q.Factorize(v) })
		}
	}
	run("EigenSym 0×0", func() error { var e EigenSym; return e.Factorize(&Dense{}, true) })
	run("EigenSymJacobi 0×0", func() error { var e EigenSymJacobi; return e.Factorize(&Dense{}, true) })
	run("Cholesky 0×0", func() error { var c Cholesky; return c.Factorize(&Dense{}) })
	if !equalDense(big, want) {
		t.Errorf("an operation on an empty view changed the matrix it views")
	}

	// Inner dimension 0: C = β·C.
	c := NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	Gemm(NoTrans, NoTrans, 1, big.Slice(0, 3, 4, 4), big.Slice(4, 4, 0, 2), 0.5, c)
	for i, v := range []float64{0.5, 1, 1.5, 2, 2.5, 3} {
		if c.Data[i] != v {
			t.Fatalf("Gemm with k=0: C = %v, want 0.5·C", c.Data)
		}
	}
	s := NewDense(2, 2, []float64{2, 0, 4, 6})
	Syrk(Lower, NoTrans, 1, big.Slice(0, 2, 4, 4), 0.5, s)
	if s.At(0, 0) != 1 || s.At(1, 0) != 2 || s.At(1, 1) != 3 {
		t.Fatalf("Syrk with k=0: lower C = %v, want 0.5·C", s.Data)
	}
}

func equalDense(a, b *Dense) bool {
	if a.Rows != b.Rows || a.Cols != b.Cols {
		return false
	}
	for i := 0; i < a.Rows; i++ {
		for j := 0; j < a.Cols; j++ {
			if a.At(i, j) != b.At(i, j) {
				return false
			}
		}
	}
	return true
}
