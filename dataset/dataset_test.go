package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"rkhs/linalg"
)

// mk builds a Data from rows of features (all of length d) and labels.
func mk(d int, rows [][]float64, y []float64) *Data {
	x := linalg.NewDense(len(rows), d, nil)
	for i, r := range rows {
		if len(r) != d {
			panic("mk: ragged rows")
		}
		copy(x.Data[i*d:], r)
	}
	return &Data{X: *x, Y: y}
}

// diffData returns "" if got and want have the same shape (Rows, Cols,
// Stride, len(Data), len(Y)) and bit-identical elements, and otherwise a
// description of the first difference.
func diffData(got, want *Data) string {
	switch {
	case got == nil || want == nil:
		if got != want {
			return fmt.Sprintf("got %v, want %v", got, want)
		}
		return ""
	case got.X.Rows != want.X.Rows || got.X.Cols != want.X.Cols || got.X.Stride != want.X.Stride:
		return fmt.Sprintf("X is %d×%d stride %d, want %d×%d stride %d",
			got.X.Rows, got.X.Cols, got.X.Stride, want.X.Rows, want.X.Cols, want.X.Stride)
	case len(got.X.Data) != len(want.X.Data):
		return fmt.Sprintf("len(X.Data) = %d, want %d", len(got.X.Data), len(want.X.Data))
	case len(got.Y) != len(want.Y):
		return fmt.Sprintf("len(Y) = %d, want %d", len(got.Y), len(want.Y))
	}
	for i := range got.Y {
		if math.Float64bits(got.Y[i]) != math.Float64bits(want.Y[i]) {
			return fmt.Sprintf("Y[%d] = %v, want %v", i, got.Y[i], want.Y[i])
		}
	}
	for k := range got.X.Data {
		if math.Float64bits(got.X.Data[k]) != math.Float64bits(want.X.Data[k]) {
			return fmt.Sprintf("X[%d,%d] = %v, want %v", k/max(got.X.Stride, 1), k%max(got.X.Stride, 1), got.X.Data[k], want.X.Data[k])
		}
	}
	return ""
}

// errText returns err.Error(), or "<nil>".
func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// checkParseError reports a test failure unless err is a *ParseError
// wrapping ErrFormat with the given line and exact message text.
func checkParseError(t *testing.T, err error, wantLine int, wantText string) {
	t.Helper()
	if err == nil {
		t.Fatalf("err = nil, want %q", wantText)
	}
	if !errors.Is(err, ErrFormat) {
		t.Errorf("errors.Is(%v, ErrFormat) = false, want true", err)
	}
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %T %v, want *ParseError", err, err)
	}
	if pe.Line != wantLine {
		t.Errorf("Line = %d, want %d (%v)", pe.Line, wantLine, err)
	}
	if got := err.Error(); got != wantText {
		t.Errorf("Error() = %q, want %q", got, wantText)
	}
}

func TestReadLIBSVM(t *testing.T) {
	negZero := math.Copysign(0, -1)
	tests := []struct {
		name     string
		in       string
		features int
		want     *Data
	}{
		{"one line", "1 1:0.5 2:-2\n", 0, mk(2, [][]float64{{0.5, -2}}, []float64{1})},
		{"trailing space", "1 1:0.5 2:-2 \n-1 2:3 \n", 0,
			mk(2, [][]float64{{0.5, -2}, {0, 3}}, []float64{1, -1})},
		{"no final newline", "1 1:0.5\n2 2:1", 0,
			mk(2, [][]float64{{0.5, 0}, {0, 1}}, []float64{1, 2})},
		{"no final newline after trailing space", "1 1:0.5 \n2 2:1 ", 0,
			mk(2, [][]float64{{0.5, 0}, {0, 1}}, []float64{1, 2})},
		{"plus sign on label", "+1 1:1\n-1 1:2\n1 1:3\n", 0,
			mk(1, [][]float64{{1}, {2}, {3}}, []float64{1, -1, 1})},
		{"exponent notation", "1e-05 1:1e-05 2:-2.5E+3 3:7e2\n", 0,
			mk(3, [][]float64{{1e-05, -2500, 700}}, []float64{1e-05})},
		{"explicit idx:0", "1 1:0 2:3 3:0\n", 0, mk(3, [][]float64{{0, 3, 0}}, []float64{1})},
		{"explicit -0 stored as +0", "1 1:-0 2:-0.0e5\n", 0, mk(2, [][]float64{{0, 0}}, []float64{1})},
		{"label -0 kept", "-0 1:1\n", 0, mk(1, [][]float64{{1}}, []float64{negZero})},
		{"CRLF", "1 1:0.5 \r\n-1 2:1\r\n", 0,
			mk(2, [][]float64{{0.5, 0}, {0, 1}}, []float64{1, -1})},
		{"CRLF without final newline", "1 1:0.5\r\n-1 2:1\r", 0,
			mk(2, [][]float64{{0.5, 0}, {0, 1}}, []float64{1, -1})},
		{"sparse rows", "3 2:1 5:2\n4 1:-1\n5 4:0.25\n", 0,
			mk(5, [][]float64{{0, 1, 0, 0, 2}, {-1, 0, 0, 0, 0}, {0, 0, 0, 0.25, 0}}, []float64{3, 4, 5})},
		{"label only", "7\n8 2:1\n", 0, mk(2, [][]float64{{0, 0}, {0, 1}}, []float64{7, 8})},
		{"no features at all", "7\n8\n", 0, mk(0, [][]float64{{}, {}}, []float64{7, 8})},
		{"blank lines skipped", "\n1 1:1\n\n \t \r\n2 1:2\n\n", 0,
			mk(1, [][]float64{{1}, {2}}, []float64{1, 2})},
		{"tabs and runs of spaces", "1\t1:1  2:2 \t3:3\n", 0, mk(3, [][]float64{{1, 2, 3}}, []float64{1})},
		{"leading space", "  1 1:1\n", 0, mk(1, [][]float64{{1}}, []float64{1})},
		{"features pads columns", "1 1:1\n2 2:2\n", 4,
			mk(4, [][]float64{{1, 0, 0, 0}, {0, 2, 0, 0}}, []float64{1, 2})},
		{"index equal to features", "1 3:1\n", 3, mk(3, [][]float64{{0, 0, 1}}, []float64{1})},
		{"point forms", "1. 1:.5 2:-.25 3:+2.\n", 0, mk(3, [][]float64{{0.5, -0.25, 2}}, []float64{1})},
		{"leading zeros", "01 001:007.50\n", 0, mk(1, [][]float64{{7.5}}, []float64{1})},
		{"subnormal", "1 1:4e-324\n", 0, mk(1, [][]float64{{5e-324}}, []float64{1})},
		{"underflow to zero", "1 1:1e-400\n", 0, mk(1, [][]float64{{0}}, []float64{1})},
		{"huge exponent on zero", "0e999999999999 1:1\n", 0, mk(1, [][]float64{{1}}, []float64{0})},
		{"largest float", "1 1:1.7976931348623157e308\n", 0,
			mk(1, [][]float64{{math.MaxFloat64}}, []float64{1})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadLIBSVM(strings.NewReader(tc.in), tc.features)
			if err != nil {
				t.Fatalf("ReadLIBSVM: %v", err)
			}
			if diff := diffData(got, tc.want); diff != "" {
				t.Error(diff)
			}
		})
	}
}

