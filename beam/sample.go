package rkhsbeam

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"rkhs/linalg"
	"rkhs/report"
)

// The centres of a fit are m distinct rows of the data, drawn in a first
// pass as a bottom-m sample: every row gets the key h(seed, its feature
// bits), a 64-bit hash, and the centres are the m distinct rows with the
// smallest keys, in increasing order of key. A row and its duplicates
// share one key, so the draw is uniform over the distinct feature vectors
// of the data, and it depends on the seed and the set of rows only — not
// on the files, their order or how the runner splits them.

// sample is the bottom-m sample of some rows: the keys in increasing
// order, each with its row; D is the number of features (0 before any
// row) and File a file that has D of them, for errors.
//
// A row is kept sparse — the positions and values of its non-zero
// elements (a zero of either sign reads back as +0, as package dataset
// reads LIBSVM) — since LIBSVM
// input of 10⁵–10⁶ features is mostly zeros: m dense rows would be 8 MB
// each for every worker and every shuffle, where the centres need only
// their non-zeros until the one dense m×d matrix of the end.
type sample struct {
	D    int
	File string
	Keys []uint64
	Idx  [][]int32
	Val  [][]float64
}

// sparse returns the positions and values of the non-zero elements of x.
func sparse(x []float64) ([]int32, []float64) {
	var idx []int32
	var val []float64
	for j, v := range x {
		if v != 0 {
			idx = append(idx, int32(j))
			val = append(val, v)
		}
	}
	return idx, val
}

// rowKey is the key of a row of features: a splitmix64 chain over the
// bits of the values (−0 counted as +0) seeded by seed.
func rowKey(seed uint64, x []float64) uint64 {
	h := mix(seed ^ 0x9e3779b97f4a7c15)
	for _, v := range x {
		h = mix(h ^ math.Float64bits(v+0))
	}
	return h
}

// mix is the finalizer of splitmix64 (Steele, Lea and Flood, "Fast
// splittable pseudorandom number generators", 2014).
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// add offers the row x with key k to a sample of at most m rows; x is
// copied if kept.
func (a *sample) add(m int, k uint64, x []float64) {
	if len(a.Keys) == m && k >= a.Keys[m-1] {
		return
	}
	idx, val := sparse(x)
	a.insert(m, k, idx, val)
}

// insert adds a sparse row with key k unless the sample has it already.
func (a *sample) insert(m int, k uint64, idx []int32, val []float64) {
	if len(a.Keys) == m && k >= a.Keys[m-1] {
		return
	}
	i, _ := slices.BinarySearch(a.Keys, k)
	for j := i; j < len(a.Keys) && a.Keys[j] == k; j++ {
		if slices.Equal(a.Idx[j], idx) && slices.Equal(a.Val[j], val) {
			return // a duplicate row
		}
	}
	a.Keys = slices.Insert(a.Keys, i, k)
	a.Idx = slices.Insert(a.Idx, i, idx)
	a.Val = slices.Insert(a.Val, i, val)
	if len(a.Keys) > m {
		a.Keys, a.Idx, a.Val = a.Keys[:m], a.Idx[:m], a.Val[:m]
	}
}

// merge adds the rows of b to a, refusing rows of another width.
func (a *sample) merge(m int, b sample) error {
	if b.D == 0 {
		return nil
	}
	if a.D == 0 {
		a.D, a.File = b.D, b.File
	} else if a.D != b.D {
		return fmt.Errorf("rkhsbeam: %s has %s, %s has %d", a.File, report.Count(a.D, "feature"), b.File, b.D)
	}
	for i, k := range b.Keys {
		a.insert(m, k, b.Idx[i], b.Val[i])
	}
	return nil
}

// dense returns the rows of the sample as a dense matrix, in the order of
// their keys.
func (a *sample) dense() *linalg.Dense {
	c := linalg.NewDense(len(a.Keys), a.D, nil)
	for i, idx := range a.Idx {
		row := c.Row(i)
		for k, j := range idx {
			row[j] = a.Val[i][k]
		}
	}
	return c
}

// matrixJSON is a matrix passed between stages (centres as a side input):
// JSON keeps every float64 exactly.
type matrixJSON struct {
	Rows, Cols int
	Data       []float64
}

func encodeMatrix(m *linalg.Dense) []byte {
	b, _ := json.Marshal(matrixJSON{m.Rows, m.Cols, m.Clone().Data})
	return b
}

func decodeMatrix(b []byte) (*linalg.Dense, error) {
	var mj matrixJSON
	if err := json.Unmarshal(b, &mj); err != nil {
		return nil, err
	}
	if mj.Rows < 1 || mj.Cols < 1 || len(mj.Data) != mj.Rows*mj.Cols {
		return nil, fmt.Errorf("rkhsbeam: a %d×%d matrix with %d values", mj.Rows, mj.Cols, len(mj.Data))
	}
	return linalg.NewDense(mj.Rows, mj.Cols, mj.Data), nil
}
