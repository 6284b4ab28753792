package linalg

import "fmt"

// Dense is a row-major view of a matrix: element (i, j) is
// Data[i*Stride+j] for 0 ≤ i < Rows and 0 ≤ j < Cols, with Stride ≥ Cols.
//
// Dense is a plain value describing storage; copying a Dense copies the view,
// not the elements. The zero value is an empty 0×0 matrix. The fields are
// exported so that callers can wrap their own storage without a copy; every
// routine checks them (see [Dense.check]) and panics on an impossible view.
type Dense struct {
	Rows, Cols int
	Stride     int
	Data       []float64
}

// NewDense returns an r×c matrix with Stride c. If data is nil, new zeroed
// storage is allocated; otherwise data is used as the storage (not copied) and
// must have length r*c. NewDense panics on negative sizes or a wrong length.
func NewDense(r, c int, data []float64) *Dense {
	if r < 0 || c < 0 {
		panic(fmt.Sprintf("linalg: negative dimension %d×%d", r, c))
	}
	if data == nil {
		data = make([]float64, r*c)
	} else if len(data) != r*c {
		panic(fmt.Sprintf("linalg: %d×%d matrix needs %d elements, got %d", r, c, r*c, len(data)))
	}
	return &Dense{Rows: r, Cols: c, Stride: c, Data: data}
}

// Dims returns the number of rows and columns.
func (m *Dense) Dims() (r, c int) { return m.Rows, m.Cols }

// IsEmpty reports whether m has no elements (for example the zero Dense).
func (m *Dense) IsEmpty() bool { return m.Rows == 0 || m.Cols == 0 }

// At returns element (i, j). It panics if (i, j) is outside the matrix.
func (m *Dense) At(i, j int) float64 {
	m.checkIndex("At", i, j)
	return m.Data[i*m.Stride+j]
}

// Set sets element (i, j) to v. It panics if (i, j) is outside the matrix.
func (m *Dense) Set(i, j int, v float64) {
	m.checkIndex("Set", i, j)
	m.Data[i*m.Stride+j] = v
}

// Row returns row i as a slice of length Cols that shares m's storage, so
// writes through it change m. Its capacity ends at the row's last element, so
// append cannot reach into the next row.
func (m *Dense) Row(i int) []float64 {
	if uint(i) >= uint(m.Rows) {
		panic(fmt.Sprintf("linalg: row %d out of range [0,%d)", i, m.Rows))
	}
	if m.Cols == 0 {
		return nil // an m×0 matrix or view has no storage
	}
	off := i * m.Stride
	if m.Stride < m.Cols || off+m.Cols > len(m.Data) {
		m.check("Row") // panics with the reason
	}
	return m.Data[off : off+m.Cols : off+m.Cols]
}

// Slice returns the view of rows [i0, i1) and columns [j0, j1) of m. The view
// shares m's storage: no elements are copied. It panics if the block is not
// inside m.
func (m *Dense) Slice(i0, i1, j0, j1 int) *Dense {
	v := m.view(i0, i1, j0, j1)
	return &v
}

// view is Slice returning a value, for internal use without allocation.
func (m *Dense) view(i0, i1, j0, j1 int) Dense {
	if i0 < 0 || i1 < i0 || i1 > m.Rows || j0 < 0 || j1 < j0 || j1 > m.Cols {
		panic(fmt.Sprintf("linalg: block [%d:%d, %d:%d] outside %d×%d matrix", i0, i1, j0, j1, m.Rows, m.Cols))
	}
	r, c := i1-i0, j1-j0
	if r == 0 || c == 0 {
		return Dense{Rows: r, Cols: c, Stride: max(m.Stride, 1)}
	}
	off := i0*m.Stride + j0
	return Dense{Rows: r, Cols: c, Stride: m.Stride, Data: m.Data[off : off+(r-1)*m.Stride+c]}
}

// Clone returns a copy of m in new compact storage (Stride = Cols).
func (m *Dense) Clone() *Dense {
	m.check("Clone")
	c := NewDense(m.Rows, m.Cols, nil)
	c.Copy(m)
	return c
}

// Copy copies the elements of src into m. The shapes must match; m and src
// must not overlap unless they are the same view.
func (m *Dense) Copy(src *Dense) {
	m.check("Copy")
	src.check("Copy")
	if m.Rows != src.Rows || m.Cols != src.Cols {
		panic(fmt.Sprintf("linalg: Copy of %d×%d into %d×%d", src.Rows, src.Cols, m.Rows, m.Cols))
	}
	if m.IsEmpty() {
		return // an m×0 view has no storage to index
	}
	for i := 0; i < m.Rows; i++ {
		copy(m.Data[i*m.Stride:i*m.Stride+m.Cols], src.Data[i*src.Stride:i*src.Stride+src.Cols])
	}
}

