package rkhsbeam

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local paths

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
	// CSV is the layout of CSV files: Header, LabelCol (0-based, negative
	// from the end: -1, the last column, is what rkhs-beam and rkhs take
	// by default), NoLabel (a file of features only, for predictions) and
	// Comma; the other options need a whole file and are not read.
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
	if in.Features < 0 || in.Features > math.MaxInt32 {
		return fmt.Errorf("rkhsbeam: %d features", in.Features)
	}
	if in.Format == "libsvm" && in.CSV.NoLabel {
		return errors.New("rkhsbeam: LIBSVM lines need a label (give any number where it goes); only CSV input can have no label column")
	}
	if c := in.CSV.Comma; c != 0 && (c == '"' || c == '\r' || c == '\n' || c == utf8.RuneError || !utf8.ValidRune(c)) {
		return fmt.Errorf("rkhsbeam: %q cannot separate CSV fields", c)
	}
	return nil
}

// widthError is a file whose rows have another number of features than
// those it is read with (the centres', the model's).
type widthError struct {
	File      string
	Got, Want int
}

func (e *widthError) Error() string {
	return fmt.Sprintf("%s has %s, want %d", e.File, plural(e.Got, "feature"), e.Want)
}

// plural returns "1 row", "2 rows".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
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
// record). The features of a CSV file's first record are reported to
// setD, if not nil, before its first row: an error from it ends the read.
// A malformed line goes to bad if it is not nil, else ends the read with
// a *LineError.
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
	first := in.Format == "csv"
	for sc.Scan() {
		lineNo++
		s := sc.Text()
		if header {
			header = false
			continue
		}
		if first && strings.TrimSpace(s) != "" { // the width of a CSV file: its first record's fields
			first = false
			n, err := csvFields(s, in.CSV)
			if err != nil {
				return &LineError{File: file, Line: lineNo, Err: &dataset.ParseError{Line: lineNo, Msg: err.Error()}}
			}
			if !in.CSV.NoLabel {
				n--
			}
			if n < 1 {
				return &LineError{File: file, Line: lineNo, Err: &dataset.ParseError{Line: lineNo, Msg: "one field: no features"}}
			}
			if x == nil {
				x = make([]float64, n)
			}
			if setD != nil {
				if err := setD(n); err != nil {
					return err
				}
			}
		}
		var y float64
		var ok bool
		switch {
		case in.Format == "libsvm":
			y, ok, err = dataset.ParseLIBSVMLine(s, lineNo, x)
		case in.CSV.NoLabel:
			ok, err = parseFeatures(s, lineNo, in.CSV, x)
		default:
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

// parseFeatures parses a CSV record of features only (Input.CSV.NoLabel)
// into x, as dataset.ParseCSVLine parses a labelled one: a label field is
// appended to it for that parser, after the count of its fields is
// checked here, so that errors count the record's own fields.
func parseFeatures(s string, lineNo int, opt dataset.CSVOptions, x []float64) (bool, error) {
	s = strings.TrimSuffix(s, "\r")
	if s == "" {
		return false, nil
	}
	n, err := csvFields(s, opt)
	if err == nil && n != len(x) {
		return false, &dataset.ParseError{Line: lineNo, Msg: fmt.Sprintf("%s, want %d (features, no label column)", plural(n, "field"), len(x))}
	}
	comma := opt.Comma
	if comma == 0 {
		comma = ','
	}
	opt.LabelCol = -1
	_, ok, err := dataset.ParseCSVLine(s+string(comma)+"0", lineNo, opt, x)
	return ok, err
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

// listFiles returns the files matching the patterns of in, each once, in
// the order of the patterns and of their matches; a pattern that matches
// no file is an error. The command lists them before any job runs, so that
// a job reads a set of files fixed beforehand.
func listFiles(ctx context.Context, in Input) ([]string, error) {
	var names []string
	seen := map[string]bool{}
	for _, glob := range in.Patterns {
		fs, err := filesystem.New(ctx, glob)
		if err != nil {
			return nil, fmt.Errorf("rkhsbeam: %s: %w", glob, err)
		}
		files, err := fs.List(ctx, glob)
		fs.Close()
		if err != nil {
			return nil, fmt.Errorf("rkhsbeam: %s: %w", glob, err)
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("rkhsbeam: no file matches %q", glob)
		}
		for _, f := range files {
			if !seen[f] {
				seen[f] = true
				names = append(names, f)
			}
		}
	}
	return names, nil
}

// files returns the names of the input files, spread over the workers
// (one file is read by one worker: split large inputs into many files).
func files(s beam.Scope, in Input) (beam.PCollection, error) {
	names, err := listFiles(context.Background(), in)
	if err != nil {
		return beam.PCollection{}, err
	}
	s = s.Scope("files")
	return beam.Reshuffle(s, beam.CreateList(s, names)), nil
}

// baseName returns the last element of a file name, without ".gz".
func baseName(file string) string {
	return strings.TrimSuffix(path.Base(file), ".gz")
}
