package dataset_test

import (
	"strings"
	"testing"

	"rkhs/dataset"
)

// TestNotPositional: a training file's reading is positional without a
// header, or with one whose columns are the features in order and the
// label last; not with the label elsewhere, a subset or another order.
func TestNotPositional(t *testing.T) {
	for _, c := range []struct {
		csv, target, features string
		want                  string
	}{
		{"1,2,3\n", "", "", ""},
		{"a,b,y\n1,2,3\n", "", "", ""},
		{"a,b,y\n1,2,3\n", "a", "", "its label a is column 1 of 3, not the last"},
		{"a,b,y\n1,2,3\n", "", "a", "its features are 1 of its 3 columns"},
		{"a,b,y\n1,2,3\n", "", "b,a", "its features were read in another order than its columns'"},
	} {
		opt := dataset.CSVOptions{DetectHeader: true, LabelCol: -1, Target: c.target}
		if c.features != "" {
			opt.Features = strings.Split(c.features, ",")
		}
		_, info, err := dataset.ReadCSVInfo(strings.NewReader(c.csv), opt)
		if err != nil {
			t.Fatalf("%q: %v", c.csv, err)
		}
		if got := info.NotPositional(); got != c.want {
			t.Errorf("%q -target %q -features %q: %q, want %q", c.csv, c.target, c.features, got, c.want)
		}
	}
	if got := (*dataset.CSVInfo)(nil).NotPositional(); got != "" {
		t.Errorf("LIBSVM: %q, want \"\"", got)
	}
}
