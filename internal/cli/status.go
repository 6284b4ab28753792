package cli

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"rkhs/dataset"
	"rkhs/linalg"
)

// BadInput is an error in what the user gave a command — a flag, its
// value, a missing argument, a model file of an unknown kind — that no
// library package reported; Status maps it to 2.
type BadInput struct{ Err error }

func (b BadInput) Error() string { return b.Err.Error() }
func (b BadInput) Unwrap() error { return b.Err }

// BadInputf returns a BadInput with a formatted message.
func BadInputf(format string, args ...any) error { return BadInput{fmt.Errorf(format, args...)} }

// Explained is an error whose message is written for the command's user;
// the error it explains stays reachable by errors.Is and errors.As (and so
// decides the exit status).
type Explained struct {
	Msg string
	Err error
}

func (e Explained) Error() string { return e.Msg }
func (e Explained) Unwrap() error { return e.Err }

// ErrHelp is returned when -h printed the usage: exit status 0.
var ErrHelp = flag.ErrHelp

// Status maps the error of a command to its exit status, the one place
// that does for both commands:
//
//	0  no error, or -h
//	2  bad input: a flag or its value (BadInput), a file that cannot be
//	   read or written (*fs.PathError, *os.LinkError) or does not parse
//	   (dataset.ErrFormat, dataset.ErrInvalidData), an argument the
//	   library rejects (*linalg.InputError: every package's ErrInput,
//	   kernels.ErrParameter and ErrData), a problem too large for memory
//	   (linalg.ErrTooLarge, said before anything large is allocated)
//	1  anything else: a computation that failed on valid input, such as
//	   linalg.ErrNotPositiveDefinite (a λ at which the system is singular)
//	   or linalg.ErrNoConvergence, or a pipeline job that failed
func Status(err error) int {
	var (
		bad  BadInput
		ie   *linalg.InputError
		path *fs.PathError
		link *os.LinkError
	)
	switch {
	case err == nil, errors.Is(err, ErrHelp):
		return 0
	case errors.As(err, &bad), errors.As(err, &ie), errors.As(err, &path), errors.As(err, &link),
		errors.Is(err, dataset.ErrFormat), errors.Is(err, dataset.ErrInvalidData), errors.Is(err, linalg.ErrTooLarge):
		return 2
	}
	return 1
}

// OneLine folds a message onto one line. A message of several lines (a
// failed pipeline's error carries the runner's whole plan after its first
// line) keeps its first line and the last, which names the cause.
func OneLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > 2 {
		lines = []string{lines[0], "…", lines[len(lines)-1]}
	}
	return strings.Join(strings.Fields(strings.Join(lines, " ")), " ")
}
