package rkhsbeam

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"rkhs/internal/check"
	"rkhs/internal/memlimit"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/model"
	"rkhs/regress"
)

// FitOptions describe a Nyström fit (see regress.Nystrom) of the rows of
// Input. The zero-value rule of rkhs holds: Lambda, the kernel's
// parameters and the number of centres have no default.
type FitOptions struct {
	Input  Input
	Kernel kernels.Spec
	// Lambda is λ > 0 in the K + nλI convention, n the number of rows
	// read.
	Lambda    float64
	Intercept regress.Intercept
	// Centers is m, the number of centres drawn with Seed: as rkhs draws
	// them when DrawCenters has drawn them into Drawn (the rows in the
	// input's units), else by a bottom-m sample in the fit's first pass
	// over the input (see sample.go), which rkhs does not draw; or
	// CentersFile, if not empty, is a file of centres in the input's
	// format (labels ignored), and Centers must be 0 (Seed is not used).
	Centers     int
	Seed        uint64
	CentersFile string
	Drawn       *linalg.Dense
	// Standardize, if set, scales every feature to mean 0 and standard
	// deviation 1 by the moments of the rows read (see prepare.go) before
	// the kernel; the centres, drawn or from CentersFile (in the input's
	// units), are scaled alike, and the model keeps the map, so that
	// predictions take raw features. A constant feature is kept at its
	// value (see prepare.go).
	Standardize bool
	// Model is the file the fitted model is written to, in the JSON
	// format of regress.Model (what rkhs predict reads).
	Model string
	// Stats, if not empty, is a file for the merged statistics (the
	// binary encoding of regress.NystromStats), to solve again for other
	// λ or intercept modes without reading the data (rkhs-beam solve).
	Stats string
	// DeadLetter, if not empty, is a file that receives every malformed
	// line as "file:line: reason<TAB>text", and the fit goes on without
	// them; if every line is malformed, the job writes them and no model
	// (the counter "rows" of the job says 0). If empty, the first
	// malformed line fails the job with its file and line.
	DeadLetter string
}

// ErrOptions is the kind of the *linalg.InputError of options that
// cannot be run (FitOptions, before any pipeline).
var ErrOptions = errors.New("rkhsbeam: invalid options")

// Check reports, before any pipeline, options that cannot run (as Fit and
// FitCG report them): incomplete or invalid options, centres and
// statistics that would not fit in memory, an input pattern that matches
// no file, a centres file without a header beside an input whose columns
// are not read by position (checkBesideLayout).
func (o FitOptions) Check(ctx context.Context) error {
	if err := o.check(); err != nil {
		return err
	}
	if _, err := o.Input.Files(ctx); err != nil {
		return err
	}
	return checkBesideLayout(ctx, o.Input, o.CentersFile)
}

func (o FitOptions) check() error {
	const op = "FitOptions"
	if err := o.Input.check(); err != nil {
		return err
	}
	if _, err := o.Kernel.Kernel(); err != nil {
		return check.Wrap(ErrOptions, op, "Kernel", err)
	}
	if err := check.Positive(ErrOptions, op, "Lambda", o.Lambda); err != nil {
		return err
	}
	if err := check.Valid(ErrOptions, op, "Intercept", o.Intercept); err != nil {
		return err
	}
	if err := checkJob(op, o.Input, o.Centers, o.CentersFile, o.Model); err != nil {
		return err
	}
	if c := o.Drawn; c != nil && (c.Rows != o.Centers || c.Cols < 1) {
		return check.Input(ErrOptions, op, "Drawn", "%d×%d centres for Centers %d: want DrawCenters's", c.Rows, c.Cols, o.Centers)
	}
	if m, d := o.Centers, o.Input.Width; m > 0 && d > 0 {
		// A worker holds the m×d centres twice (drawn, then in the
		// statistics) and the statistics, about 3m² more values.
		if err := memlimit.Check("rkhs-beam fit", memlimit.Sum(memlimit.Floats(2, m, d), memlimit.Floats(3, m, m))); err != nil {
			return fmt.Errorf("%w: fewer -centers, or a smaller -width", err)
		}
	}
	return nil
}