// libsvmErrorCase is a malformed LIBSVM input with the error it must give.
// The fuzz test uses the inputs as seeds.
type libsvmErrorCase struct {
	name     string
	in       string
	features int
	line     int
	text     string // the exact Error() text
}

var libsvmErrorCases = []libsvmErrorCase{
	{"non-numeric label", "abc 1:2\n", 0, 1, `dataset: line 1: label "abc" is not a decimal number`},
	{"non-numeric value", "1 1:2\n1 1:x2\n", 0, 2, `dataset: line 2: value "x2" of index 1 is not a decimal number`},
	{"empty value", "1 3:\n", 0, 1, `dataset: line 1: value "" of index 3 is not a decimal number`},
	{"missing colon", "1 1=2\n", 0, 1, `dataset: line 1: feature "1=2" has no ':'`},
	{"bare number as feature", "1 0.5\n", 0, 1, `dataset: line 1: feature "0.5" has no ':'`},
	{"comment", "1 1:2 # note\n", 0, 1, `dataset: line 1: feature "#" has no ':'`},
	{"index 0", "1 0:1\n", 0, 1, `dataset: line 1: index 0 is not positive`},
	{"index 00", "1 00:1\n", 0, 1, `dataset: line 1: index 00 is not positive`},
	{"negative index", "1 -3:1\n", 0, 1, `dataset: line 1: index -3 is not positive`},
	{"index -0", "1 -0:1\n", 0, 1, `dataset: line 1: index -0 is not positive`},
	{"empty index", "1 :1\n", 0, 1, `dataset: line 1: index "" is not an integer`},
	{"fractional index", "1 1.5:1\n", 0, 1, `dataset: line 1: index "1.5" is not an integer`},
	{"plus on index", "1 +3:1\n", 0, 1, `dataset: line 1: index "+3" is not an integer`},
	{"descending", "1 1:1\n1 3:1 2:1\n", 0, 2,
		`dataset: line 2: index 2 after index 3 is descending (indices must be strictly ascending)`},
	{"duplicate", "1 2:1 2:1\n", 0, 1,
		`dataset: line 1: duplicate index 2 (indices must be strictly ascending)`},
	{"NaN label", "NaN 1:1\n", 0, 1, `dataset: line 1: label "NaN" is not finite`},
	{"inf label", "-inf 1:1\n", 0, 1, `dataset: line 1: label "-inf" is not finite`},
	{"NaN value", "1 1:nan\n", 0, 1, `dataset: line 1: value "nan" of index 1 is not finite`},
	{"Inf value", "1 1:1 2:+Inf\n", 0, 1, `dataset: line 1: value "+Inf" of index 2 is not finite`},
	{"Infinity value", "1 1:Infinity\n", 0, 1, `dataset: line 1: value "Infinity" of index 1 is not finite`},
	{"overflowing value", "1 1:1e999\n", 0, 1,
		`dataset: line 1: value "1e999" of index 1 overflows float64 (values must be finite)`},
	{"overflowing label", "-1.8e308\n", 0, 1,
		`dataset: line 1: label "-1.8e308" overflows float64 (values must be finite)`},
	{"hex float", "1 1:0x1p3\n", 0, 1, `dataset: line 1: value "0x1p3" of index 1 is not a decimal number`},
	{"digit separator", "1_000 1:1\n", 0, 1, `dataset: line 1: label "1_000" is not a decimal number`},
	{"exponent without digits", "1 1:1e\n", 0, 1, `dataset: line 1: value "1e" of index 1 is not a decimal number`},
	{"lone point", "1 1:.\n", 0, 1, `dataset: line 1: value "." of index 1 is not a decimal number`},
	{"comma decimal", "1 1:0,5\n", 0, 1, `dataset: line 1: value "0,5" of index 1 is not a decimal number`},
	{"stray CR inside line", "1 1:1\r 2:2\n", 0, 1, `dataset: line 1: value "1\r" of index 1 is not a decimal number`},
	{"long token is cut", "1 1:" + strings.Repeat("9", 50) + "x\n", 0, 1,
		`dataset: line 1: value "` + strings.Repeat("9", 40) + `"... of index 1 is not a decimal number`},
	{"empty input", "", 0, 0, `dataset: no examples in LIBSVM input`},
	{"blank lines only", "\n \t\n\r\n", 0, 0, `dataset: no examples in LIBSVM input`},
	{"index above features", "1 1:1 14:1\n", 13, 1, `dataset: line 1: index 14 exceeds the 13 features requested`},
	{"absurd index", "1 999999999999:1\n", 0, 1, `dataset: line 1: index 999999999999 exceeds the limit of 16777216 features`},
	{"index beyond int64", "1 99999999999999999999999:1\n", 0, 1,
		`dataset: line 1: index 99999999999999999999999 exceeds the limit of 16777216 features`},
	{"line counting with blank and CRLF lines", "1 1:1\r\n\r\n \r\n2 2:x\r\n", 0, 4,
		`dataset: line 4: value "x" of index 2 is not a decimal number`},
	{"no label", "1:2 3:4\n", 0, 1,
		`dataset: line 1: no label: a LIBSVM line starts with its label, then index:value pairs, and "1:2" is a pair`},
	{"error on last line without newline", "1 1:1\n2 1:1 1:2", 0, 2,
		`dataset: line 2: duplicate index 1 (indices must be strictly ascending)`},
}

func TestReadLIBSVMErrors(t *testing.T) {
	for _, tc := range libsvmErrorCases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ReadLIBSVM(strings.NewReader(tc.in), tc.features)
			if d != nil {
				t.Errorf("Data = %v, want nil with an error", d)
			}
			checkParseError(t, err, tc.line, tc.text)
		})
	}
}

