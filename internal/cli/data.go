package cli

import (
	"errors"
	"fmt"
	"strings"

	"rkhs/dataset"
)

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
