package dataset

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The formats of a data file, as FormatOf names them and ReadFile reads
// them.
const (
	FormatLIBSVM = "libsvm"
	FormatCSV    = "csv"
	FormatTSV    = "tsv" // CSV with a tab between fields
)

// FormatOf returns the format of a data file by its name, in any case,
// without a .gz or .bz2 suffix: FormatCSV for .csv, FormatTSV for .tsv or
// .tab, FormatLIBSVM otherwise.
func FormatOf(path string) string {
	name := strings.ToLower(path)
	for _, ext := range []string{".gz", ".bz2"} {
		name = strings.TrimSuffix(name, ext)
	}
	switch filepath.Ext(name) {
	case ".csv":
		return FormatCSV
	case ".tsv", ".tab":
		return FormatTSV
	}
	return FormatLIBSVM
}

// ReadFile reads the data file path in format ("" for FormatOf(path)),
// decompressed first when its first bytes are gzip's or bzip2's,
// whatever its name (Decompress): LIBSVM by ReadLIBSVM, the number of
// features inferred (info is then nil); CSV by ReadCSVInfo with opt, and
// FormatTSV the same with a tab as opt.Comma when opt.Comma is 0. The
// errors are os.Open's, Decompress's and the reader's, without the path,
// which a caller adds where it names the file; a format other than those
// three is a *ParseError.
func ReadFile(path, format string, opt CSVOptions) (d *Data, info *CSVInfo, err error) {
	if format == "" {
		format = FormatOf(path)
	}
	if format != FormatLIBSVM && format != FormatCSV && format != FormatTSV {
		return nil, nil, &ParseError{Msg: fmt.Sprintf("ReadFile: format %s: want %s, %s or %s", quote(format), FormatLIBSVM, FormatCSV, FormatTSV)}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r, err := Decompress(bufio.NewReaderSize(f, 1<<16))
	if err != nil {
		return nil, nil, err
	}
	if format == FormatLIBSVM {
		d, err = ReadLIBSVM(r, 0)
		return d, nil, err
	}
	if format == FormatTSV && opt.Comma == 0 {
		opt.Comma = '\t'
	}
	return ReadCSVInfo(r, opt)
}