// TestReadLIBSVMLimits checks that sizes too large to hold as a dense matrix
// are refused before anything that large is allocated.
func TestReadLIBSVMLimits(t *testing.T) {
	t.Run("inferred matrix too large", func(t *testing.T) {
		// Each line is 14 bytes but makes the matrix maxInferredFeatures wide.
		line := "1 " + strconv.Itoa(maxInferredFeatures) + ":1\n"
		n := maxElements/maxInferredFeatures + 1 // the first row count over the limit
		_, err := ReadLIBSVM(strings.NewReader(strings.Repeat(line, n+5)), 0)
		checkParseError(t, err, n, fmt.Sprintf("dataset: line %d: %d examples × %d features exceed the limit of %d matrix elements",
			n, n, maxInferredFeatures, maxElements))
	})
	t.Run("requested features too many", func(t *testing.T) {
		_, err := ReadLIBSVM(strings.NewReader("1 1:1\n"), math.MaxInt)
		checkParseError(t, err, 1, fmt.Sprintf("dataset: line 1: 1 examples × %d features exceed the limit of %d matrix elements",
			math.MaxInt, maxElements))
	})
	t.Run("line too long", func(t *testing.T) {
		lim := defaultLimits
		lim.lineBytes = 16
		_, err := readLIBSVM(strings.NewReader("1 1:1\n\n1 1:1 2:2 3:3 4:4 5:5\n"), 0, lim)
		checkParseError(t, err, 3, "dataset: line 3: line is longer than 16 bytes")
	})
	t.Run("long line within limit", func(t *testing.T) {
		// About 1.3 MB on one line: far beyond bufio.Scanner's default 64 KiB.
		const d = 100000
		var b strings.Builder
		b.WriteString("-1")
		for j := 1; j <= d; j++ {
			fmt.Fprintf(&b, " %d:%d", j, j%7)
		}
		got, err := ReadLIBSVM(strings.NewReader(b.String()), 0)
		if err != nil {
			t.Fatalf("ReadLIBSVM: %v", err)
		}
		if got.X.Rows != 1 || got.X.Cols != d {
			t.Fatalf("X is %d×%d, want 1×%d", got.X.Rows, got.X.Cols, d)
		}
		for j, v := range got.X.Data {
			if want := float64((j + 1) % 7); v != want {
				t.Fatalf("X[0,%d] = %v, want %v", j, v, want)
			}
		}
	})
}

func TestReadLIBSVMNegativeFeaturesPanics(t *testing.T) {
	defer func() {
		r := recover()
		if msg, _ := r.(string); !strings.HasPrefix(msg, "dataset: ") {
			t.Errorf("recovered %v, want a panic message starting with %q", r, "dataset: ")
		}
	}()
	ReadLIBSVM(strings.NewReader("1 1:1\n"), -1)
}

var errBoom = errors.New("boom")

// failingReader returns its data and then errBoom instead of io.EOF.
type failingReader struct{ r io.Reader }

func (f *failingReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		err = errBoom
	}
	return n, err
}

// failingWriter accepts n bytes and then fails with errBoom.
type failingWriter struct{ n int }

func (f *failingWriter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		k := f.n
		f.n = 0
		return k, errBoom
	}
	f.n -= len(p)
	return len(p), nil
}

func TestIOErrorsPassThrough(t *testing.T) {
	if _, err := ReadLIBSVM(&failingReader{strings.NewReader("1 1:1\n")}, 0); err != errBoom {
		t.Errorf("ReadLIBSVM error = %v, want %v", err, errBoom)
	}
	if _, err := ReadCSV(&failingReader{strings.NewReader("1,1\n")}, CSVOptions{}); err != errBoom {
		t.Errorf("ReadCSV error = %v, want %v", err, errBoom)
	}
	d := mk(1, [][]float64{{1}, {2}}, []float64{3, 4})
	if err := WriteLIBSVM(&failingWriter{3}, d); err != errBoom {
		t.Errorf("WriteLIBSVM error = %v, want %v", err, errBoom)
	}
	if err := WriteCSV(&failingWriter{3}, d, CSVOptions{}); err != errBoom {
		t.Errorf("WriteCSV error = %v, want %v", err, errBoom)
	}
}

func TestWriteLIBSVM(t *testing.T) {
	negZero := math.Copysign(0, -1)
	// A 2×3 view with stride 4 into a wider matrix: the padding column
	// (holding NaN) must be neither written nor checked.
	view := &Data{
		X: linalg.Dense{Rows: 2, Cols: 3, Stride: 4, Data: []float64{
			1, 0, -2.5, math.NaN(),
			0, 0, 1e-05, math.NaN(),
		}},
		Y: []float64{1, -1},
	}
	tests := []struct {
		name string
		d    *Data
		want string
	}{
		{"sparse", mk(3, [][]float64{{0.5, 0, -2}, {0, 0, 0}, {0, 1e21, 0}}, []float64{1, -1, 24.5}),
			"1 1:0.5 3:-2\n-1\n24.5 2:1e+21\n"},
		{"negative zeros", mk(2, [][]float64{{negZero, 1}}, []float64{negZero}), "-0 2:1\n"},
		{"shortest round-trip digits", mk(2, [][]float64{{0.1, 1.0 / 3}}, []float64{5e-324}),
			"5e-324 1:0.1 2:0.3333333333333333\n"},
		{"strided view", view, "1 1:1 3:-2.5\n-1 3:1e-05\n"},
		{"no features", mk(0, [][]float64{{}, {}}, []float64{2, 3}), "2\n3\n"},
		{"no rows", &Data{}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteLIBSVM(&b, tc.d); err != nil {
				t.Fatalf("WriteLIBSVM: %v", err)
			}
			if got := b.String(); got != tc.want {
				t.Errorf("wrote %q, want %q", got, tc.want)
			}
		})
	}
}

