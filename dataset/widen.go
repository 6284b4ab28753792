package dataset

import "rkhs/linalg"

// Widen pads the rows of d with zero features up to cols columns, in
// place: a LIBSVM file does not show trailing all-zero features, so that a
// file read beside another (a test file beside its training file) can be
// narrower. d.X becomes a new compact matrix when it has fewer than cols
// columns; d is left as it is otherwise. Cost: one copy of X when it
// widens.
func (d *Data) Widen(cols int) {
	if d.X.Cols >= cols {
		return
	}
	w := linalg.NewDense(d.X.Rows, cols, nil)
	w.Slice(0, d.X.Rows, 0, d.X.Cols).Copy(&d.X)
	d.X = *w
}
