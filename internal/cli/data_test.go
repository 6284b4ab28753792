package cli

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strings"
	"testing"

	"rkhs/dataset"
)

// TestDecompress: gzip is found by its first bytes and read; plain data
// passes as it is; another compression, and a damaged gzip file when
// read, are bad input naming the format.
func TestDecompress(t *testing.T) {
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte("1,2\n3,4\n"))
	w.Close()
	for _, c := range []struct {
		name       string
		in         []byte
		want, fail string // the data read, or the error's text
	}{
		{"plain", []byte("1,2\n"), "1,2\n", ""},
		{"gzip", gz.Bytes(), "1,2\n3,4\n", ""},
		{"truncated gzip", gz.Bytes()[:gz.Len()-6], "", "damaged gzip data: the file ends early"},
		{"xz", []byte("\xfd7zXZ\x00\x00"), "", "xz-compressed input is not supported"},
	} {
		r, err := Decompress(bufio.NewReader(bytes.NewReader(c.in)))
		var got []byte
		if err == nil {
			got, err = io.ReadAll(r)
		}
		switch {
		case c.fail == "" && (err != nil || string(got) != c.want):
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		case c.fail != "" && (Status(err) != 2 || !strings.Contains(err.Error(), c.fail)):
			t.Errorf("%s: %v, want bad input containing %q", c.name, err, c.fail)
		}
	}
}

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