func TestWriteErrors(t *testing.T) {
	tests := []struct {
		name string
		d    *Data
		opt  CSVOptions
		row  int
		text string
	}{
		{"nil", nil, CSVOptions{}, -1, "dataset: nil Data"},
		{"too few labels", mk(1, [][]float64{{1}, {2}}, []float64{1}), CSVOptions{}, -1,
			"dataset: 1 labels for 2 rows of X"},
		{"too many labels", mk(1, [][]float64{{1}}, []float64{1, 2}), CSVOptions{}, -1,
			"dataset: 2 labels for 1 rows of X"},
		{"negative dimension", &Data{X: linalg.Dense{Rows: -1}}, CSVOptions{}, -1,
			"dataset: X has negative dimension -1×0"},
		{"stride too small", &Data{X: linalg.Dense{Rows: 2, Cols: 2, Stride: 1, Data: make([]float64, 4)}, Y: []float64{1, 2}},
			CSVOptions{}, -1, "dataset: X has stride 1 smaller than its 2 columns"},
		{"data too short", &Data{X: linalg.Dense{Rows: 2, Cols: 2, Stride: 3, Data: make([]float64, 4)}, Y: []float64{1, 2}},
			CSVOptions{}, -1, "dataset: X data of length 4 is too short for 2×2 with stride 3"},
		{"data size overflows", &Data{X: linalg.Dense{Rows: 3, Cols: 1, Stride: math.MaxInt, Data: make([]float64, 4)}, Y: []float64{1, 2, 3}},
			CSVOptions{}, -1, fmt.Sprintf("dataset: X data of length 4 is too short for 3×1 with stride %d", math.MaxInt)},
		{"NaN label", mk(1, [][]float64{{1}, {2}}, []float64{1, math.NaN()}), CSVOptions{}, 1,
			"dataset: row 1: label is NaN"},
		{"Inf feature", mk(3, [][]float64{{1, 2, 3}, {4, 5, math.Inf(-1)}}, []float64{1, 2}), CSVOptions{}, 1,
			"dataset: row 1: X column 2 is -Inf"},
		{"NaN feature on row 0", mk(2, [][]float64{{math.NaN(), 2}}, []float64{1}), CSVOptions{}, 0,
			"dataset: row 0: X column 0 is NaN"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, w := range []struct {
				name  string
				write func(io.Writer) error
			}{
				{"WriteLIBSVM", func(w io.Writer) error { return WriteLIBSVM(w, tc.d) }},
				{"WriteCSV", func(w io.Writer) error { return WriteCSV(w, tc.d, tc.opt) }},
			} {
				var b bytes.Buffer
				err := w.write(&b)
				checkDataError(t, w.name, err, tc.row, tc.text)
				if b.Len() != 0 {
					t.Errorf("%s wrote %q before failing, want nothing", w.name, b.String())
				}
			}
		})
	}
	t.Run("CSV label column out of range", func(t *testing.T) {
		d := mk(2, [][]float64{{1, 2}}, []float64{3})
		for _, col := range []int{3, 4, -4} {
			var b bytes.Buffer
			err := WriteCSV(&b, d, CSVOptions{LabelCol: col})
			checkDataError(t, "WriteCSV", err, -1, fmt.Sprintf("dataset: label column %d is out of range for 3 columns", col))
			if b.Len() != 0 {
				t.Errorf("WriteCSV wrote %q before failing, want nothing", b.String())
			}
		}
	})
}

// checkDataError requires a *DataError on row wantRow with the text
// wantText, wrapping ErrInvalidData, and — exactly when the text says a
// value is NaN or ±Inf — a *linalg.NotFiniteError on that row.
func checkDataError(t *testing.T, fn string, err error, wantRow int, wantText string) {
	t.Helper()
	if !errors.Is(err, ErrInvalidData) {
		t.Errorf("%s: errors.Is(%v, ErrInvalidData) = false, want true", fn, err)
	}
	var de *DataError
	if !errors.As(err, &de) {
		t.Fatalf("%s: err = %T %v, want *DataError", fn, err, err)
	}
	wantNF := strings.HasSuffix(wantText, "NaN") || strings.HasSuffix(wantText, "Inf")
	var nf *linalg.NotFiniteError
	if got := errors.As(err, &nf); got != wantNF || errors.Is(err, linalg.ErrNotFinite) != wantNF {
		t.Errorf("%s: %v: errors.As(err, *linalg.NotFiniteError) = %v, want %v", fn, err, got, wantNF)
	} else if wantNF && (nf.Row != wantRow || !math.IsNaN(nf.Value) && !math.IsInf(nf.Value, 0)) {
		t.Errorf("%s: %v: NotFiniteError %+v, want row %d", fn, err, *nf, wantRow)
	}
	if de.Row != wantRow {
		t.Errorf("%s: Row = %d, want %d", fn, de.Row, wantRow)
	}
	if got := err.Error(); got != wantText {
		t.Errorf("%s: Error() = %q, want %q", fn, got, wantText)
	}
}

// TestWritersDoNotModify checks that the writers leave their Data alone,
// padding included.
func TestWritersDoNotModify(t *testing.T) {
	orig := &Data{
		X: linalg.Dense{Rows: 2, Cols: 2, Stride: 3, Data: []float64{1, math.Copysign(0, -1), 7, 0.1, 2, math.NaN()}},
		Y: []float64{math.Copysign(0, -1), 3},
	}
	d := &Data{X: orig.X, Y: append([]float64(nil), orig.Y...)}
	d.X.Data = append([]float64(nil), orig.X.Data...)
	if err := WriteLIBSVM(io.Discard, d); err != nil {
		t.Fatal(err)
	}
	if err := WriteCSV(io.Discard, d, CSVOptions{Header: true, LabelCol: 1}); err != nil {
		t.Fatal(err)
	}
	if diff := diffData(d, orig); diff != "" {
		t.Errorf("after writing: %s", diff)
	}
}

// readRef is a naive reader of well-formed LIBSVM files with d features, the
// oracle for the real files: strings.Fields and strconv.ParseFloat, no
// checks.
func readRef(t *testing.T, text string, d int) *Data {
	t.Helper()
	var rows [][]float64
	var y []float64
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		f := strings.Fields(line)
		label, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			t.Fatal(err)
		}
		row := make([]float64, d)
		for _, kv := range f[1:] {
			k, v, _ := strings.Cut(kv, ":")
			j, err1 := strconv.Atoi(k)
			x, err2 := strconv.ParseFloat(v, 64)
			if err1 != nil || err2 != nil {
				t.Fatalf("readRef: %q", kv)
			}
			row[j-1] = x
		}
		rows = append(rows, row)
		y = append(y, label)
	}
	return mk(d, rows, y)
}

