package dataset

import (
	"encoding/csv"
	"fmt"
	"strings"
)

// Line parsers, for readers that see a file one line at a time (a
// distributed pipeline, a stream) and know the feature count beforehand.
// They accept exactly what ReadLIBSVM and ReadCSV accept on one line, with
// the same messages.

// ParseLIBSVMLine parses one line of LIBSVM text (without its newline) as
// an example of len(x) features: it writes the features into x (absent
// indices as 0) and returns the label and ok = true, or ok = false for a
// blank line, which readers skip (x is then unchanged). lineNo is the
// 1-based line number reported in a *ParseError (wrapping ErrFormat) for a
// malformed line, as ReadLIBSVM with features = len(x) reports it (an index
// above len(x) is one); x may then be partly written.
func ParseLIBSVMLine(s string, lineNo int, x []float64) (label float64, ok bool, err error) {
	s = strings.TrimSuffix(s, "\r")
	if tok, _ := nextField(s); tok == "" {
		return 0, false, nil // blank: x unchanged
	}
	if len(x) == 0 { // parseIndex reads features = 0 as "infer"
		return libsvmLine(s, lineNo, 1, 0, func(j int, _ float64) error {
			return &ParseError{Line: lineNo, Msg: fmt.Sprintf("index %d exceeds the 0 features requested", j)}
		})
	}
	clear(x)
	return libsvmLine(s, lineNo, len(x), 0, func(j int, v float64) error {
		x[j-1] = v + 0 // explicit zeros, -0 included, are stored as +0
		return nil
	})
}

// ParseCSVLine parses one CSV record on one line (without its newline) as
// an example of len(x) features laid out as opt.Comma and opt.LabelCol say
// (the other options, which name columns or drop rows, need a header or a
// whole file and are not used: the caller skips the header line and
// decides about bad lines): it writes the features into x
// and returns the label and ok = true, or ok = false for an empty line,
// which readers skip (x is then unchanged). lineNo is the 1-based line
// number reported in a *ParseError (wrapping ErrFormat) for a malformed
// line: a field that is not a finite decimal number, a CSV syntax error,
// or a number of fields other than len(x) + 1; x may then be partly
// written. It panics if opt.Comma is not a valid separator.
func ParseCSVLine(s string, lineNo int, opt CSVOptions, x []float64) (label float64, ok bool, err error) {
	comma := opt.comma("ParseCSVLine")
	s = strings.TrimSuffix(s, "\r")
	if s == "" {
		return 0, false, nil
	}
	rec, err := splitRecord(s, lineNo, comma)
	if err != nil {
		return 0, false, err
	}
	if len(rec) != len(x)+1 {
		return 0, false, &ParseError{Line: lineNo, Msg: fmt.Sprintf("%d fields, want %d (a label and %d features)", len(rec), len(x)+1, len(x))}
	}
	lab, _ := opt.labelIndex(len(rec))
	if lab < 0 || lab >= len(rec) {
		return 0, false, &ParseError{Line: lineNo, Msg: fmt.Sprintf("label column %d is out of range for %d fields", opt.LabelCol, len(rec))}
	}
	j := 0
	for f, field := range rec {
		v, problem, missing := parseField(field)
		if problem != "" {
			return 0, false, &ParseError{Line: lineNo, Msg: fmt.Sprintf("field %d: %s %s", f+1, quote(field), problem), Missing: missing}
		}
		if f == lab {
			label = v
		} else {
			x[j] = v
			j++
		}
	}
	return label, true, nil
}

// splitRecord splits a CSV record on one line (s, not empty, without its
// line end) into its fields: by encoding/csv when it holds a quote, else
// at every separator, which is what encoding/csv does with such a line.
// A CSV syntax error is a *ParseError on line lineNo.
func splitRecord(s string, lineNo int, comma rune) ([]string, error) {
	if !strings.ContainsRune(s, '"') {
		return strings.Split(s, string(comma)), nil
	}
	cr := csv.NewReader(strings.NewReader(s))
	cr.Comma = comma
	rec, err := cr.Read()
	if err != nil {
		if e := csvError(err, 0, 0); e != err {
			e.(*ParseError).Line = lineNo
			return nil, e
		}
		return nil, &ParseError{Line: lineNo, Msg: err.Error()}
	}
	return rec, nil
}
