package rkhsbeam

import (
	"bufio"
	"compress/gzip"
	"context"
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
	"rkhs/internal/cli"
	"rkhs/report"
)

// Input says which text files hold the rows and how to parse them.
type Input struct {
	// Patterns are globs of files on any filesystem Beam knows (local
	// paths, gs://, s3://). Each must match at least one file. A name
	// ending in ".gz" is read through gzip.
	Patterns []string
	// Format is "libsvm" or "csv".
	Format string
	// Width is d, the number of features of LIBSVM input, which needs it
	// (the largest index of every file is not known before reading them
	// all, and a centres file in LIBSVM format has the same problem). CSV
	// input takes it from each file's first record: every file must agree.
	Width int
	// CSV is the layout of CSV files, which every file's first record
	// settles as dataset.NewCSVLines does, so that a file is read as
	// package dataset reads a whole one: a header (Header, or
	// DetectHeader's rule: a first line with no number), the label
	// (Target by its name in the header, or LabelCol: 0-based, negative
	// from the end; -1, the last column, is what rkhs-beam and rkhs take
	// by default), the features (Features by their names, or every other
	// column), NoLabel (a file of features only, for predictions) and
	// Comma. Each file is read by its own header, so columns named by
	// Target and Features may stand in any order in each. DropMissing is
	// not read: malformed lines go to a dead-letter output instead.
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
	if in.Width < 0 || in.Width > math.MaxInt32 {
		return fmt.Errorf("rkhsbeam: %d features", in.Width)
	}
	if in.Format == "libsvm" && in.CSV.NoLabel {
		return errors.New("rkhsbeam: LIBSVM lines need a label (give any number where it goes); only CSV input can have no label column")
	}
	if c := in.CSV.Comma; c != 0 && (c == '"' || c == '\r' || c == '\n' || c == utf8.RuneError || !utf8.ValidRune(c)) {
		return fmt.Errorf("rkhsbeam: %q cannot separate CSV fields", c)
	}
	return nil
}

// layout is what the first record of a file says: its number of features
// and, for a CSV file with a header, the names of its feature and label
// columns (dataset.CSVInfo.Names: nil and "" without a header).
type layout struct {
	Width    int
	Features []string
	Target   string
	// Info is how the file's columns are read (its header, nil without
	// one; the label's column and the features').
	Info *dataset.CSVInfo
}

// errLayout stops readFile once the layout of a file is known
// (firstLayout).
var errLayout = errors.New("rkhsbeam: layout read")

// firstLayout returns how in reads the columns of file, from its first
// line (nil for LIBSVM, or a CSV file without a line), reading no
// further.
func firstLayout(ctx context.Context, in Input, file string) (*dataset.CSVInfo, error) {
	if in.Format != "csv" {
		return nil, nil
	}
	var info *dataset.CSVInfo
	err := readFile(ctx, in, file, 0, func(l layout) error { info = l.Info; return errLayout }, func([]float64, float64) error { return errLayout }, nil)
	if err != nil && !errors.Is(err, errLayout) {
		return nil, err
	}
	return info, nil
}

// checkBesideLayout refuses a file without a header read beside the
// input (a centres file) when the input's columns are not read by
// position — a -target other than its last column, -features a subset —
// as rkhs refuses such a -test file (cli.HeaderlessBeside): by position,
// the label last, its columns would be misread. in reads the input, of
// which the first file stands for all (every file shares the first's
// columns).
func checkBesideLayout(ctx context.Context, in Input, beside string) error {
	if beside == "" || in.Format != "csv" {
		return nil
	}
	files, err := in.Files(ctx)
	if err != nil || len(files) == 0 {
		return err
	}
	train, err := firstLayout(ctx, in, files[0])
	if err != nil {
		return err
	}
	bin := in
	bin.CSV.Target, bin.CSV.Features = "", nil
	info, err := firstLayout(ctx, bin, beside)
	if err != nil {
		return err
	}
	return cli.HeaderlessBeside(beside, info, files[0], train)
}

// widthError is a file whose rows have another number of features than
// those it is read with (the centres', the model's).
type widthError struct {
	File      string
	Got, Want int
}

func (e *widthError) Error() string {
	return fmt.Sprintf("%s has %s, want %d", e.File, report.Count(e.Got, "feature"), e.Want)
}

// LineError is a malformed line of an input file, with its file and
// 1-based line number; it wraps the *dataset.ParseError (and so
// dataset.ErrFormat). Hint, if not empty, says what reads the file.
type LineError struct {
	File string
	Line int
	Err  error
	Hint string
}

func (e *LineError) Error() string {
	msg := e.Err.Error()
	var pe *dataset.ParseError
	if errors.As(e.Err, &pe) {
		msg = pe.Msg
	}
	if e.Hint != "" {
		msg += " (" + e.Hint + ")"
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
// the number of features of LIBSVM input; a CSV file's comes from its
// first record, whose layout (width and names) is reported to setD, if
// not nil, before its first row: an error from it ends the read, as does
// an error about the first record itself (a name that is not in the
// header). A malformed line goes to bad if it is not nil, else ends the
// read with a *LineError.
func readFile(ctx context.Context, in Input, file string, d int, setD func(layout) error, each rowFunc, bad badFunc) error {
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
	if in.Format == "libsvm" {
		x = make([]float64, d)
	}
	var csvLines *dataset.CSVLines
	guessed := false // line 1 was read as data by DetectHeader's rule
	lineNo := 0
	for sc.Scan() {
		lineNo++
		s := sc.Text()
		if in.Format == "csv" && csvLines == nil {
			if strings.TrimSpace(s) == "" {
				continue
			}
			c, header, err := dataset.NewCSVLines(s, lineNo, in.CSV)
			if err != nil {
				return &LineError{File: file, Line: lineNo, Err: err}
			}
			if c.Width() < 1 {
				return &LineError{File: file, Line: lineNo, Err: &dataset.ParseError{Line: lineNo, Msg: "no feature columns"}}
			}
			csvLines, x = c, make([]float64, c.Width())
			guessed = !header && lineNo == 1 && in.CSV.DetectHeader && !in.CSV.Header
			if setD != nil {
				l := layout{Width: c.Width(), Info: c.Info()}
				l.Features, l.Target = c.Info().Names()
				if err := setD(l); err != nil {
					return err
				}
			}
			if header {
				continue
			}
		}
		var y float64
		var ok bool
		if csvLines != nil {
			y, ok, err = csvLines.Parse(s, lineNo, x)
		} else {
			y, ok, err = dataset.ParseLIBSVMLine(s, lineNo, x)
		}
		if err != nil {
			le := &LineError{File: file, Line: lineNo, Err: err, Hint: hint(err, guessed && lineNo == 1)}
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

// hint says what reads a CSV line that does not parse: the separator the
// line seems to use, or, for line 1 read as data because some of its
// fields are numbers (guessed), that a header is said with -header yes.
func hint(err error, guessed bool) string {
	var pe *dataset.ParseError
	switch {
	case !errors.As(err, &pe):
	case pe.Separator != 0:
		return fmt.Sprintf("-comma '%c' reads it", pe.Separator)
	case guessed:
		return "line 1 was read as data because some of its fields are numbers; if it is a header, give -header yes"
	}
	return ""
}

// Files returns the files matching the patterns of in, each once, in the
// order of the patterns and of their matches; a pattern that matches no
// file is an error. Every pipeline lists them before it runs, so that a
// job reads a set of files fixed beforehand (and a command can check its
// outputs against them).
func (in Input) Files(ctx context.Context) ([]string, error) {
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
	names, err := in.Files(context.Background())
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
