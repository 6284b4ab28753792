package codec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
)

var errKind = errors.New("test: invalid input")

// file is a model file's struct with a field of every kind strict knows.
type file struct {
	Header
	Columns
	Kernel kernels.Spec    `json:"kernel"`
	Coef   Matrix          `json:"coef"`
	V      []float64       `json:"v"`
	N      int             `json:"n"`
	B      *float64        `json:"b,omitempty"`
	OK     bool            `json:"ok"`
	Inner  json.RawMessage `json:"inner"`
}

// TestStrict: what encoding/json takes and a model file must not have is
// refused, naming the path of the offence in the user's words; what a
// writer writes passes.
func TestStrict(t *testing.T) {
	for _, c := range []struct{ in, path, reason string }{
		{`{"format": "f", "version": 1, "kernel": {"type": "gaussian", "sigma": 1}, "v": [1, 2], "n": 3, "b": 0.5, "ok": true, "inner": {"Any": [null]}}`, "", ""},
		{`{"feature_names": ["a", "b"], "target_name": "y", "coef": {"rows": 1, "cols": 2, "data": [1, 2]}}`, "", ""},
		{`{"kernel": {"type": "polynomial", "degree": 2, "offset": 0}}`, "", ""},
		{`{"kernel": {"type": "nosuch", "sigma": 1}}`, "", ""}, // the kernel's decoder names the type
		{`{"v": null}`, "v", "null"},
		{`{"coef": {"rows": 2, "data": [0.5, null]}}`, "coef.data[1]", "null"},
		{`{"kernel": {"type": "gaussian", "sigma": 1, "Sigma": 7}}`, "kernel.Sigma", `case-sensitive, did you mean "sigma"`},
		{`{"kernel": {"type": "gaussian", "sigma": 1, "sigma": 7}}`, "kernel.sigma", "given twice"},
		{`{"n": 1, "n": 2}`, "n", "given twice"},
		{`{"kernel": {"type": "gaussian", "sigma": 1, "gamma": 3}}`, "kernel.gamma", "unknown field (the fields here are type, sigma, degree, offset)"},
		{`{"gamma": 3}`, "gamma", "unknown field"},
		{`{"kernel": {"sigma": 2, "type": "linear"}}`, "kernel.sigma", "not a parameter of the linear kernel, which has none"},
		{`{"kernel": {"type": "gaussian", "degree": 0}}`, "kernel.degree", "not a parameter of the gaussian kernel (it has sigma)"},
		{`{"kernel": {"type": "laplacian", "sigma": "1"}}`, "kernel.sigma", `the string "1", want a number`},
		{`{"n": 1.5}`, "n", "1.5, want a whole number"},
		{`{"n": 1e99}`, "n", "want a whole number"},
		{`{"n": 99999999999999999999}`, "n", "out of range"},
		{`{"v": [1e999]}`, "v[0]", "out of the range of a float64"},
		{`{"v": {"a": 1}}`, "v", "an object, want a list"},
		{`{"ok": 1}`, "ok", "the number 1, want true or false"},
		{`{"coef": [1]}`, "coef", "a list, want an object"},
		{`{"feature_names": ["a", 1]}`, "feature_names[1]", "want a string"},
		{`[1, 2]`, "model file", "a list, want an object"},
		{`{"n": 1} {}`, "model file", "more text after the model"},
		{`{"n": 1`, "model file", "truncated"},
		{`{"n": 1,, }`, "model file", "not valid JSON at byte"},
	} {
		err := strict(errKind, "Load", []byte(c.in), reflect.TypeFor[file](), nil)
		if c.path == "" {
			if err != nil {
				t.Errorf("strict(%s): %v, want nil", c.in, err)
			}
			continue
		}
		var ie *linalg.InputError
		if !errors.As(err, &ie) || !errors.Is(err, errKind) || ie.Arg != c.path || !strings.Contains(ie.Reason, c.reason) {
			t.Errorf("strict(%s): %v, want an InputError at %s saying %q", c.in, err, c.path, c.reason)
		}
		if err != nil && strings.Contains(err.Error(), "Go ") {
			t.Errorf("strict(%s): %v speaks of Go types", c.in, err)
		}
	}
}

// TestDecode: the header is read first, so that a file of another kind is
// named by its format, then the file is checked strictly and decoded.
func TestDecode(t *testing.T) {
	var v file
	ver, err := Decode(errKind, "Load", "f", []int{1, 2}, []byte(`{"format": "f", "version": 2, "n": 4}`), &v)
	if err != nil || ver != 2 || v.N != 4 {
		t.Errorf("Decode: version %d, n %d, %v; want 2, 4, nil", ver, v.N, err)
	}
	for _, c := range []struct{ in, want string }{
		{`{"format": "g", "version": 1, "gamma": 1}`, `format: "g", want "f"`},
		{`{"format": "f", "version": 3}`, "version: f version 3, this build reads versions [1 2]"},
		{`{"format": "f", "version": 1, "coef": {"rows": 1, "cols": 1, "data": [null]}}`, "coef.data[0]: null"},
		{`{"format": "f", "version": 1, "Format": "f"}`, `Format: unknown field: keys are case-sensitive, did you mean "format"?`},
	} {
		var v file
		if _, err := Decode(errKind, "Load", "f", []int{1, 2}, []byte(c.in), &v); !errors.Is(err, errKind) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Decode(%s): %v, want …%s…", c.in, err, c.want)
		}
	}
}

