package dataset

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"rkhs/linalg"
)

// CSVOptions describes the layout of a CSV data set. The zero value means:
// no header, the label in the first column, fields separated by commas.
type CSVOptions struct {
	// Header: the first line is a header. ReadCSV skips it, but its number
	// of fields must still match the other records; WriteCSV writes
	// "x1,x2,...,xd" with "y" at the label's position.
	Header bool
	// LabelCol is the 0-based column holding the label; a negative value
	// counts from the end (-1 is the last column). The other columns are the
	// features, in order.
	LabelCol int
	// Comma is the field separator; 0 means ','. It must be a valid rune
	// other than '"', '\r', '\n' and utf8.RuneError.
	Comma rune
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

// ReadCSV reads a data set in CSV format from r, reading r to its end. Each
// record is one example: the field at opt.LabelCol is its label and the
// other fields, in order, its features, so d is the number of fields minus
// one. Every field, header excepted, must be a finite decimal number (see
// the package documentation); quoted fields are unquoted first. Numbers are
// stored exactly as parsed.
//
// It returns a *ParseError (wrapping ErrFormat), and no Data, for a field
// that is not a finite decimal number, a record whose number of fields
// differs from the first record's (header included), a label column outside
// the first record, or a CSV syntax error such as a stray quote. Line
// numbers count every physical line of the input, the header and empty lines
// included, and refer to the line holding the offending field. An input with
// no examples is a *ParseError with Line 0. An error from r is returned
// unchanged. ReadCSV panics if opt.Comma is not a valid separator.
//
// Time and memory are linear in the input size.
func ReadCSV(r io.Reader, opt CSVOptions) (*Data, error) {
	cr := csv.NewReader(r)
	cr.Comma = opt.comma("ReadCSV")
	cr.FieldsPerRecord = 0 // set by the first record; later ones must match
	cr.ReuseRecord = true

	var (
		x, y  []float64
		ncols int // fields per record
		lab   = -1
	)
	for first := true; ; first = false {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(err, len(rec), ncols)
		}
		if first {
			ncols = len(rec)
			var ok bool
			if lab, ok = opt.labelIndex(ncols); !ok {
				line, _ := cr.FieldPos(0)
				return nil, &ParseError{Line: line, Msg: fmt.Sprintf(
					"label column %d is out of range for %d fields", opt.LabelCol, ncols)}
			}
			if opt.Header {
				continue
			}
		}
		for j, f := range rec {
			v, problem := parseFinite(f)
			if problem != "" {
				line, _ := cr.FieldPos(j)
				return nil, &ParseError{Line: line, Msg: fmt.Sprintf("field %d: %s %s", j+1, quote(f), problem)}
			}
			if j == lab {
				y = append(y, v)
			} else {
				x = append(x, v)
			}
		}
	}
	if len(y) == 0 {
		return nil, &ParseError{Line: 0, Msg: "no examples in CSV input"}
	}
	if x == nil {
		x = []float64{} // a label-only file: n×0
	}
	return &Data{X: *linalg.NewDense(len(y), ncols-1, x), Y: y}, nil
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
	return &ParseError{Line: pe.Line, Msg: fmt.Sprintf("%v (byte %d)", pe.Err, pe.Column)}
}

// WriteCSV writes d to w in CSV format: one record per row, with the label
// at column opt.LabelCol of d.X.Cols+1 fields and the features in order
// around it, preceded when opt.Header is set by a header record naming the
// features "x1" to "xd" and the label "y". Numbers are the shortest decimals
// that read back as the same float64 (strconv.FormatFloat(v, 'g', -1, 64)),
// so ReadCSV with the same options returns d's values bit for bit. Lines end
// in "\n". A Data with no rows writes only the header, if any.
//
// It returns a *DataError (wrapping ErrInvalidData), having written
// nothing, if d is nil, X is not a valid view, len(d.Y) != d.X.Rows, a
// value is NaN or ±Inf, or opt.LabelCol is outside the d.X.Cols+1 columns.
// An error from w is returned unchanged. WriteCSV panics if opt.Comma is
// not a valid separator. d is not modified.
func WriteCSV(w io.Writer, d *Data, opt CSVOptions) error {
	comma := opt.comma("WriteCSV")
	if err := d.check(); err != nil {
		return err
	}
	ncols := d.X.Cols + 1
	lab, ok := opt.labelIndex(ncols)
	if !ok {
		return &DataError{Row: -1, Msg: fmt.Sprintf("label column %d is out of range for %d columns", opt.LabelCol, ncols)}
	}
	cw := csv.NewWriter(w)
	cw.Comma = comma
	rec := make([]string, ncols)
	if opt.Header {
		for j := range rec {
			switch {
			case j < lab:
				rec[j] = "x" + strconv.Itoa(j+1)
			case j == lab:
				rec[j] = "y"
			default:
				rec[j] = "x" + strconv.Itoa(j)
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	for i, label := range d.Y {
		row := d.row(i)
		for j := range rec {
			var v float64
			switch {
			case j < lab:
				v = row[j]
			case j == lab:
				v = label
			default:
				v = row[j-1]
			}
			rec[j] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
