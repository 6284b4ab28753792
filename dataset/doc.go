// Package dataset reads and writes labelled data sets for regression and
// classification: a dense feature matrix with one example per row and a
// vector of labels (targets).
//
// # Formats
//
// LIBSVM sparse text ([ReadLIBSVM], [WriteLIBSVM]): one example per line,
//
//	label idx:val idx:val ...
//
// with 1-based, strictly ascending indices; an index that is absent stands
// for the value 0. Fields are separated by one or more spaces or tabs, so a
// trailing space at the end of a line is accepted. Lines end in "\n" or
// "\r\n", and the last line need not end in a newline at all. Lines that are
// empty or hold only spaces and tabs are skipped; there are no header lines
// and no comments. Labels and values are decimal numbers as C's printf %g
// writes them, with an optional sign and exponent: "+1", "-0.5", "1e-05".
//
// CSV ([ReadCSV], [ReadCSVInfo], [WriteCSV]), as read by [encoding/csv],
// with any separator (a tab for tab-separated files): every record has the
// same number of fields, one of which (chosen by [CSVOptions.LabelCol], or
// by name with [CSVOptions.Target]) is the label and the others the
// features in order, or those named by [CSVOptions.Features]; columns that
// are not used are not read. An optional first header line gives the
// column names; it is declared ([CSVOptions.Header]) or detected
// ([CSVOptions.DetectHeader]: the first record is a header when none of
// its fields is a number), and never guessed by retrying after an error. A
// UTF-8 byte-order mark is skipped. Empty lines are skipped; there are no
// comments. A missing value — an empty or blank field, or NA, N/A, #N/A,
// NaN, null, None or ? in any case — is an error naming its line and
// column, unless [CSVOptions.DropMissing] drops its record. The errors
// name what makes a file look written in another dialect: lines that all
// end in a separator (an empty last column, header included), a field
// holding another common separator ([ParseError.Separator]), a carriage
// return alone as the line end, a quoted field never closed (reported at
// the line where it opens).
//
// In both formats every number must be a finite decimal floating-point
// literal: [+-]digits[.digits][(e|E)[+-]digits], where the digits may also
// start at the point (".5") or end there ("1."). Hexadecimal floats, digit
// separators ("1_000"), surrounding spaces inside a field, and NaN, Inf or
// a literal that overflows float64 are all errors.
//
// # Exact round trips
//
// The writers print every number as the shortest decimal that parses back to
// the same float64 (strconv.FormatFloat with format 'g' and precision -1),
// so writing a Data and reading it back gives the same bits, with two
// documented exceptions in the LIBSVM format: a feature value -0 is written
// as an absent entry and so comes back as +0 (ReadLIBSVM itself stores every
// explicit zero as +0, so data that came from ReadLIBSVM round-trips exactly);
// and trailing all-zero feature columns are not visible in the file, so read
// the file back with features set to the original column count to recover
// the shape. Labels, including -0, and all CSV values round-trip exactly.
// A Data with no rows is written as an empty file (or a lone CSV header),
// which the readers reject as having no examples.
//
// # Failure
//
// Malformed input never causes a panic. The readers return a [*ParseError]
// that names the 1-based line and what was wrong with it; it wraps
// [ErrFormat], so test with errors.Is(err, ErrFormat) or inspect it with
// [errors.As]. Errors from the underlying [io.Reader] or [io.Writer] are
// returned unchanged. The writers check the Data before writing anything and
// return a [*DataError] (wrapping [ErrInvalidData]) when its shapes disagree
// or it holds NaN or ±Inf; for NaN or ±Inf it also wraps a
// *linalg.NotFiniteError, so that errors.Is(err, linalg.ErrNotFinite)
// holds, as for non-finite input to any package of the module.
//
// Misuse of the options panics with a message starting "dataset:": a
// negative feature count for ReadLIBSVM, or a [CSVOptions.Comma] that
// encoding/csv cannot use as a separator.
//
// Inputs are never modified: the writers only read the Data they are given,
// and the readers return newly allocated storage. All functions are safe for
// concurrent use on distinct readers and writers.
package dataset
