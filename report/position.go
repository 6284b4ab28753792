package report

import (
	"fmt"
	"strings"

	"rkhs/dataset"
)

// PositionNote is what rkhs and rkhs-beam tell the user who predicts from a
// CSV file without a header with a model whose columns have names (a
// training file with a header): the file is read by position as the
// model's features in its order, then the label (unless unlabelled), and
// a model does not record where its training file had the label, so a
// file laid out as a training file read with -target or -features must
// have a header. "" when the file has a header, is LIBSVM (info nil) or
// the model has no names. The line has no prefix and no end of line.
func PositionNote(path string, info *dataset.CSVInfo, features []string, target string, unlabelled bool) string {
	if info == nil || info.Header != nil || len(features) == 0 {
		return ""
	}
	cols := strings.Join(features, ", ")
	if !unlabelled && target != "" {
		cols += ", then the label " + target
	}
	return fmt.Sprintf("%s has no header: its columns are read by position as %s; a file laid out as a training file read with -target or -features needs its header line", path, cols)
}
