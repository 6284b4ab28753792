package main

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"rkhs/internal/cli"
	"strings"
	"unicode/utf8"

	"rkhs/dataset"
	"rkhs/linalg"
)

// dataFlags say how to read the data files: the format, the header, which
// columns to use, what to do with missing values. fit, loo, classify and
// predict share them.
type dataFlags struct {
	format, header, target, features string
	comma                            string // "" : ',' for CSV, a tab for tab-separated
	dropMissing, unlabelled          bool
	stderr                           io.Writer
	// byName: the feature columns by the names a model stores, for a CSV
	// file with a header (predict sets it; dataset.CSVOptions.HeaderFeatures).
	byName []string
}

// register adds the flags; unlabelled adds -unlabelled (predict only).
func (df *dataFlags) register(fs commandFlags, unlabelled bool) {
	df.stderr = fs.stderr
	fs.StringVar(&df.format, "format", "auto", "data format: auto (CSV if the name ends in .csv, tab-separated if .tsv or .tab, LIBSVM otherwise; .gz and .bz2 are decompressed first), libsvm, csv or tsv")
	fs.StringVar(&df.header, "header", "auto", "CSV header line: auto (the first line is a header when none of its fields is a number), yes or no")
	fs.StringVar(&df.target, "target", "", "CSV: the label column, by its `name` in the header (default: the last column)")
	fs.StringVar(&df.features, "features", "", "CSV: the feature columns, by `name`s in the header, comma-separated (default: every column but the label; columns not named are not read, so they may hold text)")
	fs.StringVar(&df.comma, "comma", "", "CSV: the field `separator`, one character (\\t for a tab; default: a comma, a tab with -format tsv)")
	fs.BoolVar(&df.dropMissing, "drop-missing", false, "CSV: drop the rows with a missing value (empty, NA, N/A, #N/A, NaN, null, None or ?) in a column that is read, and say how many, instead of failing")
	if unlabelled {
		fs.BoolVar(&df.unlabelled, "unlabelled", false, "CSV: the data has no label column; every column (or every one in -features) is a feature")
	}
}

// check validates the flags' values.
func (df *dataFlags) check() error {
	switch df.format {
	case "auto", "libsvm", "csv", "tsv":
	default:
		return cli.BadInputf("-format %q: want auto, libsvm, csv or tsv", df.format)
	}
	switch df.header {
	case "auto", "yes", "no":
	default:
		return cli.BadInputf("-header %q: want auto, yes or no", df.header)
	}
	if df.header == "no" && (df.target != "" || df.features != "") {
		return cli.BadInputf("-target and -features name columns of the header: not with -header no")
	}
	if df.unlabelled && df.target != "" {
		return cli.BadInputf("-unlabelled data has no -target")
	}
	if df.comma != "" {
		if df.format == "libsvm" {
			return cli.BadInputf("-comma is for CSV data, not -format libsvm")
		}
		if _, err := df.separator(); err != nil {
			return err
		}
	}
	return nil
}

// separator returns the rune of -comma, 0 when it is not given.
func (df *dataFlags) separator() (rune, error) {
	if df.comma == "" {
		return 0, nil
	}
	c := []rune(strings.ReplaceAll(df.comma, `\t`, "\t"))
	if len(c) != 1 || c[0] == '"' || c[0] == '\r' || c[0] == '\n' || c[0] == utf8.RuneError {
		return 0, cli.BadInputf("-comma %q: want one character other than a quote or a line end (\\t for a tab)", df.comma)
	}
	return c[0], nil
}

// commaFlag writes the -comma that reads separator sep.
func commaFlag(sep rune) string {
	if sep == '\t' {
		return `-format tsv (or -comma '\t')`
	}
	return "-comma '" + string(sep) + "'"
}