// Zero sets every element of m to zero (padding beyond Cols is untouched).
func (m *Dense) Zero() {
	m.check("Zero")
	if m.IsEmpty() {
		return
	}
	for i := 0; i < m.Rows; i++ {
		clear(m.Data[i*m.Stride : i*m.Stride+m.Cols])
	}
}

// Reuse makes m an r×c compact matrix (Stride c) and returns m: on m's
// storage when its capacity, counted from the start of Data, holds r·c
// elements, on new storage otherwise. It is for workspace that a loop
// resizes from one step to the next (a last, shorter block of rows)
// without allocating again. The contents are unspecified; on a view, the
// storage reused is that of the matrix viewed, from the view's first
// element on. Reuse panics on negative sizes.
func (m *Dense) Reuse(r, c int) *Dense {
	if r < 0 || c < 0 {
		panic(fmt.Sprintf("linalg: Reuse: negative dimension %d×%d", r, c))
	}
	if cap(m.Data) < r*c {
		*m = *NewDense(r, c, nil)
		return m
	}
	*m = Dense{Rows: r, Cols: c, Stride: c, Data: m.Data[:r*c]}
	return m
}

// TransposeInPlace overwrites the square matrix m with its transpose,
// swapping a[i][j] and a[j][i] in tiles of 32×32 so that the rows read and
// the rows written stay in cache. It moves n(n−1)/2 pairs and computes
// nothing, so the result is exact. It panics if m is not square.
func (m *Dense) TransposeInPlace() {
	m.checkSquare("TransposeInPlace")
	const tile = 32
	n, lda := m.Rows, m.Stride
	for i0 := 0; i0 < n; i0 += tile {
		i1 := min(i0+tile, n)
		for j0 := i0; j0 < n; j0 += tile {
			j1 := min(j0+tile, n)
			for i := i0; i < i1; i++ {
				for j := max(j0, i+1); j < j1; j++ {
					m.Data[i*lda+j], m.Data[j*lda+i] = m.Data[j*lda+i], m.Data[i*lda+j]
				}
			}
		}
	}
}

// reuseAs makes m an r×c matrix: an empty m gets new compact storage, a
// non-empty m must already be r×c.
func (m *Dense) reuseAs(r, c int, op string) {
	if m.IsEmpty() {
		*m = *NewDense(r, c, nil)
		return
	}
	m.check(op)
	if m.Rows != r || m.Cols != c {
		panic(fmt.Sprintf("linalg: %s: destination is %d×%d, want %d×%d", op, m.Rows, m.Cols, r, c))
	}
}

// check panics, naming op, if m is not a valid view: negative sizes, a Stride
// smaller than Cols, or Data too short to hold the last row.
func (m *Dense) check(op string) {
	if m.Rows < 0 || m.Cols < 0 {
		panic(fmt.Sprintf("linalg: %s: negative dimension %d×%d", op, m.Rows, m.Cols))
	}
	if m.Rows == 0 || m.Cols == 0 {
		return
	}
	if m.Stride < m.Cols {
		panic(fmt.Sprintf("linalg: %s: stride %d smaller than %d columns", op, m.Stride, m.Cols))
	}
	if need := (m.Rows-1)*m.Stride + m.Cols; len(m.Data) < need {
		panic(fmt.Sprintf("linalg: %s: %d×%d view with stride %d needs %d elements, has %d", op, m.Rows, m.Cols, m.Stride, need, len(m.Data)))
	}
}

// checkSquare is check for a matrix that must also be square.
func (m *Dense) checkSquare(op string) {
	m.check(op)
	if m.Rows != m.Cols {
		panic(fmt.Sprintf("linalg: %s: matrix is %d×%d, not square", op, m.Rows, m.Cols))
	}
}

func (m *Dense) checkIndex(op string, i, j int) {
	if uint(i) >= uint(m.Rows) || uint(j) >= uint(m.Cols) {
		panic(fmt.Sprintf("linalg: index (%d,%d) out of range for %d×%d matrix", i, j, m.Rows, m.Cols))
	}
	if j >= m.Stride || i*m.Stride+j >= len(m.Data) {
		m.check(op) // a malformed view: panics with the reason
	}
}
