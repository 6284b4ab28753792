package dataset

import (
	"fmt"
	"math"

	"rkhs/linalg"
)

// Data is a labelled data set of n examples with d features: row i of X is
// example i and Y[i] is its label (a class code or a regression target).
//
// The readers return X with compact storage (Stride = d, len(X.Data) = n·d)
// and len(Y) = n. The writers accept any valid view: Stride ≥ Cols and Data
// long enough for the last row.
type Data struct {
	X linalg.Dense
	Y []float64
}

// check returns a *DataError if d cannot be written: it is nil, its X is not
// a valid view, len(Y) differs from X.Rows, or an element of X or Y is NaN
// or ±Inf. It reads d and changes nothing.
func (d *Data) check() error {
	if d == nil {
		return &DataError{Row: -1, Msg: "nil Data"}
	}
	x := &d.X
	if x.Rows < 0 || x.Cols < 0 {
		return &DataError{Row: -1, Msg: fmt.Sprintf("X has negative dimension %d×%d", x.Rows, x.Cols)}
	}
	if len(d.Y) != x.Rows {
		return &DataError{Row: -1, Msg: fmt.Sprintf("%d labels for %d rows of X", len(d.Y), x.Rows)}
	}
	if x.Rows > 0 && x.Cols > 0 {
		if x.Stride < x.Cols {
			return &DataError{Row: -1, Msg: fmt.Sprintf("X has stride %d smaller than its %d columns", x.Stride, x.Cols)}
		}
		// need = (Rows-1)*Stride + Cols, computed without overflow.
		if x.Rows-1 > (math.MaxInt-x.Cols)/x.Stride || len(x.Data) < (x.Rows-1)*x.Stride+x.Cols {
			return &DataError{Row: -1, Msg: fmt.Sprintf("X data of length %d is too short for %d×%d with stride %d", len(x.Data), x.Rows, x.Cols, x.Stride)}
		}
	}
	for i, y := range d.Y {
		if !isFinite(y) {
			return &DataError{Row: i, Msg: fmt.Sprintf("label is %v", y), Err: &linalg.NotFiniteError{Row: i, Value: y}}
		}
		for j, v := range d.row(i) {
			if !isFinite(v) {
				return &DataError{Row: i, Msg: fmt.Sprintf("X column %d is %v", j, v), Err: &linalg.NotFiniteError{Row: i, Col: j, Value: v}}
			}
		}
	}
	return nil
}

// row returns row i of X; d must have passed check.
func (d *Data) row(i int) []float64 {
	if d.X.Cols == 0 {
		return nil
	}
	off := i * d.X.Stride
	return d.X.Data[off : off+d.X.Cols]
}

// Labels returns Y as an n×1 matrix sharing its storage, the form in which
// the library's fits (regress, loo, interval) take one output: a change to
// one is a change to the other.
func (d *Data) Labels() *linalg.Dense { return linalg.NewDense(len(d.Y), 1, d.Y) }
