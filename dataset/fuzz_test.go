package dataset

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fuzzLimits are small caps for the fuzz tests, so that inputs with large
// indices exercise the limit checks without allocating a dense matrix of
// gigabytes on every run. Everything else is the code ReadLIBSVM runs.
var fuzzLimits = limits{lineBytes: 1 << 20, features: 1 << 10, elements: 1 << 16}

// fuzzSeeds returns pieces of the test data files: the first three lines and
// the last two (for sonar_scale, without the final newline). Whole files
// would make poor seeds: the fuzzer spends its time minimizing any large
// input that finds new coverage. TestRealFiles reads the whole files.
func fuzzSeeds(f *testing.F) [][]byte {
	var seeds [][]byte
	for _, name := range []string{"housing_scale", "sonar_scale", "heart_scale"} {
		raw, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		lines := bytes.SplitAfter(raw, []byte("\n"))
		if len(lines[len(lines)-1]) == 0 {
			lines = lines[:len(lines)-1]
		}
		seeds = append(seeds, bytes.Join(lines[:3], nil), bytes.Join(lines[len(lines)-2:], nil))
	}
	return seeds
}

// checkFuzzError fails unless err is a *ParseError wrapping ErrFormat whose
// line lies within the input.
func checkFuzzError(t *testing.T, err error, in []byte) {
	t.Helper()
	var pe *ParseError
	if !errors.Is(err, ErrFormat) || !errors.As(err, &pe) {
		t.Fatalf("error %T %q is not a *ParseError wrapping ErrFormat", err, err)
	}
	if lines := bytes.Count(in, []byte("\n")) + 1; pe.Line < 0 || pe.Line > lines {
		t.Fatalf("error %q names line %d of an input of %d lines", err, pe.Line, lines)
	}
	if strings.HasPrefix(err.Error(), "dataset: line 0") {
		t.Fatalf("error %q names line 0", err)
	}
}

// FuzzReadLIBSVM checks that ReadLIBSVM never panics, that it is
// deterministic, that its errors are ParseErrors within the input, and that
// what it reads is written and read back bit for bit, with the written form
// a fixed point.
func FuzzReadLIBSVM(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s, uint16(0))
	}
	f.Add([]byte("1 1:1 14:1\n"), uint16(13))
	f.Add([]byte("1 1:0 2:-0\r\n-0 5:0\n\n"), uint16(0))
	for _, tc := range libsvmErrorCases {
		f.Add([]byte(tc.in), uint16(tc.features))
	}
	f.Fuzz(func(t *testing.T, in []byte, features uint16) {
		d1, err1 := readLIBSVM(bytes.NewReader(in), int(features), fuzzLimits)
		d2, err2 := readLIBSVM(bytes.NewReader(in), int(features), fuzzLimits)
		if errText(err1) != errText(err2) {
			t.Fatalf("two reads gave errors %q and %q", errText(err1), errText(err2))
		}
		if err1 != nil {
			if d1 != nil {
				t.Fatalf("Data %v returned with error %v", d1, err1)
			}
			checkFuzzError(t, err1, in)
			return
		}
		if diff := diffData(d2, d1); diff != "" {
			t.Fatalf("two reads differ: %s", diff)
		}
		if features > 0 && d1.X.Cols != int(features) {
			t.Fatalf("X has %d columns, want the %d requested", d1.X.Cols, features)
		}
		// Within the small limits the public entry point must agree.
		d0, err := ReadLIBSVM(bytes.NewReader(in), int(features))
		if err != nil {
			t.Fatalf("ReadLIBSVM failed where readLIBSVM succeeded: %v", err)
		}
		if diff := diffData(d0, d1); diff != "" {
			t.Fatalf("ReadLIBSVM and readLIBSVM differ: %s", diff)
		}

		var w1 bytes.Buffer
		if err := WriteLIBSVM(&w1, d1); err != nil {
			t.Fatalf("WriteLIBSVM: %v", err)
		}
		back, err := readLIBSVM(bytes.NewReader(w1.Bytes()), d1.X.Cols, fuzzLimits)
		if err != nil {
			t.Fatalf("re-reading %q: %v", w1.Bytes(), err)
		}
		if diff := diffData(back, d1); diff != "" {
			t.Fatalf("round trip through %q: %s", w1.Bytes(), diff)
		}
		var w2 bytes.Buffer
		if err := WriteLIBSVM(&w2, back); err != nil {
			t.Fatalf("WriteLIBSVM of the re-read data: %v", err)
		}
		if !bytes.Equal(w1.Bytes(), w2.Bytes()) {
			t.Fatalf("writing twice gave %q then %q", w1.Bytes(), w2.Bytes())
		}
	})
}

// fuzzCommas are the separators FuzzReadCSV tries.
var fuzzCommas = []rune{',', ';', '\t', ' ', '|', '.'}