// checkJob reports the options a fit and a selection share: m centres
// or a centres file (one or the other), the number of features of LIBSVM
// input, and the model file.
func checkJob(op string, in Input, centers int, centersFile, model string) error {
	if centersFile != "" {
		if centers != 0 {
			return check.Input(ErrOptions, op, "Centers", "%d with a centres file %s: give one or the other", centers, centersFile)
		}
	} else if err := check.Count(ErrOptions, op, "Centers", centers, 1); err != nil {
		return err
	}
	if in.Format == "libsvm" && in.Width == 0 {
		return check.Input(ErrOptions, op, "Input.Width", "LIBSVM input needs the number of features")
	}
	if model == "" {
		return check.Input(ErrOptions, op, "Model", "no model file given")
	}
	return nil
}

// Fit adds to the pipeline of s the Nyström fit that o describes and
// returns the PCollection of the fitted model (one element, its JSON),
// which it also writes to o.Model. The passes over the input are:
//
//  1. unless o.CentersFile is given, the draw of the centres (every file
//     read once, one m×d sample per file, merged), and in the same read
//     the features' moments when o.Standardize (see prepare.go);
//  2. the statistics: every file read once by one worker, its rows
//     parsed by package dataset and summarised by a
//     regress.NystromStats with the centres as a side input, the
//     summaries merged by a CombineFn;
//  3. the solve (regress.NystromStats.Solve) on one worker, O(m³).
//
// Fit returns an error, before anything runs, if o is incomplete or
// invalid (a *linalg.InputError of kind ErrOptions), if the centres and
// statistics of a LIBSVM fit would not fit in memory (linalg.ErrTooLarge),
// or if an input pattern matches no file. When the pipeline runs, it
// fails on a file that cannot be
// read, a malformed line (unless o.DeadLetter is set), files with
// different numbers of features, fewer distinct rows than centres,
// centres with two identical rows, no rows at all, or a failed solve.
func Fit(s beam.Scope, o FitOptions) (beam.PCollection, error) {
	if err := o.check(); err != nil {
		return beam.PCollection{}, err
	}
	s = s.Scope("rkhs nystrom fit")
	names, err := files(s, o.Input)
	if err != nil {
		return beam.PCollection{}, err
	}
	pr := prepare(s, o.Input, names, firstPass{Centers: o.Centers, Seed: o.Seed, CentersFile: o.CentersFile, Drawn: drawnBytes(o.Drawn), Standardize: o.Standardize, DeadLetter: o.DeadLetter != ""})
	stats, bad := statistics(s, o.Input, o.Kernel, names, pr, o.CentersFile, o.DeadLetter != "")
	if o.DeadLetter != "" {
		writeLines(s, o.DeadLetter, bad)
	}
	model := beam.ParDo(s, &solveFn{Lambda: o.Lambda, Intercept: int(o.Intercept), Model: o.Model, Stats: o.Stats, DeadLetter: o.DeadLetter != ""}, stats, beam.SideInput{Input: pr})
	return model, nil
}

// solveFn solves the merged statistics and writes the model (and the
// statistics, if asked), with what the model keeps of the prep.
// Statistics of no rows are an error, or, when the
// malformed lines are set aside (DeadLetter), no model: the job then
// still writes the dead letters, and its counters say what happened.
type solveFn struct {
	Lambda     float64
	Intercept  int
	Model      string
	Stats      string
	DeadLetter bool
}

func (f *solveFn) ProcessElement(ctx context.Context, b, pr []byte, emit func([]byte)) error {
	var st regress.NystromStats
	if len(b) > 0 {
		if err := st.UnmarshalBinary(b); err != nil {
			return err
		}
	}
	if len(b) == 0 || st.Rows() == 0 {
		if f.DeadLetter {
			return nil
		}
		return errors.New("rkhsbeam: the input files hold no rows")
	}
	if f.Stats != "" {
		if err := writeFile(ctx, f.Stats, b); err != nil {
			return err
		}
	}
	fit, err := st.Solve(f.Lambda, regress.Intercept(f.Intercept))
	if err != nil {
		return err
	}
	p, err := decodePrep(pr)
	if err != nil {
		return err
	}
	p.keep(fit.Model)
	js, err := model.Marshal(fit.Model)
	if err != nil {
		return err
	}
	if err := writeFile(ctx, f.Model, js); err != nil {
		return err
	}
	emit(js)
	return nil
}

func init() {
	register.DoFn4x1[context.Context, []byte, []byte, func([]byte), error](&solveFn{})
}
