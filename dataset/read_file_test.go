package dataset

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestFormatOf: the format by the name, in any case, under .gz and .bz2.
func TestFormatOf(t *testing.T) {
	for name, want := range map[string]string{
		"a.csv": FormatCSV, "A.CSV.GZ": FormatCSV, "b.tsv.bz2": FormatTSV, "c.tab": FormatTSV,
		"housing_scale": FormatLIBSVM, "d.txt.gz": FormatLIBSVM, "dir.csv/e": FormatLIBSVM, "f.gz": FormatLIBSVM,
	} {
		if got := FormatOf(name); got != want {
			t.Errorf("FormatOf(%q) = %q, want %q", name, got, want)
		}
	}
}

// TestReadFile: one data set written as LIBSVM, CSV and gzip-compressed
// tab-separated values (under a name that does not say gzip) reads back
// the same from each, the format by the name or given; a missing file, an
// unknown format and a malformed file are errors of their kind.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("x\ty\tlabel\n1\t2\t0.5\n3\t4\t-1\n"))
	zw.Close()
	for _, c := range []struct {
		path, format string
		info         bool
	}{
		{write("a", []byte("0.5 1:1 2:2\n-1 1:3 2:4\n")), "", false},
		{write("a.csv", []byte("x,y,label\n1,2,0.5\n3,4,-1\n")), "", true},
		{write("a.tsv", gz.Bytes()), "", true},
		{write("a.data", gz.Bytes()), FormatTSV, true},
	} {
		d, info, err := ReadFile(c.path, c.format, CSVOptions{Header: true, LabelCol: -1})
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if (info != nil) != c.info || d.X.Rows != 2 || d.X.Cols != 2 || d.X.At(1, 0) != 3 || d.X.At(1, 1) != 4 || d.Y[0] != 0.5 || d.Y[1] != -1 {
			t.Errorf("%s: info %v, X %v, Y %v", c.path, info, d.X.Data, d.Y)
		}
	}
	var pe *ParseError
	if _, _, err := ReadFile(filepath.Join(dir, "none.csv"), "", CSVOptions{}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
	if _, _, err := ReadFile(filepath.Join(dir, "a"), "json", CSVOptions{}); !errors.As(err, &pe) {
		t.Errorf("format json: %v, want a *ParseError", err)
	}
	if _, _, err := ReadFile(filepath.Join(dir, "a.csv"), FormatLIBSVM, CSVOptions{}); !errors.As(err, &pe) || pe.Line != 1 {
		t.Errorf("CSV read as LIBSVM: %v, want a *ParseError on line 1", err)
	}
}
