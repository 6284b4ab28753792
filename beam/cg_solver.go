package rkhsbeam

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"rkhs/internal/check"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// fitOperator runs regress.Falkon (Falkon's preconditioned conjugate
// gradient, its default 20 iterations) with every pass over the data done
// by op. A penalized intercept is refused there, as by Falkon.Fit.
func fitOperator(k kernels.Kernel, lambda float64, ic regress.Intercept, centers *linalg.Dense, op regress.NystromOperator) (*regress.Model, error) {
	fit, err := (&regress.Falkon{Kernel: k, Lambda: lambda, Intercept: ic}).FitOperator(centers, op)
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
	if o.Standardize {
		return nil, check.Input(ErrOptions, "FitCG", "Standardize", "the conjugate-gradient fit does not standardize: use the direct solver")
	}
	k, _ := o.Kernel.Kernel()
	dir, cleanup, err := scratchDir(scratch, "cg")
	if err != nil {
		return nil, err
	}
	defer cleanup()
	first, err := firstPassOf(ctx, o, dir, run)
	if err != nil {
		return nil, err
	}
	centers := first.Centers
	op := &PassOperator{Ctx: ctx, Input: o.Input, Kernel: o.Kernel, Centers: centers, Scratch: dir, Run: run}
	model, err := fitOperator(k, o.Lambda, o.Intercept, centers, op)
	if err != nil {
		return nil, err
	}
	first.keep(model)
	js, err := json.Marshal(model)
	if err != nil {
		return nil, err
	}
	return model, writeFile(ctx, o.Model, js)
}

// scratchDir returns a directory of its own for one job of several
// pipelines (a conjugate-gradient fit, a selection), named for it by
// kind, under scratch (os.TempDir() if empty), so that jobs running at once
// never read each other's files: a new directory with a random name on a
// local filesystem, a random prefix elsewhere (object stores have no
// directories). Each file written there is removed once read; cleanup
// removes a local directory with whatever a failed job left in it.
func scratchDir(scratch, kind string) (dir string, cleanup func(), err error) {
	if scratch == "" {
		scratch = os.TempDir()
	}
	if !strings.Contains(scratch, "://") {
		dir, err := os.MkdirTemp(absLocal(scratch), "rkhs-beam-"+kind+"-")
		if err != nil {
			return "", nil, fmt.Errorf("rkhsbeam: scratch: %w", err)
		}
		return dir, func() { os.RemoveAll(dir) }, nil
	}
	var r [8]byte
	if _, err := rand.Read(r[:]); err != nil {
		return "", nil, err
	}
	return strings.TrimSuffix(scratch, "/") + "/rkhs-beam-" + kind + "-" + hex.EncodeToString(r[:]), func() {}, nil
}

// firstPassOf runs the first pass of Fit (the centres, drawn or read from
// o.CentersFile, and the names of the columns) and returns its prep.
func firstPassOf(ctx context.Context, o FitOptions, scratch string, run func(context.Context, *beam.Pipeline) error) (*prep, error) {
	name := scratch + "/centres.json"
	p, s := beam.NewPipelineWithRoot()
	names, err := files(s, o.Input)
	if err != nil {
		return nil, err
	}
	c := prepare(s, o.Input, names, firstPass{Centers: o.Centers, Seed: o.Seed, CentersFile: o.CentersFile, Drawn: drawnBytes(o.Drawn)})
	beam.ParDo0(s, &writeBytesFn{Name: name}, c)
	if err := run(ctx, p); err != nil {
		return nil, err
	}
	b, err := readAllFile(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("rkhsbeam: the centres: %w", err)
	}
	if err := removeFile(ctx, name); err != nil {
		return nil, err
	}
	return decodePrep(b)
}

// absLocal returns a local path made absolute, and any other name (empty,
// or on a filesystem with a scheme, gs://, s3://) as it is: the workers of
// a runner other than the in-process one need not run in this process's
// directory.
func absLocal(name string) string {
	if name == "" || strings.Contains(name, "://") {
		return name
	}
	if abs, err := filepath.Abs(name); err == nil {
		return abs
	}
	return name
}

// removeFile removes a file (or an empty local directory) on any
// filesystem Beam knows that can remove files.
func removeFile(ctx context.Context, name string) error {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fs.Close()
	r, ok := fs.(filesystem.Remover)
	if !ok {
		return nil
	}
	return r.Remove(ctx, name)
}

// writeBytesFn writes its element to a file.
type writeBytesFn struct{ Name string }

func (f *writeBytesFn) ProcessElement(ctx context.Context, b []byte) error {
	return writeFile(ctx, f.Name, b)
}

func init() {
	register.DoFn2x1[context.Context, []byte, error](&writeBytesFn{})
}