// compressions maps the magic bytes of a compressed file to its name and,
// for the formats the standard library reads, a decompressor.
var compressions = []struct {
	magic, name string
	open        func(io.Reader) (io.Reader, error)
}{
	{"\x1f\x8b", "gzip", func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
	{"BZh", "bzip2", func(r io.Reader) (io.Reader, error) { return bzip2.NewReader(r), nil }},
	{"\xfd7zXZ\x00", "xz", nil},
	{"\x28\xb5\x2f\xfd", "zstd", nil},
	{"PK\x03\x04", "zip", nil},
}

// readData reads one data file (see dataFlags for the formats); CSV input
// has a label column unless -unlabelled is given. The compression is found
// from the file's first bytes, whatever its name; the format from its
// name without the .gz or .bz2 suffix, unless -format says it. Rows
// dropped for missing values are counted on standard error. info says
// which columns of a CSV file were read; it is nil for LIBSVM.
func (df *dataFlags) readData(path string) (d *dataset.Data, info *dataset.CSVInfo, err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("%s: %w", path, err)
		}
	}()
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<16)
	var r io.Reader = br
	head, _ := br.Peek(6)
	for _, c := range compressions {
		if !bytes.HasPrefix(head, []byte(c.magic)) {
			continue
		}
		if c.open == nil {
			return nil, nil, cli.BadInputf("%s-compressed input is not supported (gzip and bzip2 are): decompress it first", c.name)
		}
		if r, err = c.open(br); err != nil {
			return nil, nil, cli.BadInputf("%s: %v", c.name, err)
		}
		r = damageReader{r, c.name}
		break
	}
	name := strings.ToLower(path)
	for _, ext := range []string{".gz", ".bz2"} {
		name = strings.TrimSuffix(name, ext)
	}
	format := df.format
	if format == "auto" || format == "" {
		switch filepath.Ext(name) {
		case ".csv":
			format = "csv"
		case ".tsv", ".tab":
			format = "tsv"
		default:
			format = "libsvm"
		}
	}
	if format == "libsvm" {
		if df.target != "" || df.features != "" || df.dropMissing || df.unlabelled || df.comma != "" {
			return nil, nil, cli.BadInputf("-target, -features, -drop-missing, -unlabelled and -comma are for CSV data; this file is read as LIBSVM (see -format)")
		}
		d, err = dataset.ReadLIBSVM(r, 0)
		var pe *dataset.ParseError
		if errors.As(err, &pe) && pe.Line == 1 && df.format == "auto" && !strings.HasPrefix(pe.Msg, "no label") {
			err = fmt.Errorf("%w (read as LIBSVM; for CSV or tab-separated data give -format csv or tsv)", err)
		}
		return d, nil, err
	}
	opt := dataset.CSVOptions{
		Header:         df.header == "yes",
		DetectHeader:   df.header == "auto" || df.header == "",
		LabelCol:       -1,
		Target:         df.target,
		NoLabel:        df.unlabelled,
		DropMissing:    df.dropMissing,
		HeaderFeatures: df.byName,
	}
	if df.features != "" {
		opt.Features = strings.Split(df.features, ",")
	}
	if format == "tsv" {
		opt.Comma = '\t'
	}
	if c, _ := df.separator(); c != 0 { // checked by check
		opt.Comma = c
	}
	d, info, err = dataset.ReadCSVInfo(r, opt)
	if err != nil {
		return nil, nil, df.csvHint(err)
	}
	if info.Dropped > 0 && df.stderr != nil {
		fmt.Fprintf(df.stderr, "rkhs: %s: dropped %d of %d rows with a missing value\n", path, info.Dropped, info.Dropped+d.X.Rows)
	}
	return d, info, nil
}

// csvHint adds to a CSV parse error the flag that reads the file: the
// separator it seems to use (-comma), a first line of numbers that is a
// header after all (-header yes), missing values (-drop-missing).
func (df *dataFlags) csvHint(err error) error {
	pe := (*dataset.ParseError)(nil)
	if !errors.As(err, &pe) {
		return err
	}
	switch {
	case pe.Missing:
		return fmt.Errorf("%w (-drop-missing drops the rows that have one)", err)
	case pe.Separator != 0:
		return fmt.Errorf("%w (%s reads it)", err, commaFlag(pe.Separator))
	case pe.Line == 1 && (df.header == "auto" || df.header == "") && df.target == "" && df.features == "" && !strings.Contains(pe.Msg, "carriage return"):
		return fmt.Errorf("%w (line 1 was read as data because some of its fields are numbers; if it is a header, give -header yes)", err)
	}
	return err
}

// damageReader reads a decompressed stream and reports its errors, a
// truncated, damaged or padded file, as bad input naming the format.
type damageReader struct {
	r      io.Reader
	format string
}

func (d damageReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	if err != nil && err != io.EOF {
		why := strings.TrimPrefix(err.Error(), d.format+": ")
		var se bzip2.StructuralError
		if errors.As(err, &se) {
			why = string(se)
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			why = "the file ends early (truncated?)"
		} else if errors.Is(err, gzip.ErrHeader) {
			why = "trailing bytes that are not gzip data (padding?)"
		}
		err = cli.BadInputf("damaged %s data: %s", d.format, why)
	}
	return n, err
}

// readTrainTest reads the training file and, if test is not empty, the
// test file. Their widths must agree: a CSV file's columns are
// positional and must match exactly, while a LIBSVM file does not show
// trailing features that are zero in every row, so a narrower LIBSVM file
// is padded with zero columns. names are the training file's names of the
// columns read (dataset.CSVInfo.Names), for the model to store.
func (df *dataFlags) readTrainTest(train, test string) (tr, te *dataset.Data, names columnNames, err error) {
	tr, trInfo, err := df.readData(train)
	if err != nil {
		return nil, nil, names, err
	}
	if trInfo != nil {
		names.features, names.target = trInfo.Names()
	}
	if test == "" {
		return tr, nil, names, nil
	}
	te, teInfo, err := df.readData(test)
	if err != nil {
		return nil, nil, names, err
	}
	trCSV, teCSV := trInfo != nil, teInfo != nil
	switch {
	case tr.X.Cols == te.X.Cols:
	case tr.X.Cols < te.X.Cols && !trCSV, te.X.Cols < tr.X.Cols && !teCSV:
		sameWidth(tr, te)
	default:
		return nil, nil, names, cli.BadInputf("%s has %s and %s has %d: CSV columns are positional, so the widths must agree", train, cli.Count(tr.X.Cols, "feature"), test, te.X.Cols)
	}
	return tr, te, names, nil
}

// sameWidth pads the narrower of two data sets with zero columns.
func sameWidth(a, b *dataset.Data) {
	d := max(a.X.Cols, b.X.Cols)
	for _, s := range []*dataset.Data{a, b} {
		if s.X.Cols < d {
			w := linalg.NewDense(s.X.Rows, d, nil)
			w.Slice(0, s.X.Rows, 0, s.X.Cols).Copy(&s.X)
			s.X = *w
		}
	}
}

// explained is an error whose message is written for the command's user;
// the error it explains stays reachable by errors.Is and errors.As.
type explained struct {
	msg string
	err error
}

func (e explained) Error() string { return e.msg }
func (e explained) Unwrap() error { return e.err }
