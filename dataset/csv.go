package dataset

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"rkhs/linalg"
)

// CSVOptions describes the layout of a CSV data set. The zero value means:
// no header, the label in the first column, every other column a feature,
// fields separated by commas, a missing value an error.
type CSVOptions struct {
	// Header: the first line is a header. ReadCSV takes the column names
	// from it, and its number of fields must match the other records;
	// WriteCSV writes "x1,x2,...,xd" with "y" at the label's position.
	Header bool
	// DetectHeader, when Header is false, decides from the first record
	// alone: it is a header when none of its fields is a number (see the
	// package documentation), and the first example otherwise. The decision
	// is never revised: a first record such as "1,NA,3" is data, and its
	// NA is reported as a missing value.
	DetectHeader bool
	// LabelCol is the 0-based column holding the label; a negative value
	// counts from the end (-1 is the last column). The other columns are the
	// features, in order. Target, if set, takes precedence.
	LabelCol int
	// Target names the label column by its name in the header (which it
	// requires); "" means LabelCol.
	Target string
	// Features, if not empty, names the feature columns by their names in
	// the header (which it requires), in the order they take in X; the
	// columns named neither here nor by Target are not read at all, so
	// they may hold text. Empty means every column but the label.
	Features []string
	// NoLabel: the input has no label column; every column (or every
	// column in Features) is a feature and Data.Y is nil. LabelCol and
	// Target are then ignored.
	NoLabel bool
	// DropMissing: a record with a missing value (an empty field, NA, N/A,
	// #N/A, NaN, null, None or ?, see the package documentation) in a column that is
	// read is skipped, and counted in CSVInfo.Dropped, instead of being an
	// error.
	DropMissing bool
	// HeaderFeatures, if not empty, names the feature columns as Features
	// does, in the order they take in X, when the input has a header
	// (Header, or DetectHeader's decision), and then no label is read: the
	// input may have one or not. An input without a header is read by
	// position, as LabelCol and NoLabel say. It finds the columns a model
	// was fitted on, by the names it stores, in data laid out differently.
	// Target and Features, if set, take precedence.
	HeaderFeatures []string
	// HeaderTarget, with HeaderFeatures, names the label column when the
	// input has a header: the features are then found by HeaderFeatures'
	// names and the label by this one, wherever they are, as a test file
	// is read by the names of its training file; a header without it is
	// an error naming it. An input without a header is read by position,
	// as without it.
	HeaderTarget string
	// Comma is the field separator; 0 means ','. It must be a valid rune
	// other than '"', '\r', '\n' and utf8.RuneError. '\t' reads
	// tab-separated files.
	Comma rune
}

// CSVInfo says what ReadCSVInfo found besides the data.
type CSVInfo struct {
	// Header holds the names of the header's columns, nil without one.
	Header []string
	// Label is the 0-based column of the label (-1 with NoLabel), and
	// Features those of the features, in the order of X's columns.
	Label    int
	Features []int
	// Dropped is the number of records skipped for a missing value
	// (DropMissing), and DroppedRecords their 0-based indices among the
	// records that follow the header (all of them without one), in
	// ascending order: record i of the input is row i of the data less
	// the records dropped before it.
	Dropped        int
	DroppedRecords []int

	used []int       // the columns read, ascending
	slot map[int]int // column → its column in X
	// lastEmpty: the last field of the first record (header or data) is
	// empty, the mark of lines that end in a separator.
	lastEmpty bool
}

// comma returns the separator, panicking if encoding/csv cannot use it.
func (o *CSVOptions) comma(fn string) rune {
	c := o.Comma
	if c == 0 {
		return ','
	}
	if c == '"' || c == '\r' || c == '\n' || c == utf8.RuneError || !utf8.ValidRune(c) {
		panic(fmt.Sprintf("dataset: %s: invalid CSV separator %q", fn, c))
	}
	return c
}

// labelIndex returns the 0-based label column for records of n fields, and
// whether it lies inside them.
func (o *CSVOptions) labelIndex(n int) (int, bool) {
	j := o.LabelCol
	if j < 0 {
		j += n
	}
	return j, 0 <= j && j < n
}

// ReadCSV reads a data set in CSV format from r, reading r to its end:
// ReadCSVInfo without the info.
func ReadCSV(r io.Reader, opt CSVOptions) (*Data, error) {
	d, _, err := ReadCSVInfo(r, opt)
	return d, err
}

