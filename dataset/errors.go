package dataset

import (
	"errors"
	"fmt"
	"strconv"
)

// Sentinel errors. The functions of this package return them wrapped in a
// struct that says where the problem is; test for them with [errors.Is].
var (
	// ErrFormat: the input is not a well-formed data set in the format read.
	ErrFormat = errors.New("dataset: malformed input")
	// ErrInvalidData: a Data given to a writer cannot be written.
	ErrInvalidData = errors.New("dataset: invalid data")
)

// ParseError reports malformed input: Line is the 1-based line number where
// the problem was found (in CSV input a header line counts as line 1), or 0
// when the problem is not on any one line, such as an input with no
// examples. Msg says what was wrong. Missing is set when the problem is a
// missing value (NA, an empty field, …) in CSV input, which
// CSVOptions.DropMissing would have dropped. Separator is set when the
// offending CSV field holds another common separator (',', ';', '\t' or
// '|') than the one read, so that the file was probably written with it:
// a caller may say how to read it that way. It wraps [ErrFormat].
type ParseError struct {
	Line      int
	Msg       string
	Missing   bool
	Separator rune
}

// Error returns the message, prefixed by the line number when Line > 0:
// "dataset: line 12: index 0 is not positive".
func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("dataset: line %d: %s", e.Line, e.Msg)
	}
	return "dataset: " + e.Msg
}

// Unwrap returns ErrFormat.
func (e *ParseError) Unwrap() error { return ErrFormat }

// DataError reports why a writer refused a Data. Row is the 0-based row of
// X (and index of Y) holding the bad value, or -1 when the problem is the
// shape of the Data rather than one row. It wraps [ErrInvalidData] and Err,
// the cause if any: for NaN or ±Inf a *linalg.NotFiniteError (the row and
// column of X, or the index of Y as row and column 0, as the other packages
// report a vector), so that errors.Is(err, linalg.ErrNotFinite) holds as it
// does for non-finite input to every package of the module.
type DataError struct {
	Row int
	Msg string
	Err error
}

// Error returns the message, prefixed by the row when Row ≥ 0:
// "dataset: row 3: X column 2 is NaN".
func (e *DataError) Error() string {
	if e.Row >= 0 {
		return fmt.Sprintf("dataset: row %d: %s", e.Row, e.Msg)
	}
	return "dataset: " + e.Msg
}

// Unwrap returns ErrInvalidData and Err, if not nil.
func (e *DataError) Unwrap() []error {
	if e.Err == nil {
		return []error{ErrInvalidData}
	}
	return []error{ErrInvalidData, e.Err}
}

// maxQuoted is the number of bytes of an offending token that error messages
// quote; longer tokens are cut and marked with "...".
const maxQuoted = 40

// quote returns s in Go quoted form for an error message, shortened to
// maxQuoted bytes so that a megabyte-long token cannot flood the message.
func quote(s string) string {
	if len(s) > maxQuoted {
		return strconv.Quote(s[:maxQuoted]) + "..."
	}
	return strconv.Quote(s)
}
