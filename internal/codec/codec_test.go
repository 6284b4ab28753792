package codec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

var errKind = errors.New("test: invalid input")

func TestFindNull(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a": 1, "b": [1, 2]}`, ""},
		{`{"a": null}`, "a"},
		{`{"coef": {"rows": 2, "data": [0.5, null]}}`, "coef.data[1]"},
		{`{"a": [[1], [2, null]]}`, "a[1][1]"},
		{`{"k": {"type": "gaussian", "sigma": null}, "x": 1}`, "k.sigma"},
		{`{"s": "null", "t": [{"u": 1}, {"v": null}]}`, "t[1].v"},
		{`[null]`, "[0]"},
		{`{"a": nul`, ""},
		{`{"coef": null, "b": 1}`, "coef"},
	} {
		if got := findNull([]byte(c.in), nil); got != c.want {
			t.Errorf("findNull(%s) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestDecodeRejectsNull(t *testing.T) {
	in := `{"format": "f", "version": 1, "coef": {"rows": 1, "cols": 1, "data": [null]}}`
	var v struct {
		Coef Matrix `json:"coef"`
	}
	_, err := Decode(errKind, "Load", "f", []int{1}, []byte(in), &v)
	if !errors.Is(err, errKind) || !strings.Contains(err.Error(), "coef.data[0]: null") {
		t.Errorf("Decode with a null number: %v, want an error naming coef.data[0]", err)
	}
}

func TestFindNullAllowed(t *testing.T) {
	if got := findNull([]byte(`{"coef": null, "x": [null]}`), []string{"coef"}); got != "x[0]" {
		t.Errorf("findNull with coef allowed = %q, want x[0]", got)
	}
}

// FuzzFindNull checks that findNull does not panic on any input and,
// against an independent decoding by encoding/json, that on valid JSON it
// misses no null with a non-empty path and that a path it returns names a
// null of the decoded value (skipped when an object repeats a key: the
// decoded map keeps only the last value). A null whose path is "" (a bare
// null, or the value of a top-level key "") is not reported by findNull.
func FuzzFindNull(f *testing.F) {
	f.Add([]byte(`{"coef": {"rows": 2, "data": [0.5, null]}}`))
	f.Add([]byte(`[[null], {"a": [1, {"b": null}]}]`))
	f.Add([]byte(`{"a": null, "a": 1}`))
	f.Add([]byte(`{"": {"x": [1, null]}, "y": {"": null}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p := findNull(b, nil)
		if p != "" && !strings.Contains(string(b), "null") {
			t.Fatalf("findNull(%q) = %q without a null in the text", b, p)
		}
		if !json.Valid(b) {
			return
		}
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			return
		}
		nulls := map[string]bool{}
		nullPaths(v, "", true, nulls)
		if p == "" && len(nulls) > 0 {
			t.Fatalf("findNull(%q) = \"\", but the decoded value has nulls %v", b, nulls)
		}
		if p != "" && !nulls[p] && !hasDuplicateKey(b) {
			t.Fatalf("findNull(%q) = %q, not a null of the decoded value (nulls %v)", b, p, nulls)
		}
	})
}

// nullPaths adds the non-empty paths of the nulls in the decoded JSON value
// v, in findNull's notation, to out; top says v is the whole value.
func nullPaths(v any, prefix string, top bool, out map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			p := k
			if !top {
				p = prefix + "." + k
			}
			if e == nil && p != "" {
				out[p] = true
			}
			nullPaths(e, p, false, out)
		}
	case []any:
		for i, e := range v {
			p := fmt.Sprintf("%s[%d]", prefix, i)
			if e == nil {
				out[p] = true
			}
			nullPaths(e, p, false, out)
		}
	}
}

// hasDuplicateKey reports whether some object of the valid JSON text b
// has a key twice.
func hasDuplicateKey(b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	type level struct {
		keys  map[string]bool // nil in an array
		isKey bool            // the next token of an object is a key
	}
	var stack []level
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if len(stack) > 0 {
			if top := &stack[len(stack)-1]; top.keys != nil && top.isKey {
				if k, ok := tok.(string); ok {
					if top.keys[k] {
						return true
					}
					top.keys[k] = true
					top.isKey = false
					continue
				}
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, level{keys: map[string]bool{}, isKey: true})
			continue
		case json.Delim('['):
			stack = append(stack, level{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 && stack[len(stack)-1].keys != nil {
			stack[len(stack)-1].isKey = true // a value ended
		}
	}
}