// ReadCSVInfo reads a data set in CSV format from r, reading r to its end,
// and says which columns it used and how many records it dropped. Each
// record is one example: the field at the label column (opt.Target or
// opt.LabelCol) is its label and the feature columns (opt.Features, or
// all the others, in order) its features. Every field that is read must
// be a finite decimal number (see the package documentation); quoted
// fields are unquoted first, and a UTF-8 byte-order mark at the start of
// the input is skipped. Numbers are stored exactly as parsed.
//
// The first record is a header when opt.Header is set, with
// opt.DetectHeader when none of its fields is a number, and otherwise
// when opt.Target or opt.Features name columns; it is never decided by
// retrying after an error. With opt.DetectHeader, names in Target or
// Features given for a first record read as data find no header, and
// are an error that says so.
//
// It returns a *ParseError (wrapping ErrFormat), and no Data, for a field
// that is read and is missing (unless opt.DropMissing) or is not a finite
// decimal number — naming the line, the field and, with a header, the
// column —, a record whose number of fields differs from the first
// record's (header included), a label column outside the first record, a
// name in Target, Features, HeaderFeatures or HeaderTarget that is not in
// the header or that names a column of an input without one,
// names two of its columns (ambiguous) or is used twice,
// or a CSV syntax error such as a stray quote. Line numbers count every
// physical line of the input, the header and empty lines included, and
// refer to the line holding the offending field. An input with no
// examples is a *ParseError with Line 0. An error from r is returned
// unchanged. ReadCSVInfo panics if opt.Comma is not a valid separator.
//
// Time and memory are linear in the input size.
func ReadCSVInfo(r io.Reader, opt CSVOptions) (*Data, *CSVInfo, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	if bom, err := br.Peek(3); err == nil && string(bom) == "\uFEFF" {
		br.Discard(3)
	}
	cr := csv.NewReader(br)
	cr.Comma = opt.comma("ReadCSV")
	cr.FieldsPerRecord = 0 // set by the first record; later ones must match
	cr.ReuseRecord = true

	var (
		x, y  []float64
		ncols int // fields per record
		info  = &CSVInfo{Label: -1}
		row   []float64
		// records counts the records read after the header.
		records int
	)
	lineOf := func(j int) int { line, _ := cr.FieldPos(j); return line }
	for first := true; ; first = false {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, csvError(err, len(rec), ncols)
		}
		if first {
			ncols = len(rec)
			info.lastEmpty = rec[ncols-1] == ""
			header, cols := opt.layout(rec, info)
			if err := cols.columns(info, ncols); err != nil {
				line, _ := cr.FieldPos(0)
				return nil, nil, &ParseError{Line: line, Msg: err.Error()}
			}
			row = make([]float64, len(info.Features))
			if header {
				continue
			}
		}
		label, dropped, err := readRecord(lineOf, rec, info, row, opt)
		if err != nil {
			return nil, nil, err
		}
		if dropped {
			info.DroppedRecords = append(info.DroppedRecords, records)
			info.Dropped++
			records++
			continue
		}
		records++
		x = append(x, row...)
		if info.Label >= 0 {
			y = append(y, label)
		}
	}
	n := 0
	if ncols > 0 {
		n = len(x) / max(len(info.Features), 1)
		if info.Label >= 0 {
			n = len(y)
		}
	}
	if n == 0 {
		msg := "no examples in CSV input"
		if info.Dropped > 0 {
			msg = fmt.Sprintf("no examples in CSV input: all %d records have a missing value", info.Dropped)
			if info.lastEmpty {
				msg += fmt.Sprintf(" (the last field of line 1 is empty: do the lines end in a trailing %s?)", quote(string(opt.comma("ReadCSV"))))
			}
		}
		return nil, nil, &ParseError{Line: 0, Msg: msg}
	}
	if x == nil {
		x = []float64{} // a label-only file: n×0
	}
	return &Data{X: *linalg.NewDense(n, len(info.Features), x), Y: y}, info, nil
}

