package cli

import (
	"strings"
	"unicode/utf8"

	"rkhs/dataset"
	"rkhs/regress"
)

// CSVColumns reads the flags that say how a CSV file is laid out, as both
// commands read them, into dataset.CSVOptions:
//
//   - -header auto|yes|no: auto (or "") is DetectHeader, the first line a
//     header when none of its fields is a number; yes is Header;
//   - -target NAME and -features A,B,…: the label's and the features'
//     columns by their names in the header (so not with -header no); the
//     label is otherwise the last column, the features every other one;
//   - -comma C: one character other than a quote or a line end, \t for a
//     tab; "" leaves Comma 0, the format's own separator.
//
// The errors are BadInput, naming the flag.
func CSVColumns(header, target, features, comma string) (dataset.CSVOptions, error) {
	opt := dataset.CSVOptions{LabelCol: -1, Target: target}
	switch header {
	case "", "auto":
		opt.DetectHeader = true
	case "yes":
		opt.Header = true
	case "no":
		if target != "" || features != "" {
			return opt, BadInputf("-target and -features name columns of the header: not with -header no")
		}
	default:
		return opt, BadInputf("-header %q: want auto, yes or no", header)
	}
	if features != "" {
		opt.Features = strings.Split(features, ",")
	}
	if comma != "" {
		c := []rune(strings.ReplaceAll(comma, `\t`, "\t"))
		if len(c) != 1 || c[0] == '"' || c[0] == '\r' || c[0] == '\n' || c[0] == utf8.RuneError {
			return opt, BadInputf("-comma %q: want one character other than a quote or a line end (\\t for a tab)", comma)
		}
		opt.Comma = c[0]
	}
	return opt, nil
}

// Intercept reads -intercept: none, free or penalized, the names of
// regress.Intercept's modes.
func Intercept(s string) (regress.Intercept, error) {
	for _, ic := range []regress.Intercept{regress.NoIntercept, regress.FreeIntercept, regress.PenalizedIntercept} {
		if ic.String() == s {
			return ic, nil
		}
	}
	return 0, BadInputf("-intercept %q: want none, free or penalized", s)
}

// Header is the value of -header: auto (the zero value), yes or no (see
// CSVColumns), read as Standardize reads its value: alone, -header is
// yes, and "-header no" reads as written once the arguments went through
// JoinValues.
type Header struct{ Standardize }

// HeaderlessBeside is the refusal of a headerless file path read beside
// the training file train, whose reading info is not positional
// (dataset.CSVInfo.NotPositional gives why), or nil when the file has a
// header (beside its info) or the training file's reading is positional.
func HeaderlessBeside(path string, beside *dataset.CSVInfo, train string, info *dataset.CSVInfo) error {
	why := info.NotPositional()
	if why == "" || beside == nil || beside.Header != nil {
		return nil
	}
	return BadInputf("%s has no header, so its columns would be read by position, the label last; but %s's %s: give %s the header line of %s (%s)",
		path, train, why, path, train, strings.Join(info.Header, ","))
}
