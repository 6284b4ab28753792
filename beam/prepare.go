package rkhsbeam

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"rkhs/internal/coding"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
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
//   - with σ chosen from the data, the median heuristic
//     (loo.MedianSigma) on the centres as the kernel sees them
//     (standardized): the centres are a uniform sample of the distinct
//     rows drawn with the seed, so their median distance is the median
//     heuristic on a seeded sample; with more than loo.DefaultMedianRows
//     centres, MedianSigma samples that many of them with the seed.
//
// The result, a prep, reaches the workers of the later passes as a side
// input (JSON keeps every float64 exactly), and the driver of a selection
// through the scratch directory.

// maxClasses is the number of distinct labels above which a
// classification is refused: labels that many are a regression target.
const maxClasses = 1000

// prep is what the first pass hands to the later ones.
type prep struct {
	// Centers are the centres as the kernel sees them (standardized when
	// Scale is not nil).
	Centers *linalg.Dense
	// Scale is the standardization of the features, nil for none.
	Scale *kernels.Standardization
	// Classes are the distinct labels in ascending order, nil for
	// regression.
	Classes []float64
	// Median is the median distance between the centres, 0 when not
	// asked for.
	Median float64
}

type prepJSON struct {
	Centers matrixJSON               `json:"centers"`
	Scale   *kernels.Standardization `json:"scale,omitempty"`
	Classes []float64                `json:"classes,omitempty"`
	Median  float64                  `json:"median,omitempty"`
}

func encodePrep(p *prep) []byte {
	b, _ := json.Marshal(prepJSON{matrixJSON{p.Centers.Rows, p.Centers.Cols, p.Centers.Clone().Data}, p.Scale, p.Classes, p.Median})
	return b
}

