package rkhsbeam

import (
	"context"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"rkhs/internal/check"
	"rkhs/linalg"
)

// DrawCenters draws the o.Centers centres of a fit as rkhs draws them
// from the rows in memory (regress.NystromCenters with o.Seed: the rows
// at the first places of regress.CenterOrder over all the rows, repeats
// skipped by regress.FirstDistinct), as Select draws its own, and returns
// o with them in Drawn, so that Fit and FitCG fit on the centres rkhs fit
// -method nystrom -centers M -seed S fits on from the same rows. The rows
// are placed as Select places them: the files in the order Input.Files
// lists them, each file's rows in order (malformed lines skipped with
// o.DeadLetter, as the fit skips them; with every line malformed it
// draws nothing, and the fit sets them aside and writes no model).
//
// It runs one pipeline that counts the rows of each file and one that
// gathers the candidates (more while fewer of them are distinct): two
// reads of the input, before the fit's own. With o.CentersFile, or
// Centers 0, it returns o unchanged and runs nothing. Errors: o's
// (FitOptions.Check's kinds), the jobs', fewer distinct rows than
// centres.
func DrawCenters(ctx context.Context, o FitOptions, run func(context.Context, *beam.Pipeline) error) (FitOptions, error) {
	if o.CentersFile != "" || o.Centers == 0 || o.Drawn != nil {
		return o, nil
	}
	if err := check.Count(ErrOptions, "DrawCenters", "Centers", o.Centers, 1); err != nil {
		return o, err
	}
	dir, cleanup, err := scratchDir("", "centres")
	if err != nil {
		return o, err
	}
	defer cleanup()
	r := &selection{o: SelectOptions{Input: o.Input, Centers: o.Centers, Seed: o.Seed}, ctx: ctx, run: run, dir: dir, deadLetter: o.DeadLetter != ""}
	defer r.removeFiles()
	if err := r.firstPass(); err != nil {
		return o, err
	}
	if r.deadLetter && r.first.Rows == 0 {
		return o, nil // every line malformed: the fit sets them aside and says so
	}
	if err := r.draw(); err != nil {
		return o, err
	}
	o.Drawn = r.first.Centers // the rows as read: the first pass standardized nothing
	return o, nil
}

// drawnBytes encodes the centres DrawCenters drew for the first pass
// (nil for none).
func drawnBytes(c *linalg.Dense) []byte {
	if c == nil {
		return nil
	}
	return encodeMatrix(c)
}
