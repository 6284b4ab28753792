package dataset

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
)

// WriteCSV writes d to w in CSV format: one record per row, with the label
// at column opt.LabelCol of d.X.Cols+1 fields and the features in order
// around it, preceded when opt.Header is set by a header record naming the
// features "x1" to "xd" and the label "y". Numbers are the shortest decimals
// that read back as the same float64 (strconv.FormatFloat(v, 'g', -1, 64)),
// so ReadCSV with the same options returns d's values bit for bit. Lines end
// in "\n". A Data with no rows writes only the header, if any.
//
// It returns a *DataError (wrapping ErrInvalidData), having written
// nothing, if d is nil, X is not a valid view, len(d.Y) != d.X.Rows, a
// value is NaN or ±Inf (then also wrapping linalg.ErrNotFinite), or
// opt.LabelCol is outside the d.X.Cols+1 columns.
// An error from w is returned unchanged. WriteCSV panics if opt.Comma is
// not a valid separator. d is not modified.
func WriteCSV(w io.Writer, d *Data, opt CSVOptions) error {
	comma := opt.comma("WriteCSV")
	if err := d.check(); err != nil {
		return err
	}
	ncols := d.X.Cols + 1
	lab, ok := opt.labelIndex(ncols)
	if !ok {
		return &DataError{Row: -1, Msg: fmt.Sprintf("label column %d is out of range for %d columns", opt.LabelCol, ncols)}
	}
	cw := csv.NewWriter(w)
	cw.Comma = comma
	rec := make([]string, ncols)
	if opt.Header {
		for j := range rec {
			switch {
			case j < lab:
				rec[j] = "x" + strconv.Itoa(j+1)
			case j == lab:
				rec[j] = "y"
			default:
				rec[j] = "x" + strconv.Itoa(j)
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	for i, label := range d.Y {
		row := d.row(i)
		for j := range rec {
			var v float64
			switch {
			case j < lab:
				v = row[j]
			case j == lab:
				v = label
			default:
				v = row[j-1]
			}
			rec[j] = strconv.FormatFloat(v, 'g', -1, 64)
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
