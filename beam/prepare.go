package rkhsbeam

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"rkhs/classify"
	"rkhs/internal/check"
	"rkhs/internal/coding"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
	"rkhs/report"
)

// The first pass over the input gathers, in one read of every file, what
// every later pass needs besides the data (see sample.go for the draw of
// the centres):
//
//   - the centres: a bottom-m sample of the rows, or a file of centres;
//   - with standardization, the per-feature moments of the rows
//     (kernels.Moments, merged by the update of Chan, Golub and LeVeque,
//     1979), hence the map zⱼ = (xⱼ − μⱼ)/σⱼ, applied to the centres here
//     and to every row before the kernel in the later passes;
//   - for classification, the distinct labels, coded as ±1 (two classes)
//     or one column per class, +1 for the row's class and −1 for the
//     others (one-vs-all), as rkhs classify codes them;
//   - the names of the columns, when the files have headers (every
//     file's must name the same columns), which the model keeps;
//   - the number of rows and the largest magnitude of a label, which a
//     selection judges before its later passes (prep.refusal), with the
//     distinct labels of a classification;
//   - for one length scale per feature (Select with ARD), the features in
//     which every row and every centre hold one value (loo.SelectScales
//     holds their scales: they add nothing to any distance);
//   - when asked (Select), the number of rows of each file, which place
//     each row in the order of all the rows: a selection draws its
//     centres, the rows of its median and of its leave-one-out subset by
//     that order, as rkhs draws them from the rows in memory, and gathers
//     them (scale_rows.go); its prep then has no centres until the driver
//     sets them.
//
// The result, a prep, reaches the workers of the later passes as a side
// input (JSON keeps every float64 exactly), and the driver of a selection
// through the scratch directory.

// maxLabels is the number of distinct labels up to which a first pass
// counts them when the labels are classes (or the limit of the caller,
// if larger): beyond it they are a regression target whatever the number
// of rows, and counting further would ship the whole label column between
// workers.
const maxLabels = 1000

// prep is what the first pass hands to the later ones.
type prep struct {
	// Centers are the centres as the kernel sees them (standardized when
	// Scale is not nil); nil after a first pass that drew none (Select
	// draws them from the rows it gathers). Width is the number of
	// features of the rows.
	Centers *linalg.Dense
	Width   int
	// Scale is the standardization of the features, nil for none.
	Scale *kernels.Standardization
	// Features and Target name the columns the rows were read from, as
	// every file's header names them (nil and "" without a header): the
	// model keeps them, so that predictions find the columns by name.
	Features []string `json:",omitempty"`
	Target   string   `json:",omitempty"`
	// The labels, as far as the later passes need them and refusal judges
	// them: Rows is the number of rows read; Classify says whether the
	// labels are classes, then Classes are their distinct values in
	// ascending order (−0 as +0), More that there are more than
	// labelCap(MaxClasses) of them (Classes is then nil), and MaxClasses
	// the limit of classify.CheckClasses (0: its default); Squares says
	// whether a selection sums the labels' squared residuals, and Largest
	// is the largest magnitude of a label.
	Rows       int
	Classify   bool
	Classes    []float64 `json:",omitempty"`
	More       bool
	MaxClasses int
	Squares    bool
	Largest    float64
	// Notes and Warnings are what the standardization tells the user
	// (report.StandardizeNotes: constant features kept, features that barely
	// vary).
	Notes, Warnings []string `json:",omitempty"`
	// Constant lists, when asked, the features in which every row and
	// every centre hold one value, in ascending order; FileRows the
	// number of rows of each file, in no order.
	Constant []int      `json:",omitempty"`
	FileRows []fileRows `json:",omitempty"`
}

// fileRows is the number of rows of a file.
type fileRows struct {
	File string
	Rows int
}

type prepJSON struct {
	Centers *matrixJSON              `json:"centers,omitempty"`
	Scale   *kernels.Standardization `json:"scale,omitempty"`
	prep
}