func decodePrep(b []byte) (*prep, error) {
	var pj prepJSON
	if err := json.Unmarshal(b, &pj); err != nil {
		return nil, err
	}
	mj := pj.Centers
	if mj.Rows < 1 || mj.Cols < 1 || len(mj.Data) != mj.Rows*mj.Cols {
		return nil, fmt.Errorf("rkhsbeam: %d×%d centres with %d values", mj.Rows, mj.Cols, len(mj.Data))
	}
	if err := pj.Scale.Validate(); err != nil {
		return nil, err
	}
	return &prep{Centers: linalg.NewDense(mj.Rows, mj.Cols, mj.Data), Scale: pj.Scale, Classes: pj.Classes, Median: pj.Median}, nil
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

// scan is what the first pass gathers from some rows: the bottom-m sample,
// and, when asked, the moments of the features and the distinct labels
// (ascending, −0 as +0).
type scan struct {
	Sample  sample
	Moments kernels.Moments
	Classes []float64
}

// addClasses adds the sorted labels b to the sorted labels a.
func addClasses(a, b []float64) ([]float64, error) {
	for _, v := range b {
		if k, ok := slices.BinarySearch(a, v); !ok {
			a = slices.Insert(a, k, v)
		}
	}
	if len(a) > maxClasses {
		return nil, fmt.Errorf("rkhsbeam: more than %d distinct labels: classes are a few labels, not a regression target", maxClasses)
	}
	return a, nil
}

// merge adds the scan of other rows to a.
func (a *scan) merge(m int, b scan) error {
	if err := a.Sample.merge(m, b.Sample); err != nil {
		return err
	}
	if err := a.Moments.Merge(&b.Moments); err != nil {
		return fmt.Errorf("rkhsbeam: the features' moments: %w", err)
	}
	var err error
	a.Classes, err = addClasses(a.Classes, b.Classes)
	return err
}

// momentRows is the number of rows a scan gathers before adding them to
// its moments (kernels.Moments.Add sums blocks of its own inside).
const momentRows = 1024

// scanFileFn reads the rows of a file once for the first pass.
type scanFileFn struct {
	In         Input
	M          int // centres to draw, 0 for none (a centres file)
	Seed       uint64
	Moments    bool
	Classes    bool
	DeadLetter bool // skip malformed lines (the statistics pass reports them)
}

func (f *scanFileFn) ProcessElement(ctx context.Context, file string) (scan, error) {
	a := scan{Sample: sample{D: f.In.Features, File: file}}
	if f.M == 0 && !f.Moments && !f.Classes {
		return scan{}, nil // nothing to gather: the file is not read
	}
	var bad badFunc
	if f.DeadLetter {
		bad = func(*LineError, string) {}
	}
	var buf []float64
	d := f.In.Features
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
	setD := func(w int) error { a.Sample.D, d = w, w; return nil }
	var labels []float64
	err := readFile(ctx, f.In, file, f.In.Features, setD, func(x []float64, y float64) error {
		if f.M > 0 {
			a.Sample.add(f.M, rowKey(f.Seed, x), x)
		}
		if f.Moments {
			if buf = append(buf, x...); len(buf) == momentRows*d {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		if f.Classes {
			if k, ok := slices.BinarySearch(labels, y+0); !ok {
				if labels = slices.Insert(labels, k, y+0); len(labels) > maxClasses {
					return fmt.Errorf("rkhsbeam: %s: more than %d distinct labels: classes are a few labels, not a regression target", file, maxClasses)
				}
			}
		}
		return nil
	}, bad)
	if err == nil {
		err = flush()
	}
	a.Classes = labels
	return a, err
}

// scanCombineFn merges the scans of the files and returns the prep of the
// later passes, encoded (encodePrep). With DeadLetter, no rows at all
// (every line malformed) give an empty encoding, so that the statistics
// pass still sets the malformed lines aside.
type scanCombineFn struct {
	In          Input
	M           int
	CentersFile string
	Seed        uint64
	Standardize bool
	Classes     bool
	Median      bool
	DeadLetter  bool
}

func (f *scanCombineFn) CreateAccumulator() scan { return scan{} }

func (f *scanCombineFn) AddInput(a, b scan) (scan, error) {
	err := a.merge(f.M, b)
	return a, err
}

func (f *scanCombineFn) MergeAccumulators(a, b scan) (scan, error) {
	err := a.merge(f.M, b)
	return a, err
}

// The centres file is read with a background context: a CombineFn's
// methods take none.
func (f *scanCombineFn) ExtractOutput(a scan) ([]byte, error) {
	if f.DeadLetter && len(a.Sample.Keys) == 0 && a.Moments.N == 0 && len(a.Classes) == 0 {
		return []byte{}, nil
	}
	p := &prep{}
	if f.CentersFile != "" {
		c, err := readCenters(context.Background(), f.In, f.CentersFile)
		if err != nil {
			return nil, err
		}
		p.Centers = c
	} else {
		if len(a.Sample.Keys) < f.M {
			return nil, fmt.Errorf("rkhsbeam: the input has %s, fewer than the %d centres asked", plural(len(a.Sample.Keys), "distinct row"), f.M)
		}
		p.Centers = a.Sample.dense()
	}
	if f.Standardize {
		if a.Moments.N == 0 {
			return nil, fmt.Errorf("rkhsbeam: the input files hold no rows")
		}
		if cols := a.Moments.Constant(); len(cols) > 0 {
			return nil, fmt.Errorf("rkhsbeam: standardization: %s constant in the %s, so it cannot be scaled to standard deviation 1: leave it out of the input, or do not standardize",
				constantFeatures(cols, &a.Moments), plural(a.Moments.N, "row"))
		}
		s, err := a.Moments.Standardization()
		if err != nil {
			return nil, err
		}
		if p.Centers.Cols != len(s.Mean) {
			return nil, fmt.Errorf("rkhsbeam: the centres file %s has %s, the input %d", f.CentersFile, plural(p.Centers.Cols, "feature"), len(s.Mean))
		}
		if p.Centers, err = s.Apply(p.Centers); err != nil {
			return nil, fmt.Errorf("rkhsbeam: the centres: %w", err)
		}
		p.Scale = s
	}
	if f.Classes {
		if len(a.Classes) < 2 {
			return nil, fmt.Errorf("rkhsbeam: classification needs two classes at least; the labels are all %v", a.Classes)
		}
		p.Classes = a.Classes
	}
	if f.Median {
		med, err := loo.MedianSigma(p.Centers, 0, f.Seed)
		if err != nil {
			return nil, fmt.Errorf("rkhsbeam: the median distance between the centres: %w", err)
		}
		p.Median = med
	}
	return encodePrep(p), nil
}

// constantFeatures names the constant features (1-based, as the columns
// of a file are counted) and their value.
func constantFeatures(cols []int, m *kernels.Moments) string {
	s := ""
	for i, j := range cols {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("feature %d (every value %.6g)", j+1, m.Mean[j])
	}
	if len(cols) > 1 {
		return s + " are"
	}
	return s + " is"
}

// firstPass is what a first pass gathers, and how.
type firstPass struct {
	Centers     int
	Seed        uint64
	CentersFile string
	Standardize bool
	Classes     bool
	Median      bool
	DeadLetter  bool
}

// prepare adds the first pass over the files to the pipeline and returns
// its prep (one encoded prep).
func prepare(s beam.Scope, in Input, names beam.PCollection, fp firstPass) beam.PCollection {
	s = s.Scope("first pass")
	per := beam.ParDo(s, &scanFileFn{In: in, M: fp.Centers, Seed: fp.Seed, Moments: fp.Standardize, Classes: fp.Classes, DeadLetter: fp.DeadLetter}, names)
	return beam.Combine(s, &scanCombineFn{In: in, M: fp.Centers, CentersFile: fp.CentersFile, Seed: fp.Seed,
		Standardize: fp.Standardize, Classes: fp.Classes, Median: fp.Median, DeadLetter: fp.DeadLetter}, per)
}

// sigmaAt returns the width of a pass: ratio times the median distance
// of the prep when ratio > 0, else sigma.
func sigmaAt(p *prep, sigma, ratio float64) float64 {
	if ratio > 0 {
		return ratio * p.Median
	}
	return sigma
}

func init() {
	register.DoFn2x2[context.Context, string, scan, error](&scanFileFn{})
	register.Combiner3[scan, scan, []byte](&scanCombineFn{})
}