// FuzzReadCSV is FuzzReadLIBSVM for ReadCSV and WriteCSV, over a few
// option settings.
func FuzzReadCSV(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		// LIBSVM text read as space-separated CSV: ragged or non-numeric.
		f.Add(s, false, int8(0), uint8(3))
	}
	f.Add([]byte("a,b,target\n1,2,3\n4,5,6\n"), true, int8(-1), uint8(0))
	f.Add([]byte("1;2.5\r\n3;-4e-3"), false, int8(0), uint8(1))
	f.Add([]byte("\"1\",\"-0\"\n\n2,3\n"), false, int8(1), uint8(0))
	f.Add([]byte("1.\"0.5\".-2\n-0.0.1e-05\n"), false, int8(-2), uint8(5))
	for _, tc := range csvErrorCases {
		comma := uint8(0)
		for i, c := range fuzzCommas {
			if c == tc.opt.Comma {
				comma = uint8(i)
			}
		}
		f.Add([]byte(tc.in), tc.opt.Header, int8(tc.opt.LabelCol), comma)
	}
	f.Fuzz(func(t *testing.T, in []byte, header bool, labelCol int8, comma uint8) {
		opt := CSVOptions{Header: header, LabelCol: int(labelCol), Comma: fuzzCommas[int(comma)%len(fuzzCommas)]}
		d1, err1 := ReadCSV(bytes.NewReader(in), opt)
		d2, err2 := ReadCSV(bytes.NewReader(in), opt)
		if errText(err1) != errText(err2) {
			t.Fatalf("two reads gave errors %q and %q", errText(err1), errText(err2))
		}
		if err1 != nil {
			if d1 != nil {
				t.Fatalf("Data %v returned with error %v", d1, err1)
			}
			checkFuzzError(t, err1, in)
			return
		}
		if diff := diffData(d2, d1); diff != "" {
			t.Fatalf("two reads differ: %s", diff)
		}

		var w1 bytes.Buffer
		if err := WriteCSV(&w1, d1, opt); err != nil {
			t.Fatalf("WriteCSV: %v", err)
		}
		back, err := ReadCSV(bytes.NewReader(w1.Bytes()), opt)
		if err != nil {
			t.Fatalf("re-reading %q: %v", w1.Bytes(), err)
		}
		if diff := diffData(back, d1); diff != "" {
			t.Fatalf("round trip through %q: %s", w1.Bytes(), diff)
		}
		var w2 bytes.Buffer
		if err := WriteCSV(&w2, back, opt); err != nil {
			t.Fatalf("WriteCSV of the re-read data: %v", err)
		}
		if !bytes.Equal(w1.Bytes(), w2.Bytes()) {
			t.Fatalf("writing twice gave %q then %q", w1.Bytes(), w2.Bytes())
		}
	})
}

// FuzzReadCSVColumns exercises header detection, column names, missing
// values and unlabelled input: no panic, the same result twice, every
// error a *ParseError, the header's names of the columns read find them
// again (HeaderFeatures), and DropMissing changes nothing on input that
// reads without it.
func FuzzReadCSVColumns(f *testing.F) {
	f.Add([]byte("\uFEFF\"No\",\"PM2.5\",\"wd\"\r\n1,4,\"NNW\"\r\n2,NA,\"N\"\r\n"), true, false, "PM2.5", "No")
	f.Add([]byte("1,NA,3\n4,5,6\n"), true, false, "", "")
	f.Add([]byte("a,b\n1,\n2,3\n"), false, true, "", "a")
	f.Add([]byte("74\t85\t1\n"), true, true, "", "")
	f.Fuzz(func(t *testing.T, in []byte, detect, noLabel bool, target, feature string) {
		opt := CSVOptions{DetectHeader: detect, NoLabel: noLabel, Target: target, LabelCol: -1}
		if feature != "" {
			opt.Features = []string{feature}
		}
		d1, i1, err1 := ReadCSVInfo(bytes.NewReader(in), opt)
		d2, _, err2 := ReadCSVInfo(bytes.NewReader(in), opt)
		if errText(err1) != errText(err2) {
			t.Fatalf("two reads gave errors %q and %q", errText(err1), errText(err2))
		}
		if err1 != nil {
			if d1 != nil || i1 != nil {
				t.Fatalf("Data or info returned with error %v", err1)
			}
			checkFuzzError(t, err1, in)
			return
		}
		if diff := diffData(d2, d1); diff != "" {
			t.Fatalf("two reads differ: %s", diff)
		}
		if noLabel != (d1.Y == nil) || d1.X.Cols != len(i1.Features) || d1.X.Rows == 0 {
			t.Fatalf("shape %d×%d, Y %v, info %+v", d1.X.Rows, d1.X.Cols, d1.Y, *i1)
		}
		// The names a model would store find the same columns again.
		if names, _ := i1.Names(); names != nil {
			d4, _, err := ReadCSVInfo(bytes.NewReader(in), CSVOptions{Header: true, HeaderFeatures: names})
			if err != nil {
				t.Fatalf("reading by the names %q: %v", names, err)
			}
			if d4.Y != nil || d4.X.Cols != d1.X.Cols || !slices.Equal(d4.X.Data, d1.X.Data) {
				t.Fatalf("reading by the names %q: X %v, Y %v; want X %v and no label", names, d4.X.Data, d4.Y, d1.X.Data)
			}
		}
		opt.DropMissing = true
		d3, i3, err := ReadCSVInfo(bytes.NewReader(in), opt)
		if err != nil || i3.Dropped != 0 {
			t.Fatalf("with DropMissing: %v, dropped %v", err, i3)
		}
		if diff := diffData(d3, d1); diff != "" {
			t.Fatalf("DropMissing changed clean input: %s", diff)
		}
	})
}
