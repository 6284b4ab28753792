package rkhsbeam

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"rkhs/linalg"
)

// Rows by their place among all the rows — the files in the order
// Input.Files lists them, each file's rows in order, as the first pass
// counted them (prep.FileRows) — are how a selection finds the rows that
// rkhs draws from the rows in memory: the candidates for the centres
// (regress.CenterOrder) and the rows of the median (loo.MedianRows),
// gathered by one pipeline before the statistics; the rows a descent of
// the length scales fits on when it fits on some of them
// (SelectOptions.ARDRows, loo.SelectScales.DescentRows), gathered by one
// pipeline after the grid; and the leave-one-out subset
// (loo.SelectNystrom.SubsetRows), which the leave-one-out passes add
// alone. A pipeline that gathers rows has each worker read one file and
// keep its rows among them, as the later passes read them (standardized,
// labels coded); the selection then uses them in memory, as rkhs does.

// places are rows by their place among all the rows, ascending (nil: every
// row), with the place of each file's first row.
type places struct {
	Rows    []int
	Offsets map[string]int
}

// file returns the rows of p (places) in the file of n rows and the place
// of its first row.
func (p places) file(file string, n int) ([]int, int, error) {
	off, ok := p.Offsets[file]
	if !ok {
		return nil, 0, fmt.Errorf("rkhsbeam: %s: a file the first pass did not read: did the input change?", file)
	}
	lo, _ := slices.BinarySearch(p.Rows, off)
	hi, _ := slices.BinarySearch(p.Rows, off+n)
	return p.Rows[lo:hi], off, nil
}

// in returns the add of a pass over the file of n rows that hands add only
// the rows among p, each block's with their places (at); with every row
// (p.Rows nil), add itself with at nil. It does not call add on a block
// with none of them.
func (p places) in(file string, n int, add func(at []int, x, y *linalg.Dense) error) (func(x, y *linalg.Dense) error, error) {
	if p.Rows == nil {
		return func(x, y *linalg.Dense) error { return add(nil, x, y) }, nil
	}
	rows, i, err := p.file(file, n) // i: the place of the next block's first row
	if err != nil {
		return nil, err
	}
	return func(x, y *linalg.Dense) error {
		k, _ := slices.BinarySearch(rows, i+x.Rows)
		at, first := rows[:k], i
		rows, i = rows[k:], i+x.Rows
		if len(at) == 0 {
			return nil
		}
		sx, sy := linalg.NewDense(len(at), x.Cols, nil), linalg.NewDense(len(at), y.Cols, nil)
		for r, pl := range at {
			copy(sx.Row(r), x.Row(pl-first))
			copy(sy.Row(r), y.Row(pl-first))
		}
		return add(at, sx, sy)
	}, nil
}

// marked returns the add of a pass over the file of n rows that hands add
// every row with a mark on the rows among p (nil with every row among p).
func (p places) marked(file string, n int, add func(x, y *linalg.Dense, mark []bool) error) (func(x, y *linalg.Dense) error, error) {
	if p.Rows == nil {
		return func(x, y *linalg.Dense) error { return add(x, y, nil) }, nil
	}
	rows, i, err := p.file(file, n)
	if err != nil {
		return nil, err
	}
	return func(x, y *linalg.Dense) error {
		mark := make([]bool, x.Rows)
		for len(rows) > 0 && rows[0] < i+x.Rows {
			mark[rows[0]-i], rows = true, rows[1:]
		}
		i += x.Rows
		return add(x, y, mark)
	}, nil
}

// placesOf returns rows (places, ascending) with the offsets of the files
// of the selection; it checks that the files hold the rows the first pass
// read.
func (r *selection) placesOf(rows []int) (places, error) {
	names, err := r.o.Input.Files(r.ctx)
	if err != nil {
		return places{}, err
	}
	offsets, n := make(map[string]int, len(names)), 0
	for _, name := range names {
		offsets[name] = n
		n += r.first.fileRows(name)
	}
	if n != r.first.Rows {
		return places{}, fmt.Errorf("rkhsbeam: the files hold %d rows, the first pass read %d: did the input change?", n, r.first.Rows)
	}
	return places{Rows: rows, Offsets: offsets}, nil
}

// gatherRowsFn emits the rows of a file that are among At, as the fit
// sees them: the number of rows k, the width d and the outputs q, then the
// k places, the k×d features and the k×q outputs, as little-endian words
// (float64 bits). A file with none of them is not read.
type gatherRowsFn struct {
	In         Input
	Prep       []byte
	At         places
	DeadLetter bool // malformed lines skipped, as the first pass skipped them

	prep *prep
}

