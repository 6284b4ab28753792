package dataset

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"rkhs/linalg"
)

// Limits that keep a malformed or hostile LIBSVM file from exhausting
// memory. They are far above the sizes of real data sets meant to be held
// as a dense matrix.
const (
	// maxLineBytes is the longest line ReadLIBSVM accepts.
	maxLineBytes = 64 << 20
	// maxInferredFeatures caps the feature count inferred from the largest
	// index when ReadLIBSVM is called with features = 0, so that a line
	// like "1 999999999999:1" is an error rather than a huge allocation.
	maxInferredFeatures = 1 << 24
	// maxElements caps n·d, the size of the dense matrix: 2³⁰ float64
	// (8 GiB) on 64-bit platforms, 2²⁶ (512 MiB) on 32-bit ones.
	maxElements = min(1<<30, math.MaxInt>>5)
)

// limits holds the caps above; the fuzz test lowers them so that it can
// explore large indices without allocating gigabytes.
type limits struct {
	lineBytes, features, elements int
}

var defaultLimits = limits{maxLineBytes, maxInferredFeatures, maxElements}

// ReadLIBSVM reads a data set in LIBSVM sparse format (see the package
// documentation) from r, reading r to its end.
//
// If features is 0 the feature count d is the largest index in the file
// (0 if no line has any index), which must not exceed 2²⁴. If features is
// positive then d = features and a larger index is an error. Absent
// indices, and explicit zeros including -0, are stored in X as +0; labels
// are stored exactly as parsed. ReadLIBSVM panics if features is negative.
//
// It returns a *ParseError (wrapping ErrFormat), and no Data, if a line is
// malformed: a label or value that is not a finite decimal number, a feature
// without ':', an index that is not a positive integer, indices that are not
// strictly ascending (a duplicate or a descent; the message says which), an
// index above the feature count, a line longer than 64 MiB, or a dense
// n×d matrix of more than 2³⁰ elements (2²⁶ on 32-bit platforms). An input
// with no examples is a *ParseError with Line 0. An error from r is
// returned unchanged.
//
// Time is linear in the input size; memory is the dense n×d matrix plus 16
// bytes for each nonzero entry while reading.
func ReadLIBSVM(r io.Reader, features int) (*Data, error) {
	if features < 0 {
		panic(fmt.Sprintf("dataset: ReadLIBSVM: negative feature count %d", features))
	}
	return readLIBSVM(r, features, defaultLimits)
}

// readLIBSVM is ReadLIBSVM with the given limits.
func readLIBSVM(r io.Reader, features int, lim limits) (*Data, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, min(64<<10, lim.lineBytes)), lim.lineBytes)

	// The examples are kept sparse until the feature count is known: the
	// entries of example i are idx[end[i-1]:end[i]] (0-based columns) and
	// val[end[i-1]:end[i]], nonzero values only.
	var (
		y    []float64
		end  []int
		idx  []int
		val  []float64
		d    = features // feature count so far
		line = 0        // 1-based number of the line last read
	)
	for sc.Scan() {
		line++
		s := sc.Text() // the Scanner has removed "\n" and a "\r" before it
		label, ok, err := libsvmLine(s, line, features, lim.features, func(j int, v float64) error {
			if v != 0 {
				idx = append(idx, j-1)
				val = append(val, v)
			}
			d = max(d, j)
			return nil
		})
		if err != nil {
			return nil, err
		}
		if !ok {
			continue // a blank line
		}
		y = append(y, label)
		end = append(end, len(idx))
		if n := len(y); d > 0 && n > lim.elements/d {
			return nil, &ParseError{Line: line, Msg: fmt.Sprintf(
				"%d examples × %d features exceed the limit of %d matrix elements", n, d, lim.elements)}
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &ParseError{Line: line + 1, Msg: fmt.Sprintf("line is longer than %d bytes", lim.lineBytes)}
		}
		return nil, err
	}
	if len(y) == 0 {
		return nil, &ParseError{Line: 0, Msg: "no examples in LIBSVM input"}
	}

	x := linalg.NewDense(len(y), d, nil)
	start := 0
	for i, e := range end {
		row := x.Data[i*d : i*d+d]
		for k := start; k < e; k++ {
			row[idx[k]] = val[k]
		}
		start = e
	}
	return &Data{X: *x, Y: y}, nil
}

