package cli

import (
	"errors"
	"strings"
	"testing"

	"rkhs/dataset"
)

// TestCSVHint: each dialect gets the flag that reads it, and a header
// read as one gets no -header hint.
func TestCSVHint(t *testing.T) {
	for _, c := range []struct {
		name, in  string
		detect    bool
		want, not string
	}{
		{"missing", "a,b\n1,NA\n", true, "-drop-missing", ""},
		{"semicolons", "1;2\n3;4\n", true, "-comma ';'", ""},
		{"tabs", "a,b\n1\t2,3\n", true, "-format tsv", ""},
		{"numbers in a header", "2020,x,y\n1,2,3\n", true, "-header yes", ""},
		{"numbers in a header, not detected", "2020,x,y\n1,2,3\n", false, "", "-header yes"},
		{"a name the header lacks", "a,b\n1,2\n", true, "", "-header yes"},
	} {
		opt := dataset.CSVOptions{DetectHeader: c.detect, LabelCol: -1}
		if c.name == "a name the header lacks" {
			opt.Target = "y"
		}
		_, err := dataset.ReadCSV(strings.NewReader(c.in), opt)
		if err == nil {
			t.Fatalf("%s: read without an error", c.name)
		}
		got := CSVHint(err, c.detect)
		if !errors.Is(got, dataset.ErrFormat) || !strings.Contains(got.Error(), c.want) || c.not != "" && strings.Contains(got.Error(), c.not) {
			t.Errorf("%s: %v; want %q, not %q", c.name, got, c.want, c.not)
		}
	}
}
