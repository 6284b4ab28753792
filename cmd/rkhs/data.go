package main

import (
	"errors"
	"fmt"
	"io"
	"rkhs/internal/cli"
	"rkhs/report"
	"strings"

	"rkhs/dataset"
)

// dataFlags say how to read the data files: the format, the header, which
// columns to use, what to do with missing values. fit, loo, classify and
// predict share them.
type dataFlags struct {
	format, target, features string
	header                   cli.Header
	comma                    string // "" : ',' for CSV, a tab for tab-separated
	dropMissing, unlabelled  bool
	stderr                   io.Writer
	// byName and byTarget: the feature columns, and the label's, by the
	// names of the training file or of a model, for a CSV file with a
	// header (dataset.CSVOptions.HeaderFeatures and HeaderTarget).
	byName   []string
	byTarget string
}

// register adds the flags; unlabelled adds -unlabelled (predict only).
func (df *dataFlags) register(fs *flagSet, unlabelled bool) {
	fs.StringVar(&df.format, "format", "auto", "data format: auto (CSV if the name ends in .csv, tab-separated if .tsv or .tab, LIBSVM otherwise; .gz and .bz2 are decompressed first), libsvm, csv or tsv")
	fs.Var(&df.header, "header", "CSV header line: `auto|yes|no`; auto, the default, reads the first line as a header when none of its fields is a number; alone, -header is yes")
	fs.StringVar(&df.target, "target", "", "CSV: the label column, by its `name` in the header (default: the last column)")
	fs.StringVar(&df.features, "features", "", "CSV: the feature columns, by `name`s in the header, comma-separated (default: every column but the label; columns not named are not read, so they may hold text)")
	fs.StringVar(&df.comma, "comma", "", "CSV: the field `separator`, one character (\\t for a tab; default: a comma, a tab with -format tsv)")
	fs.BoolVar(&df.dropMissing, "drop-missing", false, "CSV: drop the rows with a missing value (empty, NA, N/A, #N/A, NaN, null, None or ?) in a column that is read, and say how many, instead of failing")
	if unlabelled {
		fs.BoolVar(&df.unlabelled, "unlabelled", false, "CSV: the data has no label column; every column (or every one in -features) is a feature")
	}
}

// check validates the flags' values (the CSV layout's by cli.CSVColumns).
func (df *dataFlags) check() error {
	switch {
	case df.format != "auto" && df.format != "libsvm" && df.format != "csv" && df.format != "tsv":
		return cli.BadInputf("-format %q: want auto, libsvm, csv or tsv", df.format)
	case df.unlabelled && df.target != "":
		return cli.BadInputf("-unlabelled data has no -target")
	case df.comma != "" && df.format == "libsvm":
		return cli.BadInputf("-comma is for CSV data, not -format libsvm")
	}
	_, err := cli.CSVColumns(df.header.String(), df.target, df.features, df.comma)
	return err
}

// readData reads one data file (see dataFlags for the formats); CSV input
// has a label column unless -unlabelled is given. The compression is found
// from the file's first bytes, whatever its name; the format from its
// name without the .gz or .bz2 suffix, unless -format says it. Rows
// dropped for missing values are counted on standard error. info says
// which columns of a CSV file were read; it is nil for LIBSVM.
func (df *dataFlags) readData(path string) (*dataset.Data, *dataset.CSVInfo, error) {
	format := df.format
	if format == "auto" || format == "" {
		format = dataset.FormatOf(path)
	}
	if format == dataset.FormatLIBSVM && (df.target != "" || df.features != "" || df.dropMissing || df.unlabelled || df.comma != "") {
		return nil, nil, fmt.Errorf("%s: %w", path, cli.BadInputf("-target, -features, -drop-missing, -unlabelled and -comma are for CSV data; this file is read as LIBSVM (see -format)"))
	}
	opt, _ := cli.CSVColumns(df.header.String(), df.target, df.features, df.comma) // checked by check
	opt.NoLabel, opt.DropMissing, opt.HeaderFeatures, opt.HeaderTarget = df.unlabelled, df.dropMissing, df.byName, df.byTarget
	d, info, err := dataset.ReadFile(path, format, opt)
	var pe *dataset.ParseError
	switch {
	case err == nil:
	case format != dataset.FormatLIBSVM:
		err = cli.CSVHint(err, opt.DetectHeader)
	case errors.As(err, &pe) && pe.Line == 1 && df.format == "auto" && !strings.HasPrefix(pe.Msg, "no label"):
		err = fmt.Errorf("%w (read as LIBSVM; for CSV or tab-separated data give -format csv or tsv)", err)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if info != nil && info.Dropped > 0 && df.stderr != nil {
		fmt.Fprintf(df.stderr, "rkhs: %s: dropped %d of %d rows with a missing value\n", path, info.Dropped, info.Dropped+d.X.Rows)
	}
	return d, info, nil
}

// columnNames are the names of the columns a model was fitted on (see
// regress.Model.FeatureNames): nil and "" when the training data had no
// header.
type columnNames struct {
	features []string
	target   string
	libsvm   bool // the training file is LIBSVM: it may be narrower than a test file
	// layout is how the training file's columns were read (nil for
	// LIBSVM or a model), which a headerless file beside it must share
	// (cli.HeaderlessBeside).
	layout *dataset.CSVInfo
}

// readTraining reads the training file and the names of the columns it
// read (dataset.CSVInfo.Names), for the model to store and for the files
// read beside it.
func (df *dataFlags) readTraining(path string) (*dataset.Data, columnNames, error) {
	d, info, err := df.readData(path)
	names := columnNames{libsvm: info == nil, layout: info}
	if info != nil {
		names.features, names.target = info.Names()
	}
	return d, names, err
}

// readBeside reads a file of the same layout as the training file train,
// whose columns are names: when both have a header, by those names, in any
// order and with other columns among them (dataset.CSVOptions.HeaderFeatures
// and HeaderTarget), so that a missing column is an error naming it;
// otherwise by position, and then the training file's columns must have
// been read by position too (cli.HeaderlessBeside: not with -target
// another column than the last, nor -features a subset) and its width
// must be the training file's (a LIBSVM file, which leaves out trailing
// zero features, may be narrower: it is padded with zero columns, tr
// too).
func (df *dataFlags) readBeside(path string, names columnNames, train string, tr *dataset.Data) (*dataset.Data, error) {
	bd := *df
	if names.features != nil {
		bd.features, bd.target, bd.byName, bd.byTarget = "", "", names.features, names.target
	}
	te, info, err := bd.readData(path)
	if err == nil {
		err = cli.HeaderlessBeside(path, info, train, names.layout)
	}
	switch {
	case err != nil:
		return nil, err
	case te.X.Cols == tr.X.Cols, te.X.Cols < tr.X.Cols && info == nil, tr.X.Cols < te.X.Cols && names.libsvm:
	default:
		return nil, cli.BadInputf("%s: %s, the last column read as the label (it has no header to name them); %s has %s: the widths must agree",
			path, report.Count(te.X.Cols, "feature"), train, report.Count(tr.X.Cols, "feature"))
	}
	te.Widen(tr.X.Cols)
	tr.Widen(te.X.Cols)
	return te, nil
}