// libsvmLine parses one line of LIBSVM text (without its newline): it
// returns the label and ok = true, calling set(j, v) for each feature
// j:v in order (j 1-based), or ok = false for a blank line. An error from
// set stops the line and is returned. line is the
// line number of a *ParseError; features and maxInferred are those of
// parseIndex. The one parser of ReadLIBSVM and ParseLIBSVMLine.
func libsvmLine(s string, line, features, maxInferred int, set func(j int, v float64) error) (label float64, ok bool, err error) {
	tok, rest := nextField(s)
	if tok == "" {
		return 0, false, nil
	}
	label, problem := parseFinite(tok)
	if problem != "" && strings.Contains(tok, ":") {
		return 0, false, &ParseError{Line: line, Msg: "no label: a LIBSVM line starts with its label, then index:value pairs, and " + quote(tok) + " is a pair"}
	}
	if problem != "" {
		return 0, false, &ParseError{Line: line, Msg: "label " + quote(tok) + " " + problem}
	}
	prev := 0 // the previous index on this line; indices must exceed it
	for {
		tok, rest = nextField(rest)
		if tok == "" {
			return label, true, nil
		}
		is, vs, found := strings.Cut(tok, ":")
		if !found {
			return 0, false, &ParseError{Line: line, Msg: "feature " + quote(tok) + " has no ':'"}
		}
		j, msg := parseIndex(is, prev, features, maxInferred)
		if msg != "" {
			return 0, false, &ParseError{Line: line, Msg: msg}
		}
		v, problem := parseFinite(vs)
		if problem != "" {
			return 0, false, &ParseError{Line: line, Msg: fmt.Sprintf("value %s of index %d %s", quote(vs), j, problem)}
		}
		if err := set(j, v); err != nil {
			return 0, false, err
		}
		prev = j
	}
}

// parseIndex parses the index s of a feature that follows index prev on its
// line (prev = 0 for the first). features is the requested feature count (0
// to infer) and maxInferred the cap on an inferred one. It returns the index,
// or a message saying why s is not acceptable.
func parseIndex(s string, prev, features, maxInferred int) (int, string) {
	if !isInteger(s) {
		return 0, "index " + quote(s) + " is not an integer"
	}
	if s[0] == '-' || strings.TrimLeft(s, "0") == "" {
		return 0, "index " + s + " is not positive"
	}
	// s is a positive decimal; compare it as int64 so that the bounds below
	// hold on 32-bit platforms too. A value beyond int64 is clamped.
	j64, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		j64 = math.MaxInt64
	}
	switch {
	case features > 0 && j64 > int64(features):
		return 0, fmt.Sprintf("index %s exceeds the %d features requested", s, features)
	case features == 0 && j64 > int64(maxInferred):
		return 0, fmt.Sprintf("index %s exceeds the limit of %d features", s, maxInferred)
	}
	j := int(j64)
	switch {
	case j == prev:
		return 0, fmt.Sprintf("duplicate index %d (indices must be strictly ascending)", j)
	case j < prev:
		return 0, fmt.Sprintf("index %d after index %d is descending (indices must be strictly ascending)", j, prev)
	}
	return j, ""
}

// nextField returns the first field of s, a maximal run of bytes other than
// space and tab, and the rest of s after it. The field is "" when s holds
// only spaces and tabs.
func nextField(s string) (field, rest string) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	j := i
	for j < len(s) && s[j] != ' ' && s[j] != '\t' {
		j++
	}
	return s[i:j], s[j:]
}

// WriteLIBSVM writes d to w in LIBSVM sparse format: one line per row,
// "label idx:val ..." with 1-based indices in ascending order, zero values
// (of either sign) omitted, fields separated by single spaces, no trailing
// space, and every line ending in "\n". Numbers are the shortest decimals
// that read back as the same float64 (strconv.FormatFloat(v, 'g', -1, 64)).
// A Data with no rows writes nothing.
//
// It returns a *DataError (wrapping ErrInvalidData), having written
// nothing, if d is nil, X is not a valid view, len(d.Y) != d.X.Rows, or a
// label or feature is NaN or ±Inf (then also wrapping linalg.ErrNotFinite).
// An error from w is returned unchanged. d is not modified.
func WriteLIBSVM(w io.Writer, d *Data) error {
	if err := d.check(); err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var buf []byte
	for i, label := range d.Y {
		buf = strconv.AppendFloat(buf[:0], label, 'g', -1, 64)
		for j, v := range d.row(i) {
			if v == 0 {
				continue
			}
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(j)+1, 10)
			buf = append(buf, ':')
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}