func (f *gatherRowsFn) ProcessElement(ctx context.Context, file string, emit func([]byte)) error {
	if f.prep == nil {
		pr, err := decodePrep(f.Prep)
		if err != nil {
			return err
		}
		f.prep = pr
	}
	n := f.prep.fileRows(file)
	if rows, _, err := f.At.file(file, n); err == nil && len(rows) == 0 {
		return nil
	}
	var places []uint64
	var xs, ys []float64
	add, err := f.At.in(file, n, func(at []int, x, y *linalg.Dense) error {
		for _, pl := range at {
			places = append(places, uint64(pl))
		}
		xs, ys = append(xs, x.Data...), append(ys, y.Data...)
		return nil
	})
	if err != nil {
		return err
	}
	d, q := f.prep.width(), f.prep.outputs()
	var bad badFunc
	if f.DeadLetter {
		bad = func(*LineError, string) {}
	}
	if err := f.prep.addFile(ctx, f.In, file, d, blockRows(2*d+q), bad, add); err != nil {
		return err
	}
	b := appendUint64s(nil, uint64(len(places)), uint64(d), uint64(q))
	b = appendUint64s(b, places...)
	for _, v := range append(xs, ys...) {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	emit(b)
	return nil
}

// appendUint64s appends little-endian words.
func appendUint64s(b []byte, us ...uint64) []byte {
	for _, u := range us {
		b = binary.LittleEndian.AppendUint64(b, u)
	}
	return b
}

// fileRows returns the rows of a file as the first pass counted them.
func (p *prep) fileRows(file string) int {
	for _, fr := range p.FileRows {
		if fr.File == file {
			return fr.Rows
		}
	}
	return 0
}

// concatFn gathers the files' encodings in one, each preceded by its
// length, in whatever order the runner merges them.
type concatFn struct{}

func (concatFn) CreateAccumulator() []byte { return []byte{} }

func (concatFn) AddInput(a, b []byte) []byte {
	return append(binary.LittleEndian.AppendUint64(a, uint64(len(b))), b...)
}

func (concatFn) MergeAccumulators(a, b []byte) []byte { return append(a, b...) }

func (concatFn) ExtractOutput(a []byte) []byte { return a }

func init() {
	register.DoFn3x1[context.Context, string, func([]byte), error](&gatherRowsFn{})
	register.Combiner3[[]byte, []byte, []byte](&concatFn{})
}

// gatherRows runs the pipeline (named what) that gathers the rows at the
// places idx (ascending, not empty) and returns them as the fit sees them,
// in that order: x (len(idx)×d) and y (len(idx)×q).
func (r *selection) gatherRows(what string, idx []int) (x, y *linalg.Dense, err error) {
	o := r.o
	at, err := r.placesOf(idx)
	if err != nil {
		return nil, nil, err
	}
	p, s := beam.NewPipelineWithRoot()
	s = s.Scope("rkhs " + what)
	files, err := files(s, o.Input)
	if err != nil {
		return nil, nil, err
	}
	per := beam.ParDo(s, &gatherRowsFn{In: o.Input, Prep: r.prepBytes, At: at, DeadLetter: r.deadLetter}, files)
	beam.ParDo0(s, &writeBytesFn{Name: r.rowsFile()}, beam.Combine(s, &concatFn{}, per))
	if err := r.run(r.ctx, p); err != nil {
		return nil, nil, err
	}
	b, err := readAllFile(r.ctx, r.rowsFile())
	if err != nil {
		return nil, nil, err
	}
	return decodeRows(b, idx, r.first.width(), r.first.outputs())
}

// rowsFile is the scratch file of the gathered rows.
func (r *selection) rowsFile() string { return r.dir + "/scale-rows.bin" }

// decodeRows places the rows of the gathered encodings b by their places
// among idx: x (len(idx)×d) and y (len(idx)×q). Every place must come
// once.
func decodeRows(b []byte, idx []int, d, q int) (x, y *linalg.Dense, err error) {
	x, y = linalg.NewDense(len(idx), d, nil), linalg.NewDense(len(idx), q, nil)
	bad := errors.New("rkhsbeam: the gathered rows are malformed")
	word := func() uint64 {
		if len(b) < 8 {
			return math.MaxUint64
		}
		u := binary.LittleEndian.Uint64(b)
		b = b[8:]
		return u
	}
	seen := make([]bool, len(idx))
	for len(b) > 0 {
		size := word()
		if size > uint64(len(b)) {
			return nil, nil, bad
		}
		part := b[:size]
		b = b[size:]
		rest := b
		b = part
		k, dd, qq := word(), word(), word()
		if dd != uint64(d) || qq != uint64(q) || k > uint64(len(idx)) || uint64(len(b)) != 8*k*(1+dd+qq) {
			return nil, nil, bad
		}
		places := make([]int, k)
		for i := range places {
			places[i] = int(word())
		}
		at := make([]int, k)
		for i, pl := range places {
			a, ok := slices.BinarySearch(idx, pl)
			if !ok || seen[a] {
				return nil, nil, bad
			}
			at[i], seen[a] = a, true
		}
		for _, dst := range []*linalg.Dense{x, y} {
			for _, a := range at {
				row := dst.Row(a)
				for j := range row {
					row[j] = math.Float64frombits(word())
				}
			}
		}
		b = rest
	}
	if n := len(idx) - len(slices.DeleteFunc(slices.Clone(seen), func(s bool) bool { return s })); n != len(idx) {
		return nil, nil, fmt.Errorf("rkhsbeam: %d of the descent's %d rows gathered: did the input change?", n, len(idx))
	}
	return x, y, nil
}