// TestStrictNullable: a null is allowed at the paths listed, and only there.
func TestStrictNullable(t *testing.T) {
	in := []byte(`{"v": null, "coef": {"data": [null]}}`)
	err := strict(errKind, "Load", in, reflect.TypeFor[file](), []string{"v"})
	if ie := (*linalg.InputError)(nil); !errors.As(err, &ie) || ie.Arg != "coef.data[0]" {
		t.Errorf("strict with v nullable: %v, want an error at coef.data[0]", err)
	}
}

// TestKernelParams: the parameters strict allows for each kernel type are
// the fields kernels.SpecOf fills for it.
func TestKernelParams(t *testing.T) {
	for _, k := range []kernels.Kernel{kernels.Linear{}, kernels.Polynomial{Degree: 3, Offset: 2}, kernels.Gaussian{Sigma: 1}, kernels.Laplacian{Sigma: 2}} {
		s, err := kernels.SpecOf(k)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(s)
		var m map[string]any
		json.Unmarshal(b, &m)
		var got []string
		for key := range m {
			if key != "type" {
				got = append(got, key)
			}
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(kernelParams[s.Type]))
		if !slices.Equal(got, want) {
			t.Errorf("%s: SpecOf writes %v, strict allows %v", s.Type, got, want)
		}
	}
}

// TestHeaderErrors: a file that is not a model file is told so in the
// user's words.
func TestHeaderErrors(t *testing.T) {
	for _, c := range []struct{ in, arg, reason string }{
		{`[1, 2]`, "model file", `a list, want a JSON object {"format": …`},
		{`"x"`, "model file", `the string "x", want a JSON object`},
		{`{"version": 1}`, "format", "missing: not a model file"},
		{`{"format": 1}`, "format", "the number 1, want a string"},
		{`{"format": "f", "version": "1"}`, "version", `the string "1", want a whole number`},
		{``, "model file", "not valid JSON"},
	} {
		_, err := FormatOf(errKind, "Load", []byte(c.in))
		var ie *linalg.InputError
		if !errors.As(err, &ie) || ie.Arg != c.arg || !strings.Contains(ie.Reason, c.reason) {
			t.Errorf("FormatOf(%s): %v, want %s: …%s…", c.in, err, c.arg, c.reason)
		}
	}
}

// TestColumns: names round trip, and names no header could give are
// refused on both sides.
func TestColumns(t *testing.T) {
	c, err := EncodeColumns(errKind, "Save", "Model", []string{"a", "b"}, "y", 2)
	if err != nil {
		t.Fatal(err)
	}
	if f, tg, err := c.Decode(errKind, "Load", 2); err != nil || !slices.Equal(f, []string{"a", "b"}) || tg != "y" {
		t.Errorf("Decode = %v, %q, %v", f, tg, err)
	}
	for _, c := range []struct {
		features []string
		target   string
		arg      string
	}{
		{[]string{"a"}, "", "feature_names"},
		{[]string{"a", "a"}, "", "feature_names"},
		{[]string{"a", "b"}, "b", "target_name"},
	} {
		_, err := EncodeColumns(errKind, "Save", "Model", c.features, c.target, 2)
		if !errors.Is(err, errKind) {
			t.Errorf("EncodeColumns(%q, %q): %v, want an error", c.features, c.target, err)
		}
		_, _, err = Columns{c.features, c.target}.Decode(errKind, "Load", 2)
		if ie := (*linalg.InputError)(nil); !errors.As(err, &ie) || ie.Arg != c.arg {
			t.Errorf("Decode(%q, %q): %v, want an error on %s", c.features, c.target, err, c.arg)
		}
	}
}

// FuzzStrict: strict does not panic on any input, and a text it passes
// decodes with encoding/json into the file's struct, has no key twice in
// any object, and has no null.
func FuzzStrict(f *testing.F) {
	f.Add([]byte(`{"format": "f", "version": 1, "kernel": {"type": "gaussian", "sigma": 1}, "v": [1, 2], "n": 3, "b": 0.5, "ok": true, "inner": {"Any": [null]}}`))
	f.Add([]byte(`{"coef": {"rows": 2, "data": [0.5, null]}}`))
	f.Add([]byte(`{"n": 1, "n": 1}`))
	f.Add([]byte(`{"kernel": {"type": "linear", "Sigma": 1}, "feature_names": ["a"]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if strict(errKind, "Load", b, reflect.TypeFor[file](), nil) != nil {
			return
		}
		var v file
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("strict passed %q, encoding/json: %v", b, err)
		}
		if hasDuplicateKey(b) {
			t.Fatalf("strict passed %q, which repeats a key", b)
		}
		var decoded any
		json.Unmarshal(b, &decoded)
		m := decoded.(map[string]any)
		delete(m, "inner")
		nulls := map[string]bool{}
		nullPaths(m, "", true, nulls)
		if len(nulls) > 0 {
			t.Fatalf("strict passed %q, which has nulls at %v", b, nulls)
		}
	})
}

// nullPaths adds the non-empty paths of the nulls in the decoded JSON value
// v, in the notation of strict's nullable paths, to out; top says v is the whole value.
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