// readRecord parses the label and the features of rec into row; dropped
// reports a missing value with opt.DropMissing. lineOf returns the line of
// field j, for errors.
func readRecord(lineOf func(j int) int, rec []string, info *CSVInfo, row []float64, opt CSVOptions) (label float64, dropped bool, err error) {
	field := func(j int) (float64, bool, error) {
		f := rec[j]
		v, problem, missing := parseField(f)
		if problem == "" {
			return v, false, nil
		}
		line := lineOf(j)
		if trailing := j == len(rec)-1 && f == "" && info.lastEmpty; trailing && (!opt.DropMissing || info.Header != nil) && line > 1 {
			// Lines that end in a separator: an empty last column on
			// every line, not a value missing here and there (with a
			// header whose last name is empty too, even when dropping
			// missing values, which would drop every line).
			return 0, false, &ParseError{Line: line, Msg: fmt.Sprintf("%s: empty, as is the last field of line 1: every line seems to end in a trailing %s", info.fieldName(j), quote(string(opt.comma("ReadCSV"))))}
		}
		if missing && opt.DropMissing {
			return 0, true, nil
		}
		pe := &ParseError{Line: line, Msg: fmt.Sprintf("%s: %s %s", info.fieldName(j), quote(f), problem), Missing: missing}
		if trailing := j == len(rec)-1 && f == ""; trailing {
			pe.Msg += fmt.Sprintf(" (or the line ends in a trailing %s)", quote(string(opt.comma("ReadCSV"))))
		}
		if !missing {
			diagnoseDialect(pe, f, rec, opt.comma("ReadCSV"))
		}
		return 0, false, pe
	}
	// In the order of the fields, so that the first error is the first
	// bad field of the line.
	for _, j := range info.used {
		v, drop, err := field(j)
		if drop || err != nil {
			return 0, drop, err
		}
		if j == info.Label {
			label = v
		} else {
			row[info.slot[j]] = v
		}
	}
	return label, false, nil
}

// parseField parses one CSV field as a finite decimal number; otherwise
// problem says why, "is a missing value" (and missing) for the missing-value
// spellings of isMissing.
func parseField(f string) (v float64, problem string, missing bool) {
	v, problem = parseFinite(f)
	if problem != "" && isMissing(f) {
		return 0, "is a missing value", true
	}
	return v, problem, false
}

// diagnoseDialect adds to pe, the error of field f of rec (read with
// separator comma), what makes the file look written in another dialect:
// another common separator in f (recorded in pe.Separator), or a
// carriage return in the record, the line end of classic Mac OS, which
// encoding/csv reads as part of a field.
func diagnoseDialect(pe *ParseError, f string, rec []string, comma rune) {
	for _, sep := range []rune{',', ';', '\t', '|'} {
		if sep != comma && strings.ContainsRune(f, sep) {
			pe.Separator = sep
			pe.Msg += fmt.Sprintf("; the line seems to be separated by %s, not %s", quote(string(sep)), quote(string(comma)))
			return
		}
	}
	for _, g := range rec {
		if strings.ContainsRune(g, '\r') {
			pe.Msg += `; the line holds a carriage return: lines that end in "\r" alone (classic Mac OS) are read as one line`
			return
		}
	}
}

// layout decides from the first record rec whether it is a header — when
// o.Header is set, with o.DetectHeader when none of its fields is a
// number, and without o.DetectHeader when o.Target or o.Features name
// columns — and returns the options whose columns are read: with a header
// and o.HeaderFeatures (and no Target or Features), the columns of those
// names and the label of o.HeaderTarget. The header goes to info. The
// one rule of ReadCSVInfo and NewCSVLines.
func (o CSVOptions) layout(rec []string, info *CSVInfo) (header bool, cols CSVOptions) {
	header = o.Header || (o.DetectHeader && !anyNumber(rec)) || !o.DetectHeader && (o.Target != "" || len(o.Features) > 0)
	cols = o
	if header {
		info.Header = slices.Clone(rec)
		if len(o.HeaderFeatures) > 0 && o.Target == "" && len(o.Features) == 0 {
			cols.Features, cols.Target, cols.NoLabel = o.HeaderFeatures, o.HeaderTarget, o.NoLabel || o.HeaderTarget == ""
		}
	}
	return header, cols
}

// columns sets info.Label and info.Features for records of n fields.
func (o *CSVOptions) columns(info *CSVInfo, n int) error {
	index := func(what, name string) (int, error) {
		if info.Header == nil {
			return 0, fmt.Errorf("%s %q names a column, but the input has no header", what, name)
		}
		j := slices.Index(info.Header, name)
		if j < 0 {
			return 0, fmt.Errorf("%s %q is not a column of the header (%s)", what, name, strings.Join(info.Header, ", "))
		}
		if k := slices.Index(info.Header[j+1:], name); k >= 0 {
			return 0, fmt.Errorf("%s %q is ambiguous: fields %d and %d of the header have that name", what, name, j+1, j+k+2)
		}
		return j, nil
	}
	switch {
	case o.NoLabel:
		info.Label = -1
	case o.Target != "":
		j, err := index("target", o.Target)
		if err != nil {
			return err
		}
		info.Label = j
	default:
		j, ok := o.labelIndex(n)
		if !ok {
			return fmt.Errorf("label column %d is out of range for %d fields", o.LabelCol, n)
		}
		info.Label = j
	}
	info.Features = nil
	if len(o.Features) == 0 {
		for j := 0; j < n; j++ {
			if j != info.Label {
				info.Features = append(info.Features, j)
			}
		}
	}
	for _, name := range o.Features {
		j, err := index("feature", name)
		if err != nil {
			return err
		}
		if j == info.Label || slices.Contains(info.Features, j) {
			return fmt.Errorf("column %q is used twice (as the label or as a feature)", name)
		}
		info.Features = append(info.Features, j)
	}
	info.slot = make(map[int]int, len(info.Features))
	for k, j := range info.Features {
		info.slot[j] = k
	}
	info.used = slices.Clone(info.Features)
	if info.Label >= 0 {
		info.used = append(info.used, info.Label)
	}
	slices.Sort(info.used)
	return nil
}

