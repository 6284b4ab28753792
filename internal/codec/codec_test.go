package codec

import (
	"errors"
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

func FuzzFindNull(f *testing.F) {
	f.Add([]byte(`{"coef": {"rows": 2, "data": [0.5, null]}}`))
	f.Add([]byte(`[[null], {"a": [1, {"b": null}]}]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p := findNull(b, nil)
		if p != "" && !strings.Contains(string(b), "null") {
			t.Fatalf("findNull(%q) = %q without a null in the text", b, p)
		}
	})
}
