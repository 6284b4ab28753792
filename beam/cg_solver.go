package rkhsbeam

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// fitOperator runs regress.Falkon (Falkon's preconditioned conjugate
// gradient, its default 20 iterations) with every pass over the data done
// by op. A penalized intercept is refused there, as by Falkon.Fit.
func fitOperator(k kernels.Kernel, lambda float64, ic regress.Intercept, centres *linalg.Dense, op operator) (*regress.Model, error) {
	fit, err := (&regress.Falkon{Kernel: k, Lambda: lambda, Intercept: ic}).FitOperator(centres, op)
	if err != nil {
		return nil, err
	}
	return fit.Model, nil
}

// FitCG fits the model o describes with the conjugate-gradient solver:
// one pipeline draws the centres (unless o.CentersFile is given), one
// summarises the data, and each iteration of the solver, in this process,
// runs one pipeline for K_nmᵀ(K_nm·V) (PassOperator). scratch is a
// directory that the workers and this process share; run runs a pipeline.
// It has no statistics file and no dead-letter output: o.Stats and
// o.DeadLetter must be empty (every pass fails on a malformed line). The
// model is written to o.Model and returned.
func FitCG(ctx context.Context, o FitOptions, scratch string, run func(context.Context, *beam.Pipeline) error) (*regress.Model, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	if o.Stats != "" || o.DeadLetter != "" {
		return nil, errors.New("rkhsbeam: the conjugate-gradient fit writes no statistics and no dead letters: give neither -stats nor -dead-letter with -solver cg")
	}
	k, _ := o.Kernel.Kernel()
	var centres *linalg.Dense
	var err error
	if o.CentersFile != "" {
		centres, err = readCentres(ctx, o.Input, o.CentersFile)
	} else {
		centres, err = drawCentres(ctx, o, scratch, run)
	}
	if err != nil {
		return nil, err
	}
	op := &PassOperator{Ctx: ctx, Input: o.Input, Kernel: o.Kernel, Centres: centres, Scratch: scratch, Run: run}
	model, err := fitOperator(k, o.Lambda, o.Intercept, centres, op)
	if err != nil {
		return nil, err
	}
	js, err := json.Marshal(model)
	if err != nil {
		return nil, err
	}
	return model, writeFile(ctx, o.Model, js)
}

// readCentres reads a file of centres in this process.
func readCentres(ctx context.Context, in Input, name string) (*linalg.Dense, error) {
	b, err := (&centresFileFn{In: in}).ProcessElement(ctx, name)
	if err != nil {
		return nil, err
	}
	return decodeMatrix(b)
}

// drawCentres runs the first pass of Fit and returns the centres.
func drawCentres(ctx context.Context, o FitOptions, scratch string, run func(context.Context, *beam.Pipeline) error) (*linalg.Dense, error) {
	name := scratch + "/centres.json"
	p, s := beam.NewPipelineWithRoot()
	c := sampleCentres(s, o.Input, files(s, o.Input), o.Centers, o.Seed, false)
	beam.ParDo0(s, &writeBytesFn{Name: name}, c)
	if err := run(ctx, p); err != nil {
		return nil, err
	}
	b, err := readAllFile(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("rkhsbeam: the centres: %w", err)
	}
	return decodeMatrix(b)
}

// writeBytesFn writes its element to a file.
type writeBytesFn struct{ Name string }

func (f *writeBytesFn) ProcessElement(ctx context.Context, b []byte) error {
	return writeFile(ctx, f.Name, b)
}

func init() {
	register.DoFn2x1[context.Context, []byte, error](&writeBytesFn{})
}
