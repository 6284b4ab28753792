package dataset

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestParseLines: each line parser agrees with its whole-file reader on
// one line — the same values, or the same error.
func TestParseLines(t *testing.T) {
	for _, s := range []string{
		"1 1:0.5 3:-2", "  -0.5\t2:1e-3  ", "", "   ", "1 3:1 2:1", "1 2:1 2:1", "x 1:1",
		"1 1:nan", "1 4:1", "1 0:1", "1 1", "1 1:1\r",
	} {
		want, werr := ReadLIBSVM(strings.NewReader(s), 3)
		x := make([]float64, 3)
		label, ok, err := ParseLIBSVMLine(s, 1, x)
		switch {
		case werr != nil && strings.Contains(werr.Error(), "no examples"):
			if ok || err != nil {
				t.Errorf("LIBSVM %q: got ok = %v, err %v, want a blank line", s, ok, err)
			}
		case werr != nil:
			if err == nil || err.Error() != werr.Error() || !errors.Is(err, ErrFormat) {
				t.Errorf("LIBSVM %q: got error %v, want %v", s, err, werr)
			}
		case err != nil || !ok || label != want.Y[0] || !slices.Equal(x, want.X.Row(0)):
			t.Errorf("LIBSVM %q: got %v %v %v, %v; want %v %v", s, label, x, ok, err, want.Y[0], want.X.Row(0))
		}
	}
	for _, s := range []string{"1,2,3", `"1",2,3`, "1,2", "1,2,3,4", "a,2,3", `1,"2,3`, "", "1,2,3\r", "1, 2,3", "1,NA,3", "1,,3"} {
		want, werr := ReadCSV(strings.NewReader(s), CSVOptions{LabelCol: -1})
		x := make([]float64, 2)
		label, ok, err := ParseCSVLine(s, 1, CSVOptions{LabelCol: -1}, x)
		switch {
		case werr != nil && strings.Contains(werr.Error(), "no examples"):
			if ok || err != nil {
				t.Errorf("CSV %q: got ok = %v, err %v, want an empty line", s, ok, err)
			}
		case werr != nil || want.X.Cols != 2:
			if err == nil || !errors.Is(err, ErrFormat) {
				t.Errorf("CSV %q: got %v, %v, want an error (ReadCSV: %v)", s, x, err, werr)
			}
			// A bad field is reported in the same words, as missing or not.
			var wpe, pe *ParseError
			if errors.As(werr, &wpe) && strings.Contains(wpe.Msg, "field ") &&
				(!errors.As(err, &pe) || pe.Msg != wpe.Msg || pe.Missing != wpe.Missing) {
				t.Errorf("CSV %q: got %#v, want %#v", s, pe, wpe)
			}
		case err != nil || !ok || label != want.Y[0] || !slices.Equal(x, want.X.Row(0)):
			t.Errorf("CSV %q: got %v %v %v, %v; want %v %v", s, label, x, ok, err, want.Y[0], want.X.Row(0))
		}
	}
}

// FuzzParseLIBSVMLine: on any one line the line parser and ReadLIBSVM
// agree.
func FuzzParseLIBSVMLine(f *testing.F) {
	f.Add("1 1:0.5 3:-2")
	f.Add("-1 2:1e400")
	f.Fuzz(func(t *testing.T, s string) {
		if strings.ContainsAny(s, "\n") {
			return
		}
		want, werr := ReadLIBSVM(strings.NewReader(s), 3)
		x := make([]float64, 3)
		label, ok, err := ParseLIBSVMLine(s, 1, x)
		if werr != nil {
			if !strings.Contains(werr.Error(), "no examples") && (err == nil || err.Error() != werr.Error()) {
				t.Fatalf("%q: got %v, want %v", s, err, werr)
			}
			return
		}
		if err != nil || !ok || label != want.Y[0] || !slices.Equal(x, want.X.Row(0)) {
			t.Fatalf("%q: got %v %v %v %v, want %v %v", s, label, x, ok, err, want.Y[0], want.X.Row(0))
		}
	})
}
