package dataset

import (
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"io"
	"strings"
)

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

// Decompress returns the data br holds, found by its first bytes whatever
// the file's name: decompressed when they are gzip's or bzip2's, as they
// are otherwise. A file compressed by another program (xz, zstd, zip) is
// a *ParseError saying so, and so is a damaged one (truncated, a bad
// checksum, trailing padding) when it is read: a read error that names
// the format and the damage. The reader gives ReadCSV and ReadLIBSVM
// their input.
func Decompress(br *bufio.Reader) (io.Reader, error) {
	if br == nil {
		return nil, &ParseError{Msg: "Decompress: a nil reader"}
	}
	head, _ := br.Peek(6)
	for _, c := range compressions {
		if !bytes.HasPrefix(head, []byte(c.magic)) {
			continue
		}
		if c.open == nil {
			return nil, &ParseError{Msg: c.name + "-compressed input is not supported (gzip and bzip2 are): decompress it first"}
		}
		r, err := c.open(br)
		if err != nil {
			return nil, &ParseError{Msg: c.name + ": " + err.Error()}
		}
		return damageReader{r, c.name}, nil
	}
	return br, nil
}

// damageReader reads a decompressed stream and reports its errors, a
// truncated, damaged or padded file, as a *ParseError naming the format.
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
		err = &ParseError{Msg: "damaged " + d.format + " data: " + why}
	}
	return n, err
}
