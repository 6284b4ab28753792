package linalg

import (
	"strings"
	"testing"
)

func TestDenseLayout(t *testing.T) {
	// A 3×4 view with stride 6: row i starts at 6i.
	data := make([]float64, 2*6+4)
	for i := range data {
		data[i] = float64(i)
	}
	m := &Dense{Rows: 3, Cols: 4, Stride: 6, Data: data}
	if got := m.At(2, 3); got != 15 {
		t.Errorf("At(2,3) = %v, want 15", got)
	}
	row := m.Row(1)
	if len(row) != 4 || cap(row) != 4 || row[0] != 6 {
		t.Errorf("Row(1) = %v (cap %d), want [6 7 8 9] with cap 4", row, cap(row))
	}
	row[0] = -1
	if m.At(1, 0) != -1 {
		t.Errorf("writing through Row does not reach the matrix")
	}

	v := m.Slice(1, 3, 1, 3)
	if r, c := v.Dims(); r != 2 || c != 2 || v.Stride != 6 {
		t.Fatalf("Slice(1,3,1,3) is %d×%d stride %d, want 2×2 stride 6", r, c, v.Stride)
	}
	if v.At(1, 1) != 14 {
		t.Errorf("view At(1,1) = %v, want 14", v.At(1, 1))
	}
	v.Set(0, 0, 100)
	if m.At(1, 1) != 100 {
		t.Errorf("a view does not share storage with its parent")
	}

	c := m.Clone()
	if c.Stride != 4 || c.At(2, 3) != 15 || c.At(1, 1) != 100 {
		t.Errorf("Clone: stride %d, At(2,3)=%v, At(1,1)=%v", c.Stride, c.At(2, 3), c.At(1, 1))
	}
	c.Set(0, 0, 42)
	if m.At(0, 0) == 42 {
		t.Errorf("Clone shares storage")
	}
	v.Zero()
	if m.At(1, 1) != 0 || m.At(2, 2) != 0 || m.At(1, 3) != 9 || data[4] != 4 {
		t.Errorf("Zero of a view touched the wrong elements: %v", data)
	}
	// Padding (columns 4, 5 of each row) was never written.
	if data[4] != 4 || data[5] != 5 || data[10] != 10 || data[11] != 11 {
		t.Errorf("padding changed: %v", data)
	}
}

func TestDenseZeroValue(t *testing.T) {
	var m Dense
	if !m.IsEmpty() {
		t.Errorf("zero Dense is not empty")
	}
	if r, c := m.Dims(); r != 0 || c != 0 {
		t.Errorf("zero Dense is %d×%d", r, c)
	}
	m.Zero()
	_ = m.Clone()
	e := m.Slice(0, 0, 0, 0)
	if !e.IsEmpty() {
		t.Errorf("empty slice is not empty")
	}
	// Views with rows but no columns (and the reverse) have no storage:
	// Zero, Copy and Clone must not index it.
	big := NewDense(3, 4, nil)
	for _, v := range []*Dense{big.Slice(1, 3, 2, 2), big.Slice(3, 3, 0, 4)} {
		v.Zero()
		v.Copy(NewDense(v.Rows, v.Cols, nil))
		if c := v.Clone(); c.Rows != v.Rows || c.Cols != v.Cols {
			t.Errorf("Clone of a %d×%d view is %d×%d", v.Rows, v.Cols, c.Rows, c.Cols)
		}
	}
	// An empty destination is allocated by routines returning a matrix.
	var ch Cholesky
	a := NewDense(2, 2, []float64{4, 0, 2, 5})
	if err := ch.Factorize(a); err != nil {
		t.Fatal(err)
	}
	var l Dense
	ch.LTo(&l)
	if l.Rows != 2 || l.At(1, 0) != 1 || l.At(1, 1) != 2 || l.At(0, 1) != 0 {
		t.Errorf("LTo into the zero Dense gave %+v", l)
	}
}

func TestDensePanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func()
		want string
	}{
		{"NewDense negative", func() { NewDense(-1, 2, nil) }, "negative"},
		{"NewDense short data", func() { NewDense(2, 2, make([]float64, 3)) }, "needs 4"},
		{"At out of range", func() { NewDense(2, 2, nil).At(2, 0) }, "out of range"},
		{"Set out of range", func() { NewDense(2, 2, nil).Set(0, -1, 1) }, "out of range"},
		{"Row out of range", func() { NewDense(2, 2, nil).Row(2) }, "out of range"},
		{"Slice outside", func() { NewDense(2, 2, nil).Slice(0, 3, 0, 1) }, "outside"},
		{"Copy shape", func() { NewDense(2, 2, nil).Copy(NewDense(2, 3, nil)) }, "Copy"},
		{"stride < cols", func() {
			m := &Dense{Rows: 2, Cols: 3, Stride: 2, Data: make([]float64, 6)}
			Gemm(NoTrans, NoTrans, 1, m, NewDense(3, 1, nil), 0, NewDense(2, 1, nil))
		}, "stride"},
		{"data too short", func() {
			m := &Dense{Rows: 2, Cols: 3, Stride: 4, Data: make([]float64, 6)}
			Syrk(Lower, NoTrans, 1, m, 0, NewDense(2, 2, nil))
		}, "needs 7"},
		{"Row of short data", func() {
			m := &Dense{Rows: 2, Cols: 3, Stride: 3, Data: make([]float64, 4)}
			m.Row(1)
		}, "needs 6"},
		{"At of short data", func() {
			m := &Dense{Rows: 2, Cols: 3, Stride: 3, Data: make([]float64, 4)}
			m.At(1, 2)
		}, "At: 2×3 view"},
		{"Syrk both triangles", func() { Syrk(All, NoTrans, 1, NewDense(2, 2, nil), 0, NewDense(2, 2, nil)) }, "want Lower or Upper"},
		{"Trsm both triangles", func() { Trsm(All, NoTrans, NewDense(2, 2, nil), NewDense(2, 1, nil)) }, "want Lower or Upper"},
		{"Trsv both triangles", func() { Trsv(All, NoTrans, NewDense(2, 2, nil), make([]float64, 2)) }, "want Lower or Upper"},
		{"LTo wrong shape", func() {
			var ch Cholesky
			_ = ch.Factorize(NewDense(1, 1, []float64{1}))
			ch.LTo(NewDense(2, 2, nil))
		}, "destination"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := recover()
				msg, _ := r.(string)
				if r == nil || !strings.HasPrefix(msg, "linalg: ") || !strings.Contains(msg, tc.want) {
					t.Errorf("panic %v, want a message starting with \"linalg: \" containing %q", r, tc.want)
				}
			}()
			tc.f()
		})
	}
}

// TestDenseReuse: Reuse keeps the storage while it holds r·c elements
// (from the start of Data), allocates when it does not, always gives a
// compact view, and panics on a negative size.
func TestDenseReuse(t *testing.T) {
	var m Dense
	m.Reuse(4, 5)
	first := &m.Data[0]
	for _, c := range []struct {
		r, c int
		same bool
	}{{4, 5, true}, {2, 5, true}, {1, 20, true}, {0, 3, true}, {3, 7, false}} {
		got := m.Reuse(c.r, c.c)
		if got != &m || m.Rows != c.r || m.Cols != c.c || m.Stride != c.c || len(m.Data) != c.r*c.c {
			t.Fatalf("Reuse(%d, %d): %d×%d stride %d, %d elements", c.r, c.c, m.Rows, m.Cols, m.Stride, len(m.Data))
		}
		if same := cap(m.Data) > 0 && &m.Data[:1][0] == first; same != c.same {
			t.Errorf("Reuse(%d, %d): on the same storage %v, want %v", c.r, c.c, same, c.same)
		}
	}
	defer func() {
		if r := recover(); r == nil || !strings.HasPrefix(r.(string), "linalg: Reuse") {
			t.Errorf("Reuse(-1, 2): panic %v, want one naming Reuse", r)
		}
	}()
	m.Reuse(-1, 2)
}

// TestDenseTransposeInPlace: a square matrix larger than a tile, with a
// stride beyond its columns, becomes its transpose, its padding
// untouched; a rectangular one panics.
func TestDenseTransposeInPlace(t *testing.T) {
	for _, n := range []int{0, 1, 31, 32, 33, 70} {
		const pad = 3
		data := make([]float64, n*(n+pad))
		for i := range data {
			data[i] = float64(i)
		}
		m := Dense{Rows: n, Cols: n, Stride: n + pad, Data: data}
		m.TransposeInPlace()
		for i := range n {
			for j := range n + pad {
				want := float64(i*(n+pad) + j) // padding
				if j < n {
					want = float64(j*(n+pad) + i)
				}
				if got := data[i*(n+pad)+j]; got != want {
					t.Fatalf("n=%d: [%d][%d] = %v, want %v", n, i, j, got, want)
				}
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("TransposeInPlace of a 2×3 matrix: no panic")
		}
	}()
	NewDense(2, 3, nil).TransposeInPlace()
}