func TestRealFiles(t *testing.T) {
	tests := []struct {
		file         string
		rows, cols   int
		labels       map[float64]int // label counts; nil for a regression target
		ymin, ymax   float64
		finalNewline bool
	}{
		{"housing_scale", 506, 13, nil, 5, 50, true},
		{"sonar_scale", 208, 60, map[float64]int{1: 97, -1: 111}, -1, 1, false},
		{"heart_scale", 270, 13, map[float64]int{1: 120, -1: 150}, -1, 1, true},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if got := bytes.HasSuffix(raw, []byte("\n")); got != tc.finalNewline {
				t.Errorf("file ends in newline = %v, want %v", got, tc.finalNewline)
			}
			d, err := ReadLIBSVM(bytes.NewReader(raw), 0)
			if err != nil {
				t.Fatalf("ReadLIBSVM: %v", err)
			}
			if d.X.Rows != tc.rows || d.X.Cols != tc.cols || d.X.Stride != tc.cols || len(d.Y) != tc.rows {
				t.Fatalf("X is %d×%d stride %d with %d labels, want %d×%d stride %d with %d labels",
					d.X.Rows, d.X.Cols, d.X.Stride, len(d.Y), tc.rows, tc.cols, tc.cols, tc.rows)
			}
			if diff := diffData(d, readRef(t, string(raw), tc.cols)); diff != "" {
				t.Errorf("against the reference reader: %s", diff)
			}
			counts := map[float64]int{}
			for _, y := range d.Y {
				counts[y]++
			}
			if got, want := slicesMin(d.Y), tc.ymin; got != want {
				t.Errorf("min label = %v, want %v", got, want)
			}
			if got, want := slicesMax(d.Y), tc.ymax; got != want {
				t.Errorf("max label = %v, want %v", got, want)
			}
			if tc.labels != nil && fmt.Sprint(counts) != fmt.Sprint(tc.labels) {
				t.Errorf("label counts = %v, want %v", counts, tc.labels)
			}
			for k, v := range d.X.Data {
				if v < -1 || v > 1 {
					t.Fatalf("X[%d,%d] = %v, want it in [-1,1]", k/tc.cols, k%tc.cols, v)
				}
			}

			// Round trip through both writers, bit for bit.
			var b bytes.Buffer
			if err := WriteLIBSVM(&b, d); err != nil {
				t.Fatalf("WriteLIBSVM: %v", err)
			}
			back, err := ReadLIBSVM(bytes.NewReader(b.Bytes()), tc.cols)
			if err != nil {
				t.Fatalf("re-reading LIBSVM: %v", err)
			}
			if diff := diffData(back, d); diff != "" {
				t.Errorf("LIBSVM round trip: %s", diff)
			}
			if tc.file == "housing_scale" {
				// The original was written with %g and the shortest
				// round-trip form agrees with it on this file (note 2 of the
				// shared data README): only the trailing spaces differ.
				want := strings.ReplaceAll(string(raw), " \n", "\n")
				if got := b.String(); got != want {
					t.Errorf("rewritten housing_scale differs from the original without trailing spaces")
				}
			}
			b.Reset()
			opt := CSVOptions{Header: true, LabelCol: -1}
			if err := WriteCSV(&b, d, opt); err != nil {
				t.Fatalf("WriteCSV: %v", err)
			}
			back, err = ReadCSV(bytes.NewReader(b.Bytes()), opt)
			if err != nil {
				t.Fatalf("re-reading CSV: %v", err)
			}
			if diff := diffData(back, d); diff != "" {
				t.Errorf("CSV round trip: %s", diff)
			}
		})
	}
}

func slicesMin(s []float64) float64 {
	m := math.Inf(1)
	for _, v := range s {
		m = min(m, v)
	}
	return m
}

func slicesMax(s []float64) float64 {
	m := math.Inf(-1)
	for _, v := range s {
		m = max(m, v)
	}
	return m
}

func TestReadCSV(t *testing.T) {
	negZero := math.Copysign(0, -1)
	tests := []struct {
		name string
		in   string
		opt  CSVOptions
		want *Data
	}{
		{"label first, no header", "1,2,3\n4,5,6\n", CSVOptions{},
			mk(2, [][]float64{{2, 3}, {5, 6}}, []float64{1, 4})},
		{"label last", "1,2,3\n4,5,6\n", CSVOptions{LabelCol: -1},
			mk(2, [][]float64{{1, 2}, {4, 5}}, []float64{3, 6})},
		{"label last by index", "1,2,3\n4,5,6\n", CSVOptions{LabelCol: 2},
			mk(2, [][]float64{{1, 2}, {4, 5}}, []float64{3, 6})},
		{"label middle", "1,2,3\n4,5,6\n", CSVOptions{LabelCol: 1},
			mk(2, [][]float64{{1, 3}, {4, 6}}, []float64{2, 5})},
		{"label middle from end", "1,2,3\n4,5,6\n", CSVOptions{LabelCol: -2},
			mk(2, [][]float64{{1, 3}, {4, 6}}, []float64{2, 5})},
		{"header", "a,b,target\n1,2,3\n4,5,6\n", CSVOptions{Header: true, LabelCol: -1},
			mk(2, [][]float64{{1, 2}, {4, 5}}, []float64{3, 6})},
		{"header with odd names", `"x, 1",,"y ""q"""` + "\n1,2,3\n", CSVOptions{Header: true},
			mk(2, [][]float64{{2, 3}}, []float64{1})},
		{"cal_housing style", "longitude,latitude,median_house_value\n-122.230000,37.880000,452600.000000\n",
			CSVOptions{Header: true, LabelCol: -1}, mk(2, [][]float64{{-122.23, 37.88}}, []float64{452600})},
		{"semicolon", "1;2.5\n3;-4e-3\n", CSVOptions{Comma: ';'},
			mk(1, [][]float64{{2.5}, {-0.004}}, []float64{1, 3})},
		{"tab", "1\t2\n", CSVOptions{Comma: '\t', LabelCol: -1}, mk(1, [][]float64{{1}}, []float64{2})},
		{"CRLF, no final newline", "1,2\r\n3,4", CSVOptions{}, mk(1, [][]float64{{2}, {4}}, []float64{1, 3})},
		{"quoted numbers", `"1","2.5"` + "\n", CSVOptions{}, mk(1, [][]float64{{2.5}}, []float64{1})},
		{"empty lines skipped", "\n1,2\n\n\n3,4\n\n", CSVOptions{}, mk(1, [][]float64{{2}, {4}}, []float64{1, 3})},
		{"label only", "1\n2\n", CSVOptions{}, mk(0, [][]float64{{}, {}}, []float64{1, 2})},
		{"negative zero kept", "-0,-0\n", CSVOptions{}, mk(1, [][]float64{{negZero}}, []float64{negZero})},
		{"plus sign and point forms", "+1,.5,2.,1E2\n", CSVOptions{}, mk(3, [][]float64{{0.5, 2, 100}}, []float64{1})},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadCSV(strings.NewReader(tc.in), tc.opt)
			if err != nil {
				t.Fatalf("ReadCSV: %v", err)
			}
			if diff := diffData(got, tc.want); diff != "" {
				t.Error(diff)
			}
		})
	}
}

// csvErrorCase is a malformed CSV input with the error it must give. The
// fuzz test uses the inputs as seeds.
type csvErrorCase struct {
	name string
	in   string
	opt  CSVOptions
	line int
	text string
}