func encodePrep(p *prep) []byte {
	q := *p
	q.Centers, q.Scale = nil, nil
	var c *matrixJSON
	if p.Centers != nil {
		c = &matrixJSON{p.Centers.Rows, p.Centers.Cols, p.Centers.Clone().Data}
	}
	b, _ := json.Marshal(prepJSON{c, p.Scale, q})
	return b
}

func decodePrep(b []byte) (*prep, error) {
	var pj prepJSON
	if err := json.Unmarshal(b, &pj); err != nil {
		return nil, err
	}
	if err := pj.Scale.Validate(); err != nil {
		return nil, err
	}
	p := pj.prep
	p.Scale = pj.Scale
	if mj := pj.Centers; mj != nil {
		if mj.Rows < 1 || mj.Cols < 1 || len(mj.Data) != mj.Rows*mj.Cols {
			return nil, fmt.Errorf("rkhsbeam: %d×%d centres with %d values", mj.Rows, mj.Cols, len(mj.Data))
		}
		p.Centers = linalg.NewDense(mj.Rows, mj.Cols, mj.Data)
	}
	return &p, nil
}

// refusal returns the error of labels that the later passes cannot use,
// nil for none: labels given as classes that look like a continuous
// target (classify.CheckClasses, or more than labelCap distinct ones), or
// of one class only; labels whose squared residuals a selection cannot
// sum (check.Squarable). The workers of the later passes skip their work
// on such a prep, and the driver of a selection returns the error, which
// keeps its kind (classify.ErrInput, loo.ErrInput).
func (p *prep) refusal() error {
	const op = "Select"
	if p.Squares && !p.Classify {
		if err := check.Squarable(loo.ErrInput, op, "labels", linalg.NewDense(1, 1, []float64{p.Largest})); err != nil {
			return err
		}
	}
	switch {
	case !p.Classify:
		return nil
	case p.More:
		return check.Input(classify.ErrInput, op, "labels", "more than %d distinct labels in %d rows: this looks like a continuous target (regression), not classes", labelCap(p.MaxClasses), p.Rows)
	case len(p.Classes) < 2:
		return check.Input(classify.ErrInput, op, "labels", "one class in %d rows (every label %v): classification needs two at least", p.Rows, p.Classes)
	}
	return classify.CheckClasses(len(p.Classes), p.Rows, p.MaxClasses)
}

// labelCap is the number of distinct labels a first pass counts, for the
// limit maxClasses of classify.CheckClasses (0: its default).
func labelCap(maxClasses int) int { return max(maxClasses, maxLabels) }

// keep gives the model what it keeps of the first pass: the
// standardization, and the names of the columns.
func (p *prep) keep(m *regress.Model) {
	m.Standardization, m.FeatureNames, m.TargetName = p.Scale, p.Features, p.Target
}

// width returns the number of features of the rows.
func (p *prep) width() int {
	if p.Centers != nil {
		return p.Centers.Cols
	}
	return p.Width
}

// outputs returns the number of outputs of the fit: 1 for regression
// and two classes, one per class beyond.
func (p *prep) outputs() int {
	if len(p.Classes) > 2 {
		return len(p.Classes)
	}
	return 1
}

// rows returns the rows of a block as the fit sees them: the features
// standardized (a new matrix) or x itself, and the labels, coded as the
// classes say, or y itself as a column.
func (p *prep) rows(x *linalg.Dense, y []float64) (*linalg.Dense, *linalg.Dense, error) {
	x, err := p.Scale.Apply(x)
	if err != nil {
		return nil, nil, err
	}
	if p.Classes == nil {
		return x, linalg.NewDense(len(y), 1, y), nil
	}
	q := p.outputs()
	c := linalg.NewDense(len(y), q, nil)
	if i := coding.Targets(c, y, p.Classes); i >= 0 {
		return nil, nil, fmt.Errorf("rkhsbeam: label %g is not among the %d classes of the first pass: did the input change?", y[i], len(p.Classes))
	}
	return x, c, nil
}

