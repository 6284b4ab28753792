package dataset

import (
	"fmt"

	"rkhs/internal/split"
	"rkhs/linalg"
)

// Subset returns a new Data holding the given rows of d, in the given
// order (rows may repeat). d is not modified. Subset panics if an index is
// out of range.
func (d *Data) Subset(rows []int) *Data {
	out := &Data{X: *linalg.NewDense(len(rows), d.X.Cols, nil), Y: make([]float64, len(rows))}
	for k, i := range rows {
		if i < 0 || i >= d.X.Rows {
			panic(fmt.Sprintf("dataset: Subset: row %d out of range [0,%d)", i, d.X.Rows))
		}
		copy(out.X.Row(k), d.X.Row(i))
		out.Y[k] = d.Y[i]
	}
	return out
}

// Split divides the rows of d at random into a training part of
// round(trainFrac·n) rows and a test part with the rest, each keeping the
// rows in their original order. The draw is a permutation from a PCG
// generator seeded by seed, so a seed always gives the same split, and the
// same as loo.Split(n, trainFrac, seed) gives as indices. d is not
// modified. Split panics unless 0 ≤ trainFrac ≤ 1: the fraction is a
// constant of the program, not data.
func (d *Data) Split(trainFrac float64, seed uint64) (train, test *Data) {
	tr, te := split.Indices("dataset: Split", d.X.Rows, trainFrac, seed)
	return d.Subset(tr), d.Subset(te)
}