var csvErrorCases = []csvErrorCase{
	{"ragged row, short", "1,2,3\n4,5,6\n7,8\n", CSVOptions{}, 3, "dataset: line 3: 2 fields, want 3 as in the first record"},
	{"ragged row, long", "1,2\n3,4,5\n", CSVOptions{}, 2, "dataset: line 2: 3 fields, want 2 as in the first record"},
	{"ragged row after header", "a,b,c\n1,2,3\n4,5\n", CSVOptions{Header: true}, 3,
		"dataset: line 3: 2 fields, want 3 as in the first record"},
	{"header field count", "a,b\n1,2,3\n", CSVOptions{Header: true}, 2,
		"dataset: line 2: 3 fields, want 2 as in the first record"},
	{"non-numeric field", "1,2\n3,four\n", CSVOptions{}, 2, `dataset: line 2: field 2: "four" is not a decimal number`},
	{"non-numeric after header", "x,y\n1,2\n3,4\nfive,6\n", CSVOptions{Header: true, LabelCol: -1}, 4,
		`dataset: line 4: field 1 ("x"): "five" is not a decimal number`},
	{"header not skipped", "x,y\n1,2\n", CSVOptions{}, 1, `dataset: line 1: field 1: "x" is not a decimal number`},
	{"non-numeric label", "1,2,oops\n", CSVOptions{LabelCol: -1}, 1, `dataset: line 1: field 3: "oops" is not a decimal number`},
	{"empty field", "1,,3\n", CSVOptions{}, 1, `dataset: line 1: field 2: "" is a missing value`},
	{"space-padded field", "1, 2\n", CSVOptions{}, 1, `dataset: line 1: field 2: " 2" is not a decimal number`},
	{"NaN field", "1,NaN\n", CSVOptions{}, 1, `dataset: line 1: field 2: "NaN" is a missing value`},
	{"Inf label", "inf,2\n", CSVOptions{}, 1, `dataset: line 1: field 1: "inf" is not finite`},
	{"overflow", "1,2e400\n", CSVOptions{}, 1, `dataset: line 1: field 2: "2e400" overflows float64 (values must be finite)`},
	{"hex", "1,0x10\n", CSVOptions{}, 1, `dataset: line 1: field 2: "0x10" is not a decimal number`},
	{"line counting with empty lines", "1,2\n\n\n3,x\n", CSVOptions{}, 4, `dataset: line 4: field 2: "x" is not a decimal number`},
	{"error inside multi-line record", "1,2\n\"3\n\",x\n", CSVOptions{}, 2,
		`dataset: line 2: field 1: "3\n" is not a decimal number`},
	{"label column too large", "1,2\n", CSVOptions{LabelCol: 2}, 1, "dataset: line 1: label column 2 is out of range for 2 fields"},
	{"label column too negative", "\n1,2\n", CSVOptions{LabelCol: -3}, 2, "dataset: line 2: label column -3 is out of range for 2 fields"},
	{"bare quote", "1,2\n3,4\"\n", CSVOptions{}, 2, `dataset: line 2: bare " in non-quoted-field (byte 4)`},
	{"unterminated quote", "1,\"2\n", CSVOptions{}, 1, `dataset: line 1: extraneous or missing " in quoted-field (byte 6)`},
	// A quote left open swallows the lines after it: the error is at the
	// line where the quoted field opened, not where the input ended.
	{"quote opened lines before", "a,b,y\n1,2,3\n\"4,5,6\n7,8,9\n1,2,3\n", CSVOptions{Header: true}, 3,
		`dataset: line 3: a quoted field opens on this line and is never closed (extraneous or missing " at line 5, byte 7)`},
	// Diagnoses of a file written in another dialect.
	{"trailing separator, header", "a,b,y,\n1,2,3,\n4,5,6,\n", CSVOptions{Header: true, LabelCol: -1}, 2,
		`dataset: line 2: field 4 (""): empty, as is the last field of line 1: every line seems to end in a trailing ","`},
	{"trailing separator, header, dropping", "a,b,y,\n1,2,3,\n4,5,6,\n", CSVOptions{Header: true, LabelCol: -1, DropMissing: true}, 2,
		`dataset: line 2: field 4 (""): empty, as is the last field of line 1: every line seems to end in a trailing ","`},
	{"trailing separator, no header", "1,2,3,\n4,5,6,\n", CSVOptions{LabelCol: -1}, 1,
		`dataset: line 1: field 4: "" is a missing value (or the line ends in a trailing ",")`},
	{"trailing separator, no header, dropping", "1,2,3,\n4,5,6,\n", CSVOptions{LabelCol: -1, DropMissing: true}, 0,
		`dataset: no examples in CSV input: all 2 records have a missing value (the last field of line 1 is empty: do the lines end in a trailing ","?)`},
	{"semicolons", "a;b;y\n1;2;3\n", CSVOptions{DetectHeader: true, LabelCol: -1}, 2,
		`dataset: line 2: field 1 ("a;b;y"): "1;2;3" is not a decimal number; the line seems to be separated by ";", not ","`},
	{"tabs", "1\t2\t3\n", CSVOptions{LabelCol: -1}, 1,
		`dataset: line 1: field 1: "1\t2\t3" is not a decimal number; the line seems to be separated by "\t", not ","`},
	{"commas in a tab-separated file", "1,2,3\n", CSVOptions{Comma: '\t', LabelCol: -1}, 1,
		`dataset: line 1: field 1: "1,2,3" is not a decimal number; the line seems to be separated by ",", not "\t"`},
	{"CR line ends", "1,2,3\r4,5,6\r", CSVOptions{LabelCol: -1}, 1,
		`dataset: line 1: field 3: "3\r4" is not a decimal number; the line holds a carriage return: lines that end in "\r" alone (classic Mac OS) are read as one line`},
	{"None", "1,None\n", CSVOptions{}, 1, `dataset: line 1: field 2: "None" is a missing value`},
	{"#N/A", "1,#N/A\n", CSVOptions{}, 1, `dataset: line 1: field 2: "#N/A" is a missing value`},
	{"empty input", "", CSVOptions{}, 0, "dataset: no examples in CSV input"},
	{"header only", "a,b\n", CSVOptions{Header: true}, 0, "dataset: no examples in CSV input"},
	// The header is decided from the first record only: a first record
	// with a number in it is data, and its NA or empty cell is reported
	// where it is, never skipped as if it were a header.
	{"NA in the first record", "1,NA,3\n4,5,6\n7,8,9\n", CSVOptions{DetectHeader: true, LabelCol: -1}, 1,
		`dataset: line 1: field 2: "NA" is a missing value`},
	{"empty cell in the first record", "1,,3\n4,5,6\n", CSVOptions{DetectHeader: true, LabelCol: -1}, 1,
		`dataset: line 1: field 2: "" is a missing value`},
	{"bad cell below a detected header", "x1,x2,y\n1,2,3\n4,x,6\n", CSVOptions{DetectHeader: true, LabelCol: -1}, 3,
		`dataset: line 3: field 2 ("x2"): "x" is not a decimal number`},
	{"text column", "\"No\",\"PM2.5\",\"wd\"\r\n1,4,\"NNW\"\r\n", CSVOptions{DetectHeader: true, Target: "PM2.5"}, 2,
		`dataset: line 2: field 3 ("wd"): "NNW" is not a decimal number`},
	{"missing target", "a,b\n1,2\n", CSVOptions{Target: "c"}, 1, `dataset: line 1: target "c" is not a column of the header (a, b)`},
	{"missing feature", "a,b\n1,2\n", CSVOptions{Target: "a", Features: []string{"x"}}, 1,
		`dataset: line 1: feature "x" is not a column of the header (a, b)`},
	{"feature twice", "a,b,c\n1,2,3\n", CSVOptions{Target: "a", Features: []string{"b", "b"}}, 1,
		`dataset: line 1: column "b" is used twice (as the label or as a feature)`},
	{"target is a feature", "a,b\n1,2\n", CSVOptions{Target: "a", Features: []string{"a"}}, 1,
		`dataset: line 1: column "a" is used twice (as the label or as a feature)`},
	{"ambiguous feature", "a,a,c,y\n1,2,3,4\n", CSVOptions{Target: "y", Features: []string{"a"}}, 1,
		`dataset: line 1: feature "a" is ambiguous: fields 1 and 2 of the header have that name`},
	{"ambiguous target", "a,a,c,y\n1,2,3,4\n", CSVOptions{Target: "a"}, 1,
		`dataset: line 1: target "a" is ambiguous: fields 1 and 2 of the header have that name`},
	{"ambiguous header feature", "a,b,b\n1,2,3\n", CSVOptions{Header: true, HeaderFeatures: []string{"b", "a"}}, 1,
		`dataset: line 1: feature "b" is ambiguous: fields 2 and 3 of the header have that name`},
	{"header feature missing", "a,c\n1,2\n", CSVOptions{DetectHeader: true, HeaderFeatures: []string{"a", "b"}}, 1,
		`dataset: line 1: feature "b" is not a column of the header (a, c)`},
	{"header target missing", "a,b\n1,2\n", CSVOptions{DetectHeader: true, HeaderFeatures: []string{"a", "b"}, HeaderTarget: "y"}, 1,
		`dataset: line 1: target "y" is not a column of the header (a, b)`},
	// A first record of numbers is data: a name given for it finds no
	// header, instead of reading the data as one.
	{"target with no header detected", "1,2,3\n4,5,6\n", CSVOptions{DetectHeader: true, Target: "y"}, 1,
		`dataset: line 1: target "y" names a column, but the input has no header`},
	{"features with no header detected", "1,2,3\n4,5,6\n", CSVOptions{DetectHeader: true, Features: []string{"2"}}, 1,
		`dataset: line 1: feature "2" names a column, but the input has no header`},
	{"all rows missing", "a,b\n1,NA\n,3\n", CSVOptions{Header: true, DropMissing: true}, 0,
		"dataset: no examples in CSV input: all 2 records have a missing value"},
}

