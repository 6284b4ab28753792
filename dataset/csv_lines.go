package dataset

import (
	"fmt"
	"strings"
)

// CSVLines reads a CSV input one line at a time by the rules ReadCSVInfo
// reads a whole input with, for a reader that cannot hold the input or
// sees it in parts (a file read by one worker of a pipeline among many):
// the first record decides, once, whether it is a header and which
// columns hold the label and the features (NewCSVLines), and Parse reads
// every other line by that layout. So a header is found, and columns are
// found by name (Target, Features, HeaderFeatures), exactly as ReadCSVInfo
// finds them. A record must lie on one line: a quoted field may not hold a
// line break.
//
// A CSVLines is not modified by Parse and is safe for concurrent use.
type CSVLines struct {
	opt    CSVOptions
	info   CSVInfo
	fields int
}

// NewCSVLines decides the layout of a CSV input from its first record, the
// line s (a UTF-8 byte-order mark before it and a carriage return after
// it are dropped; readers skip blank lines before it), numbered lineNo:
// the record is a header as ReadCSVInfo decides it (when opt.Header is
// set; with opt.DetectHeader, when none of its fields is a number;
// without it, when opt.Target or opt.Features name columns), and the
// columns read are those ReadCSVInfo reads (HeaderFeatures and
// HeaderTarget included, with a header). header reports whether s is the header, which the caller
// skips; otherwise s is the first example, for Parse.
//
// The errors are ReadCSVInfo's about a first record, each a *ParseError
// (wrapping ErrFormat) on line lineNo: a blank s, a CSV syntax error, a label column
// outside the record, a name that is not in the header, names two of its
// columns or is used twice. It panics if opt.Comma is not a valid
// separator.
func NewCSVLines(s string, lineNo int, opt CSVOptions) (c *CSVLines, header bool, err error) {
	comma := opt.comma("NewCSVLines")
	s = strings.TrimSuffix(strings.TrimPrefix(s, "\uFEFF"), "\r")
	if strings.TrimSpace(s) == "" {
		return nil, false, &ParseError{Line: lineNo, Msg: "a blank line is no first record"}
	}
	rec, err := splitRecord(s, lineNo, comma)
	if err != nil {
		return nil, false, err
	}
	c = &CSVLines{opt: opt, info: CSVInfo{Label: -1, lastEmpty: rec[len(rec)-1] == ""}, fields: len(rec)}
	header, cols := opt.layout(rec, &c.info)
	if err := cols.columns(&c.info, len(rec)); err != nil {
		return nil, false, &ParseError{Line: lineNo, Msg: err.Error()}
	}
	return c, header, nil
}

// Width returns the number of features of an example: the length of the x
// that Parse fills.
func (c *CSVLines) Width() int { return len(c.info.Features) }

// Info returns what the first record said: the header's names (nil
// without one), the label's column (-1 for none) and the features'
// columns, as ReadCSVInfo reports them; Info().Names() are the names a
// model fitted on the input stores. Dropped is not counted. The result
// must not be modified.
func (c *CSVLines) Info() *CSVInfo { return &c.info }

// Parse parses one line s (without its newline) by the layout of the first
// record: it writes the features into x, whose length must be Width (a
// *ParseError otherwise, and x is not written), and returns the label (0 without one) and ok = true,
// or ok = false for an empty line, which readers skip, or for a record
// with a missing value when the options drop such records (DropMissing).
// Its errors are those ReadCSVInfo reports for a record, a *ParseError on
// line lineNo: another number of fields than the first record's, a field
// that is read and is not a finite decimal number (or is missing), named
// by its column in the header if there is one, or a CSV syntax error; x
// may then be partly written.
func (c *CSVLines) Parse(s string, lineNo int, x []float64) (label float64, ok bool, err error) {
	if len(x) != len(c.info.Features) {
		return 0, false, &ParseError{Line: lineNo, Msg: fmt.Sprintf("x has %d elements for %d features (Width)", len(x), len(c.info.Features))}
	}
	s = strings.TrimSuffix(strings.TrimPrefix(s, "\uFEFF"), "\r")
	if s == "" {
		return 0, false, nil
	}
	rec, err := splitRecord(s, lineNo, c.opt.comma("CSVLines.Parse"))
	if err != nil {
		return 0, false, err
	}
	if len(rec) != c.fields {
		return 0, false, &ParseError{Line: lineNo, Msg: fmt.Sprintf("%d fields, want %d as in the first record", len(rec), c.fields)}
	}
	label, dropped, err := readRecord(func(int) int { return lineNo }, rec, &c.info, x, c.opt)
	if err != nil || dropped {
		return 0, false, err
	}
	return label, true, nil
}
