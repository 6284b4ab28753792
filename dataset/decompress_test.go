package dataset_test

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
// read, are malformed input naming the format.
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
		r, err := dataset.Decompress(bufio.NewReader(bytes.NewReader(c.in)))
		var got []byte
		if err == nil {
			got, err = io.ReadAll(r)
		}
		switch {
		case c.fail == "" && (err != nil || string(got) != c.want):
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		case c.fail != "" && (!errors.Is(err, dataset.ErrFormat) || !strings.Contains(err.Error(), c.fail)):
			t.Errorf("%s: %v, want ErrFormat containing %q", c.name, err, c.fail)
		}
	}
}
