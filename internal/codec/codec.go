// Package codec is the one codec of rkhs's model files (packages regress
// and classify): the header every file starts with, matrices and vectors
// of float64, and the validation of what is read back, written once.
//
// Numbers are written as the shortest decimals that read back as the same
// float64 (encoding/json's rule), so a loaded model predicts
// bit-identically. Every error is a *linalg.InputError with the Kind the
// caller gives (regress.ErrInput, classify.ErrInput) and the field of the
// file as its Arg.
package codec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"rkhs/internal/check"
	"rkhs/linalg"
)

// Header is the start of every model file: its format (the Go type, as
// "rkhs.regress.Model") and the version of that format.
type Header struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
}

// FormatOf returns the "format" field of a model file, to choose the type
// to decode it into.
func FormatOf(kind error, op string, b []byte) (string, error) {
	var h Header
	if err := json.Unmarshal(b, &h); err != nil {
		return "", check.Wrap(kind, op, "model file", err)
	}
	if h.Format == "" {
		return "", check.Input(kind, op, "format", "missing: not a model file")
	}
	return h.Format, nil
}

// Decode checks that b is a model file of the given format, in one of the
// versions this build reads, and unmarshals it into v; it returns the
// version. The header is read first, so that a file of another kind is
// reported by its format, not by the first field of the wrong type.
// Malformed JSON (and numbers out of float64 range) is an error on the
// "model file", and a null anywhere in it an error naming where:
// encoding/json leaves a float64 unchanged for a null, so a corrupted
// number would otherwise load as 0. The exceptions are the paths listed in
// nullable, fields that older writers wrote as null when empty (an empty
// list of coefficients).
func Decode(kind error, op, format string, versions []int, b []byte, v any, nullable ...string) (int, error) {
	var h Header
	if err := json.Unmarshal(b, &h); err != nil {
		return 0, check.Wrap(kind, op, "model file", err)
	}
	if h.Format != format {
		return 0, check.Input(kind, op, "format", "%q, want %q", h.Format, format)
	}
	if !slices.Contains(versions, h.Version) {
		return 0, check.Input(kind, op, "version", "%s version %d, this build reads versions %v", h.Format, h.Version, versions)
	}
	if path := findNull(b, nullable); path != "" {
		return 0, check.Input(kind, op, path, "null: a model file has no null values (corrupted?)")
	}
	if err := json.Unmarshal(b, v); err != nil {
		return 0, check.Wrap(kind, op, "model file", err)
	}
	return h.Version, nil
}

// findNull returns the path of the first null in the JSON text b, as
// "coef.data[3]", other than the paths in allowed, or "" when there is
// none (or b is not valid JSON, which json.Unmarshal then reports).
func findNull(b []byte, allowed []string) string {
	if !bytes.Contains(b, []byte("null")) {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	type level struct {
		key   string // the current key of an object
		index int    // the next index of an array, -1 in an object
	}
	var stack []level
	path := func() string {
		var p strings.Builder
		for i, l := range stack {
			switch {
			case l.index >= 0:
				fmt.Fprintf(&p, "[%d]", l.index-1)
			case i > 0:
				p.WriteString("." + l.key)
			default:
				p.WriteString(l.key)
			}
		}
		return p.String()
	}
	expectKey := false // the next token of an object is a key
	for {
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.index < 0 && expectKey {
				if d, ok := tok.(json.Delim); ok && d == '}' {
					stack = stack[:len(stack)-1]
					expectKey = len(stack) > 0 && stack[len(stack)-1].index < 0
					continue
				}
				top.key, _ = tok.(string)
				expectKey = false
				continue
			}
			if d, ok := tok.(json.Delim); !ok || d != ']' {
				if top.index >= 0 {
					top.index++
				}
			}
		}
		switch t := tok.(type) {
		case nil:
			if p := path(); !slices.Contains(allowed, p) {
				return p
			}
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, level{index: -1})
				expectKey = true
				continue
			case '[':
				stack = append(stack, level{index: 0})
			case '}', ']':
				stack = stack[:len(stack)-1]
			}
		}
		expectKey = len(stack) > 0 && stack[len(stack)-1].index < 0
	}
}

// Matrix is a row-major matrix in a model file:
// {"rows": r, "cols": c, "data": [… r·c numbers …]}.
type Matrix struct {
	Rows int       `json:"rows"`
	Cols int       `json:"cols"`
	Data []float64 `json:"data"`
}

// EncodeMatrix copies m for saving, refusing a matrix that is nil,
// malformed or not finite (a model no fit produced); name is the field of
// the model.
func EncodeMatrix(kind error, op, name string, m *linalg.Dense) (Matrix, error) {
	if err := check.Data(kind, op, name, m, 0); err != nil {
		return Matrix{}, err
	}
	if m.IsEmpty() {
		return Matrix{Rows: m.Rows, Cols: m.Cols, Data: []float64{}}, nil
	}
	c := m.Clone()
	return Matrix{Rows: c.Rows, Cols: c.Cols, Data: c.Data}, nil
}

// Decode returns the matrix of a model file: at least minRows rows and one
// column, as many values as rows·cols (checked without overflow), all
// finite; name is the field of the file.
func (mj Matrix) Decode(kind error, op, name string, minRows int) (*linalg.Dense, error) {
	if mj.Rows < minRows || mj.Cols < 1 || len(mj.Data)%mj.Cols != 0 || len(mj.Data)/mj.Cols != mj.Rows {
		return nil, check.Input(kind, op, name, "%d×%d with %d values%s", mj.Rows, mj.Cols, len(mj.Data), rowsWanted(minRows))
	}
	if err := check.Vector(kind, op, name+".data", mj.Data); err != nil {
		return nil, err
	}
	return linalg.NewDense(mj.Rows, mj.Cols, mj.Data), nil
}

func rowsWanted(minRows int) string {
	if minRows > 0 {
		return fmt.Sprintf(" (at least %d rows and one column)", minRows)
	}
	return " (at least one column)"
}

// Vector checks a vector of a model file: length n (any length for n < 0),
// every value finite.
func Vector(kind error, op, name string, v []float64, n int) error {
	if n >= 0 && len(v) != n {
		return check.Input(kind, op, name, "%d values, want %d", len(v), n)
	}
	return check.Vector(kind, op, name, v)
}