// addFile reads the rows of a file of d features as the later passes do
// — in blocks of at most rows rows (readBlocks), malformed lines to bad
// (nil: the first one is an error) — and hands each block to add as the
// fit sees it (rows).
func (p *prep) addFile(ctx context.Context, in Input, file string, d, rows int, bad badFunc, add func(x, y *linalg.Dense) error) error {
	return readBlocks(ctx, in, file, d, rows, bad, func(b *block) error {
		if len(b.Y) == 0 {
			return nil
		}
		x, y, err := p.rows(b.X, b.Y)
		if err == nil {
			err = add(x, y)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		return nil
	})
}

// scan is what the first pass gathers from some rows: the bottom-m sample,
// the names of their columns (Named: a header named them; File: the file
// that did), the number of rows and the largest magnitude of a label, and,
// when asked, the moments of the features, the distinct labels
// (ascending, −0 as +0; More: more than a cap of them), the features'
// values in the first row (Value, nil before any row), with Varies[j]
// set when another row holds another value in feature j, and the rows of
// each file (FileRows).
type scan struct {
	Sample   sample
	Named    bool
	Features []string
	Target   string
	File     string
	Rows     int
	Largest  float64
	Moments  kernels.Moments
	Classes  []float64
	More     bool
	Value    []float64
	Varies   []bool
	FileRows []fileRows
}

// addValues adds a row's features x to the values of a scan.
func (a *scan) addValues(x []float64) {
	if a.Value == nil {
		a.Value, a.Varies = slices.Clone(x), make([]bool, len(x))
		return
	}
	for j, v := range x {
		a.Varies[j] = a.Varies[j] || v != a.Value[j]
	}
}

// addClasses adds the sorted labels b to the sorted labels a, up to most of
// them (most); more reports that there were more.
func addClasses(a, b []float64, most int) (c []float64, more bool) {
	for _, v := range b {
		if k, ok := slices.BinarySearch(a, v); !ok {
			if len(a) == most {
				return nil, true
			}
			a = slices.Insert(a, k, v)
		}
	}
	return a, false
}

// merge adds the scan of other rows to a, counting at most most classes.
func (a *scan) merge(m, most int, b scan) error {
	if err := a.Sample.merge(m, b.Sample); err != nil {
		return err
	}
	if err := a.Moments.Merge(&b.Moments); err != nil {
		return fmt.Errorf("rkhsbeam: the features' moments: %w", err)
	}
	if b.Named {
		if a.Named && (!slices.Equal(a.Features, b.Features) || a.Target != b.Target) {
			return fmt.Errorf("rkhsbeam: the headers of %s and %s name other columns (%s; %s): read the columns by name (-features, -target)",
				a.File, b.File, strings.Join(append(slices.Clone(a.Features), a.Target), ","), strings.Join(append(slices.Clone(b.Features), b.Target), ","))
		}
		a.Named, a.Features, a.Target, a.File = true, b.Features, b.Target, b.File
	}
	switch {
	case b.Value == nil:
	case a.Value == nil:
		a.Value, a.Varies = b.Value, b.Varies
	default:
		for j, v := range b.Value {
			a.Varies[j] = a.Varies[j] || b.Varies[j] || v != a.Value[j]
		}
	}
	a.FileRows = append(a.FileRows, b.FileRows...)
	a.Rows += b.Rows
	a.Largest = max(a.Largest, b.Largest)
	if a.More = a.More || b.More; !a.More {
		a.Classes, a.More = addClasses(a.Classes, b.Classes, most)
	}
	if a.More {
		a.Classes = nil
	}
	return nil
}

// momentRows is the number of rows a scan gathers before adding them to
// its moments (kernels.Moments.Add sums blocks of its own inside).
const momentRows = 1024

// errNamesRead ends the read of a file whose first record was all a scan
// needed.
var errNamesRead = errors.New("rkhsbeam: the names are read")

// scanFileFn reads the rows of a file once for the first pass (Centers:
// the number of centres to draw, 0 for none; Standardize: the moments).
type scanFileFn struct {
	In Input
	firstPass
}

func (f *scanFileFn) ProcessElement(ctx context.Context, file string) (scan, error) {
	a := scan{Sample: sample{D: f.In.Width, File: file}}
	rows := f.readsRows() || f.Scales || f.Places
	if !rows && f.In.Format != "csv" {
		return scan{}, nil // nothing to gather: the file is not read
	}
	var bad badFunc
	if f.DeadLetter {
		bad = func(*LineError, string) {}
	}
	var buf []float64
	d := f.In.Width
	flush := func() error {
		if len(buf) == 0 {
			return nil
		}
		err := a.Moments.Add(linalg.NewDense(len(buf)/d, d, buf))
		buf = buf[:0]
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		return nil
	}
	setD := func(l layout) error {
		a.Sample.D, d = l.Width, l.Width
		if l.Features != nil {
			a.Named, a.Features, a.Target, a.File = true, l.Features, l.Target, file
		}
		if !rows {
			return errNamesRead
		}
		return nil
	}
	most := labelCap(f.MaxClasses)
	err := readFile(ctx, f.In, file, f.In.Width, setD, func(x []float64, y float64) error {
		a.Rows++
		a.Largest = max(a.Largest, math.Abs(y))
		if f.Centers > 0 && f.Drawn == nil {
			a.Sample.add(f.Centers, rowKey(f.Seed, x), x)
		}
		if f.Standardize {
			if buf = append(buf, x...); len(buf) == momentRows*d {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		if f.Scales {
			a.addValues(x)
		}
		if f.Classes && !a.More {
			a.Classes, a.More = addClasses(a.Classes, []float64{y + 0}, most)
		}
		return nil
	}, bad)
	if errors.Is(err, errNamesRead) {
		return a, nil
	}
	if err == nil {
		err = flush()
	}
	if f.Scales || f.Places {
		a.FileRows = []fileRows{{file, a.Rows}}
	}
	return a, err
}

// scanCombineFn merges the scans of the files and returns the prep of the
// later passes, encoded (encodePrep). With DeadLetter, no rows at all
// (every line malformed) give an empty encoding, so that the statistics
// pass still sets the malformed lines aside.
type scanCombineFn struct {
	In Input
	firstPass
}

func (f *scanCombineFn) CreateAccumulator() scan { return scan{} }

func (f *scanCombineFn) AddInput(a, b scan) (scan, error) {
	err := a.merge(f.Centers, labelCap(f.MaxClasses), b)
	return a, err
}

func (f *scanCombineFn) MergeAccumulators(a, b scan) (scan, error) {
	err := a.merge(f.Centers, labelCap(f.MaxClasses), b)
	return a, err
}

// The centres file is read with a background context: a CombineFn's
// methods take none.
func (f *scanCombineFn) ExtractOutput(a scan) ([]byte, error) {
	if f.DeadLetter && a.Rows == 0 && f.readsRows() {
		return []byte{}, nil
	}
	p := &prep{Features: a.Features, Target: a.Target, Rows: a.Rows, Classify: f.Classes, Classes: a.Classes, More: a.More,
		MaxClasses: f.MaxClasses, Squares: f.Squares, Largest: a.Largest, FileRows: a.FileRows, Width: a.Sample.D}
	switch {
	case f.CentersFile != "":
		c, err := readCenters(context.Background(), f.In, a.Features, f.CentersFile)
		if err != nil {
			return nil, err
		}
		p.Centers = c
	case f.Drawn != nil:
		c, err := decodeMatrix(f.Drawn)
		if err != nil {
			return nil, err
		}
		p.Centers = c
	case f.Centers > 0:
		if len(a.Sample.Keys) < f.Centers {
			return nil, fmt.Errorf("rkhsbeam: the input has %s, fewer than the %d centres asked", report.Count(len(a.Sample.Keys), "distinct row"), f.Centers)
		}
		p.Centers = a.Sample.dense()
	}
	if f.Standardize {
		if a.Moments.N == 0 {
			return nil, fmt.Errorf("rkhsbeam: the input files hold no rows")
		}
		s, err := a.Moments.Standardization() // a constant feature kept at its value
		if err != nil {
			return nil, err
		}
		p.Notes, p.Warnings = report.StandardizeNotes(&a.Moments, s, a.Features, a.Moments.N)
		if p.Centers != nil {
			if p.Centers.Cols != len(s.Mean) {
				return nil, fmt.Errorf("rkhsbeam: the centres file %s has %s, the input %d", f.CentersFile, report.Count(p.Centers.Cols, "feature"), len(s.Mean))
			}
			if p.Centers, err = s.Apply(p.Centers); err != nil {
				return nil, fmt.Errorf("rkhsbeam: the centres: %w", err)
			}
		}
		p.Scale = s
	}
	if f.Scales && a.Value != nil && len(a.Value) == p.width() {
		c, err := constantFeatures(a, p)
		if err != nil {
			return nil, err
		}
		p.Constant = c
	}
	return encodePrep(p), nil
}

// constantFeatures returns the features in which every row the scan a
// read and every centre of p hold one value, as the kernel sees them
// (standardized by p.Scale, as the centres are), as loo.SelectScales
// finds them on the rows in memory. The centres, if any, have the scan's
// width; without them (centres drawn later from the rows, which then hold
// the rows' one value) the features in which every row holds one value.
func constantFeatures(a scan, p *prep) ([]int, error) {
	v, err := p.Scale.Apply(linalg.NewDense(1, len(a.Value), slices.Clone(a.Value)))
	if err != nil {
		return nil, fmt.Errorf("rkhsbeam: the first row: %w", err)
	}
	var out []int
	for j, varies := range a.Varies {
		same := !varies
		for i := 0; same && p.Centers != nil && i < p.Centers.Rows; i++ {
			same = p.Centers.At(i, j) == v.At(0, j)
		}
		if same {
			out = append(out, j)
		}
	}
	return out, nil
}

// readCenters reads a file of centres in the input's format: a CSV file
// with a header by the names of the training columns (names; nil when the
// training files had no header), in any order, as predictions are read;
// any other file by position, its labels ignored.
func readCenters(ctx context.Context, in Input, names []string, file string) (*linalg.Dense, error) {
	in.CSV.Target, in.CSV.Features, in.CSV.HeaderFeatures = "", nil, names
	var rows []float64
	d := in.Width
	err := readFile(ctx, in, file, d, func(l layout) error { d = l.Width; return nil }, func(x []float64, _ float64) error {
		rows = append(rows, x...)
		return nil
	}, nil)
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("rkhsbeam: no centres in %s", file)
	}
	return linalg.NewDense(len(rows)/d, d, rows), nil
}

// firstPass is what a first pass gathers, and how: Centers centres drawn
// with Seed, or read from CentersFile; the moments of the features
// (Standardize); the classes (Classes, with the limit MaxClasses) and the
// judgement of the labels' squares (Squares, see prep); malformed lines
// skipped (DeadLetter: the statistics pass sets them
// aside).
type firstPass struct {
	Centers     int
	Seed        uint64
	CentersFile string
	Drawn       []byte // the centres DrawCenters drew (encodeMatrix), in the input's units, instead of a sample
	Standardize bool
	Classes     bool
	MaxClasses  int
	Squares     bool
	// Scales finds what a descent of one length scale per feature needs:
	// the features in which every row and every centre hold one value
	// (prep.Constant) and the rows of each file (prep.FileRows).
	Scales bool
	// Places counts the rows of each file (prep.FileRows), which place
	// each row among all the rows.
	Places     bool
	DeadLetter bool
}

// readsRows says whether the first pass reads every row for what the
// prep holds (a sample of centres, moments, classes), so that no rows
// read means none could be.
func (f firstPass) readsRows() bool {
	return (f.Centers > 0 && f.Drawn == nil) || f.Standardize || f.Classes
}

// prepare adds the first pass over the files to the pipeline and returns
// its prep (one encoded prep).
func prepare(s beam.Scope, in Input, names beam.PCollection, fp firstPass) beam.PCollection {
	s = s.Scope("first pass")
	per := beam.ParDo(s, &scanFileFn{In: in, firstPass: fp}, names)
	return beam.Combine(s, &scanCombineFn{In: in, firstPass: fp}, per)
}

func init() {
	register.DoFn2x2[context.Context, string, scan, error](&scanFileFn{})
	register.Combiner3[scan, scan, []byte](&scanCombineFn{})
}
