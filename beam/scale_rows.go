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

// The rows a descent of the length scales fits on when it fits on some of
// them (SelectOptions.ARDRows): loo.SelectScales.DescentRows draws them by
// their place among all the rows — the files in the order Input.Files
// lists them, each file's rows in order, as the first pass counted them
// (prep.FileRows) — and one pipeline gathers them to this process, each
// worker reading one file and keeping its rows among them, as the later
// passes read them (standardized, labels coded). The descent then runs on
// them in memory, as loo.SelectScales.Fit runs it on the same rows.

// gatherRowsFn emits the rows of a file that are among Rows (places among
// all the rows, ascending), the file's first row at place Offsets[file],
// as the fit sees them: the number of rows k, the width d and the outputs
// q, then the k places, the k×d features and the k×q outputs, as
// little-endian words (float64 bits). A file with none of them is not
// read.
type gatherRowsFn struct {
	In      Input
	Prep    []byte
	Rows    []int
	Offsets map[string]int

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
	off, ok := f.Offsets[file]
	if !ok {
		return fmt.Errorf("rkhsbeam: %s: a file the first pass did not read: did the input change?", file)
	}
	lo, _ := slices.BinarySearch(f.Rows, off)
	hi, _ := slices.BinarySearch(f.Rows, off+f.prep.fileRows(file))
	rows := f.Rows[lo:hi]
	if len(rows) == 0 {
		return nil
	}
	var places []uint64
	var xs, ys []float64
	i := off // the place of the next row of the file
	d, q := f.prep.Centers.Cols, f.prep.outputs()
	err := f.prep.addFile(ctx, f.In, file, d, blockRows(2*d+q), nil, func(x, y *linalg.Dense) error {
		for r := 0; r < x.Rows && len(rows) > 0 && rows[0] < i+x.Rows; r++ {
			if rows[0] == i+r {
				places = append(places, uint64(i+r))
				xs, ys = append(xs, x.Row(r)...), append(ys, y.Row(r)...)
				rows = rows[1:]
			}
		}
		i += x.Rows
		return nil
	})
	if err != nil {
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

// gatherRows runs the pipeline that gathers the rows at the places idx
// (ascending) and returns them as the fit sees them, in that order:
// x (len(idx)×d) and y (len(idx)×q).
func (r *selection) gatherRows(idx []int) (x, y *linalg.Dense, err error) {
	o := r.o
	names, err := o.Input.Files(r.ctx)
	if err != nil {
		return nil, nil, err
	}
	offsets, n := make(map[string]int, len(names)), 0
	for _, name := range names {
		offsets[name] = n
		n += r.first.fileRows(name)
	}
	if n != r.sel.Rows {
		return nil, nil, fmt.Errorf("rkhsbeam: the files hold %d rows, the first pass read %d: did the input change?", n, r.sel.Rows)
	}
	p, s := beam.NewPipelineWithRoot()
	s = s.Scope("rkhs length scales, the descent's rows")
	files, err := files(s, o.Input)
	if err != nil {
		return nil, nil, err
	}
	per := beam.ParDo(s, &gatherRowsFn{In: o.Input, Prep: r.prepBytes, Rows: idx, Offsets: offsets}, files)
	beam.ParDo0(s, &writeBytesFn{Name: r.rowsFile()}, beam.Combine(s, &concatFn{}, per))
	if err := r.run(r.ctx, p); err != nil {
		return nil, nil, err
	}
	b, err := readAllFile(r.ctx, r.rowsFile())
	if err != nil {
		return nil, nil, err
	}
	return decodeRows(b, idx, r.first.Centers.Cols, r.first.outputs())
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