// TestReadCSVColumns: header detection, a byte-order mark, names for the
// target and the features (unread columns may hold text), missing values
// dropped and counted, tab-separated input, unlabelled input.
func TestReadCSVColumns(t *testing.T) {
	beijing := "\uFEFF\"No\",\"PM2.5\",\"TEMP\",\"wd\",\"PRES\"\r\n" +
		"1,4,-0.7,\"NNW\",1023\r\n" +
		"2,NA,-1.1,\"N\",1023.2\r\n" +
		"3,7,,\"NNW\",1023.5\r\n" +
		"4,6,-1.4,NA,1024.5\r\n"
	for _, c := range []struct {
		name    string
		in      string
		opt     CSVOptions
		x       [][]float64
		y       []float64
		dropped int
	}{
		{"detected header, BOM, names, dropped rows", beijing,
			CSVOptions{DetectHeader: true, Target: "PM2.5", Features: []string{"PRES", "TEMP"}, DropMissing: true},
			[][]float64{{1023, -0.7}, {1024.5, -1.4}}, []float64{4, 6}, 2},
		{"no header detected", "1,2,3\n4,5,6\n", CSVOptions{DetectHeader: true, LabelCol: -1},
			[][]float64{{1, 2}, {4, 5}}, []float64{3, 6}, 0},
		{"BOM before data", "\uFEFF1,2\n3,4\n", CSVOptions{LabelCol: -1}, [][]float64{{1}, {3}}, []float64{2, 4}, 0},
		{"tab-separated", "74\t85\t123\t1\r\n73\t84\t122\t2\r\n", CSVOptions{Comma: '\t', LabelCol: -1},
			[][]float64{{74, 85, 123}, {73, 84, 122}}, []float64{1, 2}, 0},
		{"unlabelled", "1,2\n3,4\n", CSVOptions{NoLabel: true}, [][]float64{{1, 2}, {3, 4}}, nil, 0},
		{"unlabelled, named features", "a,b,c\n1,x,3\n", CSVOptions{NoLabel: true, Features: []string{"c", "a"}},
			[][]float64{{3, 1}}, nil, 0},
		{"header features found by name, label not read", "y,c,a,b\nx,1,2,3\n", CSVOptions{DetectHeader: true, LabelCol: -1, HeaderFeatures: []string{"a", "b", "c"}},
			[][]float64{{2, 3, 1}}, nil, 0},
		{"header features without a header: by position", "1,2,3,4\n", CSVOptions{DetectHeader: true, LabelCol: -1, HeaderFeatures: []string{"a", "b", "c"}},
			[][]float64{{1, 2, 3}}, []float64{4}, 0},
		{"header features and target found by name", "b,note,y,a\n2,x,5,1\n", CSVOptions{DetectHeader: true, LabelCol: -1, HeaderFeatures: []string{"a", "b"}, HeaderTarget: "y"},
			[][]float64{{1, 2}}, []float64{5}, 0},
		{"header target without a header: by position", "1,2,3\n", CSVOptions{DetectHeader: true, LabelCol: -1, HeaderFeatures: []string{"a", "b"}, HeaderTarget: "y"},
			[][]float64{{1, 2}}, []float64{3}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			d, info, err := ReadCSVInfo(strings.NewReader(c.in), c.opt)
			if err != nil {
				t.Fatal(err)
			}
			if d.X.Rows != len(c.x) || !slices.Equal(d.Y, c.y) || info.Dropped != c.dropped {
				t.Fatalf("got %d rows, Y %v, dropped %d; want %d, %v, %d", d.X.Rows, d.Y, info.Dropped, len(c.x), c.y, c.dropped)
			}
			for i, row := range c.x {
				if got := d.X.Row(i); !slices.Equal(got, row) {
					t.Errorf("row %d = %v, want %v", i, got, row)
				}
			}
		})
	}
}

// TestCSVDroppedRecords: the records dropped for a missing value are
// named by their index among the records after the header, so that a
// caller can keep one output line per input record.
func TestCSVDroppedRecords(t *testing.T) {
	for _, c := range []struct {
		name, in string
		header   bool
		want     []int
	}{
		{"with a header", "a,y\n1,2\nNA,3\n4,5\n6,\n", true, []int{1, 3}},
		{"without a header", "NA,2\n1,2\n", false, []int{0}},
		{"none", "1,2\n3,4\n", false, nil},
	} {
		d, info, err := ReadCSVInfo(strings.NewReader(c.in), CSVOptions{Header: c.header, LabelCol: -1, DropMissing: true})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !slices.Equal(info.DroppedRecords, c.want) || info.Dropped != len(c.want) || d.X.Rows+len(c.want) != strings.Count(c.in, "\n")-map[bool]int{true: 1}[c.header] {
			t.Errorf("%s: dropped %v (%d), %d rows; want %v", c.name, info.DroppedRecords, info.Dropped, d.X.Rows, c.want)
		}
	}
}

