package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"rkhs/dataset"
	"rkhs/linalg"
)

// TestStatus: each kind of error has its exit status, wrapped or not.
func TestStatus(t *testing.T) {
	wrap := func(err error) error { return fmt.Errorf("context: %w", err) }
	for _, c := range []struct {
		err  error
		want int
	}{
		{nil, 0}, {ErrHelp, 0}, {wrap(ErrHelp), 0},
		{BadInputf("-x"), 2}, {wrap(BadInputf("-x")), 2},
		{&linalg.InputError{Op: "f", Arg: "x"}, 2}, {&fs.PathError{Op: "open", Path: "p", Err: fs.ErrNotExist}, 2},
		{wrap(dataset.ErrFormat), 2}, {wrap(linalg.ErrTooLarge), 2},
		{Explained{Msg: "m", Err: linalg.ErrTooLarge}, 2},
		{wrap(linalg.ErrNotPositiveDefinite), 1}, {linalg.ErrNoConvergence, 1}, {errors.New("job failed"), 1},
	} {
		if got := Status(c.err); got != c.want {
			t.Errorf("%v: %d, want %d", c.err, got, c.want)
		}
	}
}

// TestOneLine: one line stays, several fold, a long message keeps its
// first and last line.
func TestOneLine(t *testing.T) {
	for in, want := range map[string]string{
		"a  b\n":                        "a b",
		"first\nlast":                   "first last",
		"job failed\nplan\n…\ncause: x": "job failed … cause: x",
	} {
		if got := OneLine(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
