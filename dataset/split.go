package dataset

import (
	"fmt"
	"math/rand/v2"
	"slices"

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
// generator seeded by seed, so a seed always gives the same split. d is not
// modified. Split panics unless 0 ≤ trainFrac ≤ 1.
func (d *Data) Split(trainFrac float64, seed uint64) (train, test *Data) {
	if !(trainFrac >= 0 && trainFrac <= 1) {
		panic(fmt.Sprintf("dataset: Split: trainFrac %v outside [0, 1]", trainFrac))
	}
	n := d.X.Rows
	perm := rand.New(rand.NewPCG(seed, 0x73706c6974)).Perm(n) // second word: "split"
	k := int(trainFrac*float64(n) + 0.5)
	tr, te := perm[:k], perm[k:]
	slices.Sort(tr)
	slices.Sort(te)
	return d.Subset(tr), d.Subset(te)
}
