package rkhsbeam

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local paths
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"rkhs/dataset"
)

// Input says which text files hold the rows and how to parse them.
type Input struct {
	// Patterns are globs of files on any filesystem Beam knows (local
	// paths, gs://, s3://). Each must match at least one file. A name
	// ending in ".gz" is read through gzip.
	Patterns []string
	// Format is "libsvm" or "csv".
	Format string
	// Features is d, the number of features. LIBSVM input needs it (the
	// largest index of every file is not known before reading them all,
	// and a centres file in LIBSVM format has the same problem); CSV input
	// takes it from the fields of each file's first record (every file
	// must agree).
	Features int
	// CSV is the layout of CSV files (header, label column, separator).
	CSV dataset.CSVOptions
}

// check reports an Input that cannot be read.
func (in Input) check() error {
	if len(in.Patterns) == 0 {
		return errors.New("rkhsbeam: no input files given")
	}
	switch in.Format {
	case "libsvm", "csv":
	default:
		return fmt.Errorf("rkhsbeam: input format %q, want libsvm or csv", in.Format)
	}
	if in.Features < 0 {
		return fmt.Errorf("rkhsbeam: %d features", in.Features)
	}
	return nil
}

// LineError is a malformed line of an input file, with its file and
// 1-based line number; it wraps the *dataset.ParseError (and so
// dataset.ErrFormat).
type LineError struct {
	File string
	Line int
	Err  error
}

func (e *LineError) Error() string {
	msg := e.Err.Error()
	var pe *dataset.ParseError
	if errors.As(e.Err, &pe) {
		msg = pe.Msg
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, msg)
}

func (e *LineError) Unwrap() error { return e.Err }

// rowFunc receives each parsed line: its features (owned by the reader,
// valid until the next call) and label.
type rowFunc func(x []float64, y float64) error

// badFunc receives a malformed line when the caller collects them (a
// dead-letter output); nil makes the first one an error.
type badFunc func(e *LineError, text string)

// readFile reads the rows of one file, calling each for every row. d is
// the feature count, or 0 for a CSV file (then taken from the first
// record, and reported by setD before the first row). A malformed line
// goes to bad if it is not nil, else ends the read with a *LineError.
func readFile(ctx context.Context, in Input, file string, d int, setD func(int) error, each rowFunc, bad badFunc) error {
	fs, err := filesystem.New(ctx, file)
	if err != nil {
		return err
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, file)
	if err != nil {
		return err
	}
	defer rc.Close()
	var r io.Reader = rc
	if strings.HasSuffix(file, ".gz") {
		zr, err := gzip.NewReader(rc)
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		defer zr.Close()
		r = zr
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	var x []float64
	if d > 0 {
		x = make([]float64, d)
	}
	lineNo := 0
	header := in.Format == "csv" && in.CSV.Header
	for sc.Scan() {
		lineNo++
		s := sc.Text()
		if header {
			header = false
			continue
		}
		if x == nil { // CSV without a known width: count the fields of the first record
			if strings.TrimSpace(s) == "" {
				continue
			}
			n, err := csvFields(s, in.CSV)
			if err != nil {
				return &LineError{File: file, Line: lineNo, Err: &dataset.ParseError{Line: lineNo, Msg: err.Error()}}
			}
			if n < 2 {
				return &LineError{File: file, Line: lineNo, Err: &dataset.ParseError{Line: lineNo, Msg: "one field: no features"}}
			}
			x = make([]float64, n-1)
			if err := setD(n - 1); err != nil {
				return err
			}
		}
		var y float64
		var ok bool
		if in.Format == "libsvm" {
			y, ok, err = dataset.ParseLIBSVMLine(s, lineNo, x)
		} else {
			y, ok, err = dataset.ParseCSVLine(s, lineNo, in.CSV, x)
		}
		if err != nil {
			le := &LineError{File: file, Line: lineNo, Err: err}
			if bad == nil {
				return le
			}
			bad(le, s)
			continue
		}
		if ok {
			if err := each(x, y); err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return &LineError{File: file, Line: lineNo + 1, Err: &dataset.ParseError{Line: lineNo + 1, Msg: "line is longer than 64 MiB"}}
		}
		return fmt.Errorf("%s: %w", file, err)
	}
	return nil
}

// csvFields returns the number of fields of a CSV record on one line.
func csvFields(s string, opt dataset.CSVOptions) (int, error) {
	cr := csv.NewReader(strings.NewReader(s))
	if opt.Comma != 0 {
		cr.Comma = opt.Comma
	}
	rec, err := cr.Read()
	if err != nil {
		return 0, err
	}
	return len(rec), nil
}

// expandFn lists the files matching a glob, failing when none does.
type expandFn struct{}

func (expandFn) ProcessElement(ctx context.Context, glob string, emit func(string)) error {
	fs, err := filesystem.New(ctx, glob)
	if err != nil {
		return err
	}
	defer fs.Close()
	files, err := fs.List(ctx, glob)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("rkhsbeam: no file matches %q", glob)
	}
	for _, f := range files {
		emit(f)
	}
	return nil
}

func init() {
	register.DoFn3x1[context.Context, string, func(string), error](&expandFn{})
	register.Emitter1[string]()
}

// files returns the names of the input files, spread over the workers
// (one file is read by one worker: split large inputs into many files).
func files(s beam.Scope, in Input) beam.PCollection {
	s = s.Scope("files")
	names := beam.ParDo(s, &expandFn{}, beam.CreateList(s, in.Patterns))
	return beam.Reshuffle(s, names)
}

// baseName returns the last element of a file name, without ".gz".
func baseName(file string) string {
	return strings.TrimSuffix(path.Base(file), ".gz")
}
