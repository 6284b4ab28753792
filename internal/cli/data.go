package cli

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"

	"rkhs/dataset"
)

// Data files: what both commands read the same way — the compression of a
// file, found by its first bytes whatever its name (Decompress), and, for a
// CSV file that does not parse, the flag that reads it (CSVHint); the
// flags of a CSV file's layout are read by CSVColumns.

// compressions are the magic bytes of compressed files, their names and,
// for the formats the standard library reads, a decompressor.
var compressions = []struct {
	magic, name string
	open        func(io.Reader) (io.Reader, error)
}{
	{"\x1f\x8b", "gzip", func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
	{"BZh", "bzip2", func(r io.Reader) (io.Reader, error) { return bzip2.NewReader(r), nil }},
	{"\xfd7zXZ\x00", "xz", nil},
	{"\x28\xb5\x2f\xfd", "zstd", nil},
	{"PK\x03\x04", "zip", nil},
}

// Decompress returns the data br holds: decompressed when its first bytes
// are gzip's or bzip2's, as they are otherwise. A file compressed by
// another program (xz, zstd, zip) is bad input saying so, and so is a
// damaged one (truncated, a bad checksum, trailing padding) when it is
// read: a read error that names the format and the damage.
func Decompress(br *bufio.Reader) (io.Reader, error) {
	head, _ := br.Peek(6)
	for _, c := range compressions {
		if !bytes.HasPrefix(head, []byte(c.magic)) {
			continue
		}
		if c.open == nil {
			return nil, BadInputf("%s-compressed input is not supported (gzip and bzip2 are): decompress it first", c.name)
		}
		r, err := c.open(br)
		if err != nil {
			return nil, BadInputf("%s: %v", c.name, err)
		}
		return damageReader{r, c.name}, nil
	}
	return br, nil
}

// damageReader reads a decompressed stream and reports its errors, a
// truncated, damaged or padded file, as bad input naming the format.
type damageReader struct {
	r      io.Reader
	format string
}

func (d damageReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	if err != nil && err != io.EOF {
		why := strings.TrimPrefix(err.Error(), d.format+": ")
		var se bzip2.StructuralError
		switch {
		case errors.Is(err, io.ErrUnexpectedEOF):
			why = "the file ends early (truncated?)"
		case errors.Is(err, gzip.ErrHeader):
			why = "trailing bytes that are not gzip data (padding?)"
		case errors.As(err, &se):
			why = string(se)
		}
		err = BadInputf("damaged %s data: %s", d.format, why)
	}
	return n, err
}

// CSVHint adds to the *dataset.ParseError of a CSV file the flag that
// reads it: -drop-missing for a missing value, -comma (or -format tsv) for
// a field that holds another separator, and -header yes when detect (the
// header was to be detected) and line 1 was read as data; other errors
// are returned as they are.
func CSVHint(err error, detect bool) error {
	var pe *dataset.ParseError
	if !errors.As(err, &pe) {
		return err
	}
	switch {
	case pe.Missing:
		return fmt.Errorf("%w (-drop-missing drops the rows that have one)", err)
	case pe.Separator == '\t':
		return fmt.Errorf("%w (-format tsv (or -comma '\\t') reads it)", err)
	case pe.Separator != 0:
		return fmt.Errorf("%w (-comma '%c' reads it)", err, pe.Separator)
	case pe.Line == 1 && detect && !strings.Contains(pe.Msg, "of the header") && !strings.Contains(pe.Msg, "carriage return"):
		return fmt.Errorf("%w (line 1 was read as data because some of its fields are numbers; if it is a header, give -header yes)", err)
	}
	return err
}
