package kernels

import (
	"math"

	"rkhs/linalg"
)

// FarRows adds up, block by block, the two checks the rows of a file get
// before a model with the standardization s predicts at them, as one call
// on the whole file makes them: Off, the rows that differ from a feature
// constant in the training rows (Standardization.OffConstant), with
// OffValue the value of its worst element; Far, the rows beyond
// DefaultOutlyingLimit training standard deviations on some feature
// (Standardization.Outlying). Rows counts the rows added, and the worst
// element's Row in Off and Far counts from the first of them; Off's Row,
// Feature, Z and OffValue are meaningful when Off.Rows > 0, Far's after a
// row was added. The zero value is ready to use.
type FarRows struct {
	Rows     int
	Off      Outliers
	OffValue float64
	Far      Outliers
}

// Add adds the rows of x, the next rows of the file (n×d, n ≥ 0), checked
// against s: one pass of OffConstant and one of Outlying, no allocation, x
// not modified. A block's worst replaces the worst so far only when its
// |z| is larger, so that the first of equal worst elements stays, as in
// one call on the whole file.
//
// Errors: those of OffConstant and Outlying; on error f is unchanged.
func (f *FarRows) Add(s *Standardization, x *linalg.Dense) error {
	off, err := s.OffConstant(x)
	if err != nil {
		return err
	}
	far, err := s.Outlying(x, DefaultOutlyingLimit)
	if err != nil {
		return err
	}
	if off.Rows > 0 && (f.Off.Rows == 0 || math.Abs(off.Z) > math.Abs(f.Off.Z)) {
		f.Off.Row, f.Off.Feature, f.Off.Z, f.OffValue = f.Rows+off.Row, off.Feature, off.Z, x.At(off.Row, off.Feature)
	}
	f.Off.Rows += off.Rows
	if far.Row >= 0 && (f.Rows == 0 || math.Abs(far.Z) > math.Abs(f.Far.Z)) {
		f.Far.Row, f.Far.Feature, f.Far.Z = f.Rows+far.Row, far.Feature, far.Z
	}
	f.Far.Rows += far.Rows
	f.Rows += x.Rows
	return nil
}
