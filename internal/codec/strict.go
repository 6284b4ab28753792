package codec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"rkhs/internal/check"
	"rkhs/kernels"
)

// strict checks that the JSON text b is a value of type t, the struct that
// describes a model file, as a writer of that file writes it:
//
//   - an object for a struct, whose keys are the JSON names of its fields
//     (those of embedded structs included), exactly, in this case, each at
//     most once and no other; a kernel (kernels.Spec) has "type" and only
//     the parameters of that type (kernelParams);
//   - a list for a slice, a string for a string, true or false for a bool,
//     a number for a float64 (within its range) and a whole number for an
//     int (within its range);
//   - no null, but at the paths listed in nullable;
//   - json.RawMessage, a model inside the file, is decoded and checked by
//     its own decoder, and is skipped here;
//   - nothing after the value.
//
// A missing field is not an error here: the decoder of each format checks
// what it needs. The error is an InputError whose Arg is the path of the
// first offence, as "kernel.sigma" or "coef.data[3]" ("model file" for
// the whole file or its syntax). The cost is one pass over b.
func strict(kind error, op string, b []byte, t reflect.Type, nullable []string) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	w := walker{dec: dec, kind: kind, op: op, nullable: nullable}
	if _, err := w.value(t, ""); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return check.Input(kind, op, "model file", "more text after the model, at byte %d", dec.InputOffset())
	}
	return nil
}

// walker walks the tokens of a model file along the Go type it decodes
// into.
type walker struct {
	dec      *json.Decoder
	kind     error
	op       string
	nullable []string
}

var (
	rawType  = reflect.TypeFor[json.RawMessage]()
	specType = reflect.TypeFor[kernels.Spec]()
)

// kernelParams are the parameters of each type of kernels.Spec, by the
// JSON names of its fields: those kernels.SpecOf fills for a kernel of
// that type, and the only ones a file may give besides "type".
var kernelParams = map[string][]string{
	"linear":     nil,
	"polynomial": {"degree", "offset"},
	"gaussian":   {"sigma"},
	"laplacian":  {"sigma"},
}

// value checks the next value of the text against t, at path; it returns
// the value's first token.
func (w *walker) value(t reflect.Type, path string) (json.Token, error) {
	if t == rawType {
		var skip json.RawMessage
		if err := w.dec.Decode(&skip); err != nil {
			return nil, syntaxError(w.kind, w.op, w.dec, err)
		}
		return nil, nil
	}
	tok, err := w.dec.Token()
	if err != nil {
		return nil, syntaxError(w.kind, w.op, w.dec, err)
	}
	if tok == nil {
		if slices.Contains(w.nullable, path) {
			return nil, nil
		}
		return nil, check.Input(w.kind, w.op, where(path), "null: a model file has no null values (corrupted?)")
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		if tok != json.Delim('{') {
			return nil, check.Input(w.kind, w.op, where(path), "%s, want an object", describe(tok))
		}
		return tok, w.object(t, path)
	case reflect.Slice:
		if tok != json.Delim('[') {
			return nil, check.Input(w.kind, w.op, where(path), "%s, want a list", describe(tok))
		}
		for i := 0; w.dec.More(); i++ {
			if _, err := w.value(t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return nil, err
			}
		}
		_, err := w.dec.Token() // ']'
		return tok, err
	}
	return tok, scalar(w.kind, w.op, where(path), t, tok)
}

// object checks the members of an object, its '{' read, against the
// struct t.
func (w *walker) object(t reflect.Type, path string) error {
	fields := map[string]reflect.Type{}
	var names []string
	jsonFields(t, fields, &names)
	seen := map[string]bool{}
	kernelType := ""
	for w.dec.More() {
		tok, err := w.dec.Token()
		if err != nil {
			return syntaxError(w.kind, w.op, w.dec, err)
		}
		key := tok.(string) // a member starts with its key
		p := join(path, key)
		ft, ok := fields[key]
		if !ok {
			return check.Input(w.kind, w.op, p, "%s", unknownField(key, names))
		}
		if seen[key] {
			return check.Input(w.kind, w.op, p, "given twice")
		}
		seen[key] = true
		v, err := w.value(ft, p)
		if err != nil {
			return err
		}
		if t == specType && key == "type" {
			kernelType, _ = v.(string)
		}
	}
	if _, err := w.dec.Token(); err != nil { // '}'
		return syntaxError(w.kind, w.op, w.dec, err)
	}
	if params, ok := kernelParams[kernelType]; ok && t == specType {
		for _, key := range names { // in the order of the fields, for a stable message
			if seen[key] && key != "type" && !slices.Contains(params, key) {
				return check.Input(w.kind, w.op, join(path, key), "not a parameter of the %s kernel%s", kernelType, paramList(params))
			}
		}
	}
	return nil
}