// Names returns the header's names of the feature columns, in the order
// of X's columns, and of the label column ("" with NoLabel): what a model
// fitted on the data stores to find its columns again. Both are empty
// without a header, and also when two of the columns read have the same
// name, since such names cannot tell them apart.
func (info *CSVInfo) Names() (features []string, target string) {
	if info.Header == nil {
		return nil, ""
	}
	names := make([]string, 0, len(info.used))
	for _, j := range info.used {
		if slices.Contains(names, info.Header[j]) {
			return nil, ""
		}
		names = append(names, info.Header[j])
	}
	if len(info.Features) > 0 {
		features = make([]string, len(info.Features))
		for k, j := range info.Features {
			features[k] = info.Header[j]
		}
	}
	if info.Label >= 0 {
		target = info.Header[info.Label]
	}
	return features, target
}

// fieldName names field j (0-based) for a message: `field 16 ("wd")` with
// a header, `field 16` without.
func (info *CSVInfo) fieldName(j int) string {
	if info.Header != nil && j < len(info.Header) {
		return fmt.Sprintf("field %d (%s)", j+1, quote(info.Header[j]))
	}
	return fmt.Sprintf("field %d", j+1)
}

// anyNumber reports whether a field of rec is a number (finite or not).
func anyNumber(rec []string) bool {
	for _, f := range rec {
		if isDecimal(f) {
			return true
		}
	}
	return false
}

// isMissing reports whether a field stands for a missing value: empty or
// blank, or NA, N/A, #N/A (spreadsheets), NaN, null, None (Python) or ? in
// any case.
func isMissing(f string) bool {
	f = strings.TrimSpace(f)
	if f == "" || f == "?" {
		return true
	}
	for _, m := range []string{"NA", "N/A", "#N/A", "NaN", "null", "None"} {
		if strings.EqualFold(f, m) {
			return true
		}
	}
	return false
}

// csvError converts an error from csv.Reader.Read into a *ParseError, given
// the number of fields in the record read and the number expected. Errors
// that are not csv.ParseErrors come from the underlying reader and are
// returned unchanged.
func csvError(err error, got, want int) error {
	var pe *csv.ParseError
	if !errors.As(err, &pe) {
		return err
	}
	if errors.Is(pe.Err, csv.ErrFieldCount) {
		return &ParseError{Line: pe.StartLine, Msg: fmt.Sprintf("%d fields, want %d as in the first record", got, want)}
	}
	if errors.Is(pe.Err, csv.ErrQuote) && pe.StartLine < pe.Line {
		// A quote left open reads on to the end of the input: the line
		// to fix is where the quoted field opened.
		return &ParseError{Line: pe.StartLine, Msg: fmt.Sprintf(`a quoted field opens on this line and is never closed (extraneous or missing " at line %d, byte %d)`, pe.Line, pe.Column)}
	}
	return &ParseError{Line: pe.Line, Msg: fmt.Sprintf("%v (byte %d)", pe.Err, pe.Column)}
}

// NotPositional says why a CSV file without a header cannot be read as
// the file of info was, or "" when it can (a nil info too). A file without a header is
// read by position: every column a feature, in order, the label last.
// That is the training file's reading when it had no header either (or
// was LIBSVM: info nil), or when its header's columns were exactly the
// features, in order, then the label; not when -target named another
// column than the last, nor when -features read a subset or another
// order: the headerless file would then be read with its features
// shifted: rkhs and rkhs-beam refuse it, naming this header to give it.
func (info *CSVInfo) NotPositional() string {
	if info == nil || info.Header == nil {
		return ""
	}
	n := len(info.Header)
	switch {
	case info.Label >= 0 && info.Label != n-1:
		return fmt.Sprintf("its label %s is column %d of %d, not the last", info.Header[info.Label], info.Label+1, n)
	case info.Label >= 0 && len(info.Features) != n-1, info.Label < 0 && len(info.Features) != n:
		return fmt.Sprintf("its features are %d of its %d columns", len(info.Features), n)
	}
	for k, j := range info.Features {
		if j != k {
			return "its features were read in another order than its columns'"
		}
	}
	return ""
}
