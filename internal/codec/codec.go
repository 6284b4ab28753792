// Package codec is the one codec of rkhs's model files (packages regress
// and classify): the header every file starts with, the names of the
// data's columns, kernels, matrices and vectors of float64, and the
// validation of what is read back, written once. Files are read strictly
// (strict.go): a key in another case, a key given twice, an unknown key
// or a parameter of another kernel type is an error, where encoding/json
// alone would match keys in any case, keep the last duplicate and ignore
// the rest, so that a hand-edited file either means what it says or is
// refused.
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
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"rkhs/internal/check"
	"rkhs/kernels"
	"rkhs/linalg"
)

// Header is the start of every model file: its format (the Go type, as
// "rkhs.regress.Model") and the version of that format.
type Header struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
}

// FormatOf returns the "format" field of a model file, to choose the type
// to decode it into. Only the header is read: the rest of the file is
// checked by Decode.
func FormatOf(kind error, op string, b []byte) (string, error) {
	h, err := readHeader(kind, op, b)
	if err != nil {
		return "", err
	}
	if h.Format == "" {
		return "", check.Input(kind, op, "format", "missing: not a model file")
	}
	return h.Format, nil
}

// Decode checks that b is a model file of the given format, in one of the
// versions this build reads, and unmarshals it into v, a pointer to the
// struct that describes the file; it returns the version. The header is
// read first, so that a file of another kind is reported by its format,
// not by the first field it does not have. The file is then checked
// strictly against v's type (see strict): exact keys, each once, no
// others, values of the fields' types, and no null but at the paths listed
// in nullable, fields that older writers wrote as null when empty (an
// empty list of coefficients). encoding/json alone would match keys in any
// case, keep the last of duplicated keys, ignore unknown ones and leave a
// float64 unchanged for a null, so a corrupted number would load as 0.
func Decode(kind error, op, format string, versions []int, b []byte, v any, nullable ...string) (int, error) {
	h, err := readHeader(kind, op, b)
	if err != nil {
		return 0, err
	}
	if h.Format != format {
		return 0, check.Input(kind, op, "format", "%q, want %q", h.Format, format)
	}
	if !slices.Contains(versions, h.Version) {
		return 0, check.Input(kind, op, "version", "%s version %d, this build reads versions %v", h.Format, h.Version, versions)
	}
	if err := strict(kind, op, b, reflect.TypeOf(v).Elem(), nullable); err != nil {
		return 0, err
	}
	if err := json.Unmarshal(b, v); err != nil { // not expected once strict has passed
		return 0, check.Wrap(kind, op, "model file", err)
	}
	return h.Version, nil
}

// readHeader reads the "format" and "version" fields of a model file,
// skipping the others (Decode checks them).
func readHeader(kind error, op string, b []byte) (Header, error) {
	var h Header
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return h, syntaxError(kind, op, dec, err)
	}
	if tok != json.Delim('{') {
		return h, check.Input(kind, op, "model file", "not a model file: %s, want a JSON object {\"format\": …, \"version\": …, …}", describe(tok))
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return h, syntaxError(kind, op, dec, err)
		}
		switch key := tok.(string); key {
		case "format", "version":
			tok, err := dec.Token()
			if err != nil {
				return h, syntaxError(kind, op, dec, err)
			}
			if key == "format" {
				if err := scalar(kind, op, key, reflect.TypeFor[string](), tok); err != nil {
					return h, err
				}
				h.Format = tok.(string)
				continue
			}
			if err := scalar(kind, op, key, reflect.TypeFor[int](), tok); err != nil {
				return h, err
			}
			h.Version, _ = strconv.Atoi(string(tok.(json.Number)))
		default:
			if strings.EqualFold(key, "format") || strings.EqualFold(key, "version") {
				return h, check.Input(kind, op, key, "%s", unknownField(key, []string{"format", "version"}))
			}
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return h, syntaxError(kind, op, dec, err)
			}
		}
	}
	if _, err := dec.Token(); err != nil { // '}', or the file ends too soon
		return h, syntaxError(kind, op, dec, err)
	}
	return h, nil
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

// Kernel returns the kernel a model file's "kernel" field describes,
// validated. An invalid parameter is reported on the field of the file
// ("kernel.sigma: -1, must be positive and finite"): package kernels names
// the fields of kernels.Spec, whose JSON keys are their names in lower
// case. The error wraps that of package kernels (kernels.ErrParameter).
func Kernel(kind error, op string, s kernels.Spec) (kernels.Kernel, error) {
	k, err := s.Kernel()
	if err != nil {
		return nil, fileField(kind, op, "kernel", err)
	}
	return k, nil
}

// fileField reports err, an error of package kernels about a field of a
// value a model file holds at path (a kernel's Sigma), on the key of the
// file: the field's name in lower case, words joined by "_", as
// "kernel.sigma" or "standardization.training_scale[1]". The error wraps
// err.
func fileField(kind error, op, path string, err error) error {
	var ie *linalg.InputError
	if errors.As(err, &ie) && ie.Arg != "" {
		return &linalg.InputError{Op: op, Arg: path + "." + fileKey(ie.Arg), Reason: ie.Reason, Kind: kind, Err: err}
	}
	return check.Wrap(kind, op, path, err)
}

// fileKey is the key of a model file for the Go field name f (with any
// index after it): "TrainingScale[1]" is "training_scale[1]".
func fileKey(f string) string {
	var b strings.Builder
	for i, r := range f {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Nested reports the error of a model file held in the field of another
// (the regress.Model of a classify.RLSModel) on its path in the outer file
// ("model.kernel.sigma"), with the inner reason; the inner error stays
// reachable by errors.Is and errors.As.
func Nested(kind error, op, field string, err error) error {
	var ie *linalg.InputError
	if !errors.As(err, &ie) {
		return check.Wrap(kind, op, field, err)
	}
	arg := field
	if ie.Arg != "model file" {
		arg = join(field, ie.Arg)
	}
	return &linalg.InputError{Op: op, Arg: arg, Reason: ie.Reason, Kind: kind, Err: err}
}