// jsonFields adds the fields of struct t (those of its embedded structs
// included) to fields by their JSON names, and the names to names in the
// order of the struct.
func jsonFields(t reflect.Type, fields map[string]reflect.Type, names *[]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, ok := f.Tag.Lookup("json")
		name, _, _ := strings.Cut(tag, ",")
		switch {
		case f.Anonymous && !ok && f.Type.Kind() == reflect.Struct:
			jsonFields(f.Type, fields, names)
			continue
		case !f.IsExported() || name == "-":
			continue
		case name == "":
			name = f.Name
		}
		fields[name] = f.Type
		*names = append(*names, name)
	}
}

// scalar checks a string, bool or number token against the type t.
func scalar(kind error, op, path string, t reflect.Type, tok json.Token) error {
	var want string
	switch t.Kind() {
	case reflect.String:
		if _, ok := tok.(string); ok {
			return nil
		}
		want = "a string"
	case reflect.Bool:
		if _, ok := tok.(bool); ok {
			return nil
		}
		want = "true or false"
	case reflect.Float64:
		n, ok := tok.(json.Number)
		if !ok {
			want = "a number"
			break
		}
		if _, err := strconv.ParseFloat(string(n), 64); err != nil {
			return check.Input(kind, op, path, "%s is out of the range of a float64", n)
		}
		return nil
	case reflect.Int:
		n, ok := tok.(json.Number)
		if !ok {
			want = "a whole number"
			break
		}
		if _, err := strconv.ParseInt(string(n), 10, t.Bits()); err != nil {
			if errors.Is(err, strconv.ErrRange) {
				return check.Input(kind, op, path, "%s is out of range", n)
			}
			return check.Input(kind, op, path, "%s, want a whole number", n)
		}
		return nil
	default:
		panic(fmt.Sprintf("codec: a model file's struct has a field of type %v", t))
	}
	return check.Input(kind, op, path, "%s, want %s", describe(tok), want)
}

// describe names the JSON value a token starts, for a message.
func describe(tok json.Token) string {
	switch v := tok.(type) {
	case json.Delim:
		if v == '[' {
			return "a list"
		}
		return "an object"
	case string:
		return fmt.Sprintf("the string %q", v)
	case json.Number:
		return "the number " + string(v)
	case bool:
		return strconv.FormatBool(v)
	}
	return "null"
}

// unknownField explains a key that is not one of names.
func unknownField(key string, names []string) string {
	for _, n := range names {
		if strings.EqualFold(n, key) {
			return fmt.Sprintf("unknown field: keys are case-sensitive, did you mean %q?", n)
		}
	}
	return "unknown field (the fields here are " + strings.Join(names, ", ") + ")"
}

func paramList(params []string) string {
	if len(params) == 0 {
		return ", which has none"
	}
	return " (it has " + strings.Join(params, ", ") + ")"
}

// join returns the path of member key of the object at path.
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// where names a path for a message: the whole file when it is empty.
func where(path string) string {
	if path == "" {
		return "model file"
	}
	return path
}

// syntaxError reports text that is not JSON, or ends too soon.
func syntaxError(kind error, op string, dec *json.Decoder, err error) error {
	var se *json.SyntaxError
	// A Decoder of Go 1.26 ends a truncated text with io.ErrUnexpectedEOF;
	// that of Go 1.27 (encoding/json on the v2 engine) with a SyntaxError
	// saying so.
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.As(err, &se) && strings.Contains(se.Error(), "unexpected end of JSON input") {
		return check.Input(kind, op, "model file", "not valid JSON: the text ends at byte %d, in the middle of the model (truncated?)", dec.InputOffset())
	}
	if errors.As(err, &se) {
		return check.Input(kind, op, "model file", "not valid JSON at byte %d: %v", se.Offset, strings.TrimPrefix(err.Error(), "json: "))
	}
	return check.Wrap(kind, op, "model file", err)
}