func TestReadCSVErrors(t *testing.T) {
	for _, tc := range csvErrorCases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := ReadCSV(strings.NewReader(tc.in), tc.opt)
			if d != nil {
				t.Errorf("Data = %v, want nil with an error", d)
			}
			checkParseError(t, err, tc.line, tc.text)
		})
	}
}

// TestCSVSeparatorGuess: a field that holds another common separator
// says which in ParseError.Separator, so that a caller can suggest it.
func TestCSVSeparatorGuess(t *testing.T) {
	for _, c := range []struct {
		in    string
		comma rune
		want  rune
	}{
		{"a;b\n1;2\n", 0, ';'},
		{"1\t2\n3\t4\n", ',', '\t'},
		{"1|2\n3|4\n", ',', '|'},
		{"1,2\n3,4\n", '\t', ','},
		{"1,x\n", ',', 0},
		{"1,\n", ',', 0},
	} {
		_, err := ReadCSV(strings.NewReader(c.in), CSVOptions{Comma: c.comma, DetectHeader: true, LabelCol: -1})
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Separator != c.want {
			t.Errorf("%q: err = %v, want Separator %q", c.in, err, c.want)
		}
	}
}

func TestCSVInvalidCommaPanics(t *testing.T) {
	for _, c := range []rune{'"', '\n', '\r', 0xFFFD, -5, 0x110000} {
		for _, fn := range []struct {
			name string
			call func()
		}{
			{"ReadCSV", func() { ReadCSV(strings.NewReader("1,2\n"), CSVOptions{Comma: c}) }},
			{"WriteCSV", func() { WriteCSV(io.Discard, mk(1, [][]float64{{1}}, []float64{2}), CSVOptions{Comma: c}) }},
		} {
			func() {
				defer func() {
					r := recover()
					if msg, _ := r.(string); !strings.HasPrefix(msg, "dataset: "+fn.name) {
						t.Errorf("%s with Comma %q: recovered %v, want a panic message starting with %q", fn.name, c, r, "dataset: "+fn.name)
					}
				}()
				fn.call()
			}()
		}
	}
}

func TestWriteCSV(t *testing.T) {
	d := mk(2, [][]float64{{0.5, -2}, {0, 1e-05}}, []float64{1, math.Copysign(0, -1)})
	tests := []struct {
		name string
		opt  CSVOptions
		want string
	}{
		{"label first", CSVOptions{}, "1,0.5,-2\n-0,0,1e-05\n"},
		{"label last with header", CSVOptions{Header: true, LabelCol: -1}, "x1,x2,y\n0.5,-2,1\n0,1e-05,-0\n"},
		{"label middle with header", CSVOptions{Header: true, LabelCol: 1}, "x1,y,x2\n0.5,1,-2\n0,-0,1e-05\n"},
		{"label first with header, semicolon", CSVOptions{Header: true, Comma: ';'}, "y;x1;x2\n1;0.5;-2\n-0;0;1e-05\n"},
		{"separator inside numbers is quoted", CSVOptions{Comma: '.'}, "1.\"0.5\".-2\n-0.0.1e-05\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteCSV(&b, d, tc.opt); err != nil {
				t.Fatalf("WriteCSV: %v", err)
			}
			if got := b.String(); got != tc.want {
				t.Errorf("wrote %q, want %q", got, tc.want)
			}
			back, err := ReadCSV(&b, tc.opt)
			if err != nil {
				t.Fatalf("ReadCSV of what was written: %v", err)
			}
			if diff := diffData(back, d); diff != "" {
				t.Errorf("round trip: %s", diff)
			}
		})
	}
	t.Run("no rows", func(t *testing.T) {
		var b bytes.Buffer
		if err := WriteCSV(&b, &Data{X: linalg.Dense{Cols: 2}}, CSVOptions{Header: true}); err != nil {
			t.Fatal(err)
		}
		if got, want := b.String(), "y,x1,x2\n"; got != want {
			t.Errorf("wrote %q, want %q", got, want)
		}
	})
}

func TestIsDecimal(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"0", true}, {"-1", true}, {"+1", true}, {"1.5", true}, {".5", true}, {"5.", true},
		{"1e5", true}, {"1E-05", true}, {"-.5e+3", true}, {"007", true},
		{"", false}, {"+", false}, {"-", false}, {".", false}, {"-.", false}, {"e5", false}, {".e5", false},
		{"1e", false}, {"1e+", false}, {"1e5.5", false}, {"1.2.3", false}, {"1_0", false}, {"0x10", false},
		{"0x1p3", false}, {"inf", false}, {"NaN", false}, {" 1", false}, {"1 ", false}, {"1,5", false},
		{"++1", false}, {"1e--5", false}, {"１", false},
	}
	for _, tc := range tests {
		if got := isDecimal(tc.s); got != tc.want {
			t.Errorf("isDecimal(%q) = %v, want %v", tc.s, got, tc.want)
		}
	}
}

// TestCSVInfoNames: the names of the columns read, in the order of X's
// columns, and none when the data has no header or its names do not tell
// the columns read apart.
func TestCSVInfoNames(t *testing.T) {
	for _, c := range []struct {
		in       string
		opt      CSVOptions
		features []string
		target   string
	}{
		{"a,b,y\n1,2,3\n", CSVOptions{Header: true, LabelCol: -1}, []string{"a", "b"}, "y"},
		{"a,b,y\n1,2,3\n", CSVOptions{Target: "a", Features: []string{"y", "b"}}, []string{"y", "b"}, "a"},
		{"a,b,y\n1,2,3\n", CSVOptions{Header: true, NoLabel: true}, []string{"a", "b", "y"}, ""},
		{"a,a,y\n1,2,3\n", CSVOptions{Target: "y"}, nil, ""}, // every column: two named a
		{"a,a,b,y\nt,t,2,3\n", CSVOptions{Target: "y", Features: []string{"b"}}, []string{"b"}, "y"},
		{"1,2,3\n", CSVOptions{LabelCol: -1}, nil, ""},
	} {
		_, info, err := ReadCSVInfo(strings.NewReader(c.in), c.opt)
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		f, tg := info.Names()
		if !slices.Equal(f, c.features) || tg != c.target {
			t.Errorf("%q %+v: Names() = %q, %q; want %q, %q", c.in, c.opt, f, tg, c.features, c.target)
		}
	}
}
