package rkhsbeam

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"rkhs/linalg"
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
type sample struct {
	D    int
	File string
	Keys []uint64
	X    [][]float64
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
	i, _ := slices.BinarySearch(a.Keys, k)
	for j := i; j < len(a.Keys) && a.Keys[j] == k; j++ {
		if slices.Equal(a.X[j], x) {
			return // a duplicate row
		}
	}
	a.Keys = slices.Insert(a.Keys, i, k)
	a.X = slices.Insert(a.X, i, slices.Clone(x))
	if len(a.Keys) > m {
		a.Keys, a.X = a.Keys[:m], a.X[:m]
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
		return fmt.Errorf("rkhsbeam: %s has %d features, %s has %d", a.File, a.D, b.File, b.D)
	}
	for i, k := range b.Keys {
		a.add(m, k, b.X[i])
	}
	return nil
}

// sampleFileFn draws the bottom-M sample of the rows of a file.
type sampleFileFn struct {
	In         Input
	M          int
	Seed       uint64
	DeadLetter bool // skip malformed lines (the statistics pass reports them)
}

func (f *sampleFileFn) ProcessElement(ctx context.Context, file string) (sample, error) {
	a := sample{D: f.In.Features, File: file}
	var bad badFunc
	if f.DeadLetter {
		bad = func(*LineError, string) {}
	}
	setD := func(d int) error { a.D = d; return nil }
	err := readFile(ctx, f.In, file, f.In.Features, setD, func(x []float64, _ float64) error {
		a.add(f.M, rowKey(f.Seed, x), x)
		return nil
	}, bad)
	return a, err
}

// sampleCombineFn merges the samples of the files and returns the centres
// (encoded by encodeMatrix).
type sampleCombineFn struct {
	M int
}

func (f *sampleCombineFn) CreateAccumulator() sample { return sample{} }

func (f *sampleCombineFn) AddInput(a, b sample) (sample, error) {
	err := a.merge(f.M, b)
	return a, err
}

func (f *sampleCombineFn) MergeAccumulators(a, b sample) (sample, error) {
	err := a.merge(f.M, b)
	return a, err
}

func (f *sampleCombineFn) ExtractOutput(a sample) ([]byte, error) {
	if len(a.Keys) < f.M {
		return nil, fmt.Errorf("rkhsbeam: the input has %d distinct rows, fewer than the %d centres asked", len(a.Keys), f.M)
	}
	c := linalg.NewDense(f.M, a.D, nil)
	for i, x := range a.X {
		copy(c.Row(i), x)
	}
	return encodeMatrix(c), nil
}

func init() {
	register.DoFn2x2[context.Context, string, sample, error](&sampleFileFn{})
	register.Combiner3[sample, sample, []byte](&sampleCombineFn{})
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

// sampleCentres draws m centres from the files in a first pass.
func sampleCentres(s beam.Scope, in Input, names beam.PCollection, m int, seed uint64, deadLetter bool) beam.PCollection {
	s = s.Scope("sample centres")
	per := beam.ParDo(s, &sampleFileFn{In: in, M: m, Seed: seed, DeadLetter: deadLetter}, names)
	return beam.Combine(s, &sampleCombineFn{M: m}, per)
}
