// Package clitest holds the cases that the tests of the commands rkhs and
// rkhs-beam run for every output flag of every verb, so that both
// commands, and a verb or flag added later, are tested on the same paths:
// a missing directory, a directory, a symbolic link, a dangling link, a
// named pipe, standard output, an input file, a file an input glob
// matches, another output. It is imported by tests only.
package clitest

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Env is what a case needs to know of the command line it is run in: a
// scratch directory, an input file of the command (written there), and the
// path of another output of the same command line ("" when the verb has
// one output only).
type Env struct {
	Dir, Input, Other string
}

// Outcome is what a case expects of the command.
type Outcome int

const (
	// Refused: exit status 2 before anything is computed, the path
	// untouched.
	Refused Outcome = iota
	// Written: exit status 0 and the output written where the case says.
	Written
)

// OutputCase is one path an output flag is given.
type OutputCase struct {
	Name string
	// Path makes the case in env.Dir and returns the path to give the
	// flag, the outcome expected and, for Written, a check of what was
	// written: stdout is the command's standard output; the check fails t
	// unless the output is there and the case's other files are as they
	// were (the link still a link, the input unchanged).
	Path func(t *testing.T, env Env) (path string, want Outcome, check func(t *testing.T, stdout []byte))
	// Unix marks a case that needs a named pipe (only where mkfifo is).
	Unix bool
}

// read returns the file's content, failing t if it cannot be read.
func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	return b
}

// Cases are the output cases every output flag of every verb is run with
// (FIFOCase, for Unix, is added by the caller where it can make one).
var Cases = []OutputCase{
	{Name: "missing directory", Path: func(t *testing.T, env Env) (string, Outcome, func(*testing.T, []byte)) {
		return filepath.Join(env.Dir, "no-such-dir", "out"), Refused, nil
	}},
	{Name: "directory", Path: func(t *testing.T, env Env) (string, Outcome, func(*testing.T, []byte)) {
		return env.Dir, Refused, nil
	}},
	{Name: "the input file", Path: func(t *testing.T, env Env) (string, Outcome, func(*testing.T, []byte)) {
		return env.Input, Refused, nil
	}},
	{Name: "a link to the input file", Path: func(t *testing.T, env Env) (string, Outcome, func(*testing.T, []byte)) {
		link := filepath.Join(env.Dir, "to-input")
		if err := os.Symlink(env.Input, link); err != nil {
			t.Skip("no symbolic links here:", err)
		}
		return link, Refused, nil
	}},
	{Name: "another output", Path: func(t *testing.T, env Env) (string, Outcome, func(*testing.T, []byte)) {
		if env.Other == "" {
			t.Skip("the verb has one output")
		}
		return env.Other, Refused, nil
	}},
	{Name: "a symbolic link", Path: func(t *testing.T, env Env) (string, Outcome, func(*testing.T, []byte)) {
		target := filepath.Join(env.Dir, "real.out")
		if err := os.WriteFile(target, []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(env.Dir, "link.out")
		if err := os.Symlink("real.out", link); err != nil {
			t.Skip("no symbolic links here:", err)
		}
		return link, Written, func(t *testing.T, _ []byte) {
			if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
				t.Errorf("%s is no longer a symbolic link (%v)", link, err)
			}
			if b := read(t, target); len(b) == 0 || bytes.Equal(b, []byte("old\n")) {
				t.Errorf("the link's target still holds %q: the output was not written through the link", b)
			}
		}
	}},
	{Name: "a dangling link", Path: func(t *testing.T, env Env) (string, Outcome, func(*testing.T, []byte)) {
		link := filepath.Join(env.Dir, "dangling.out")
		if err := os.Symlink("new.out", link); err != nil {
			t.Skip("no symbolic links here:", err)
		}
		return link, Written, func(t *testing.T, _ []byte) {
			if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
				t.Errorf("%s is no longer a symbolic link (%v)", link, err)
			}
			if b := read(t, filepath.Join(env.Dir, "new.out")); len(b) == 0 {
				t.Errorf("the link's target is empty")
			}
		}
	}},
	{Name: "standard output", Path: func(t *testing.T, env Env) (string, Outcome, func(*testing.T, []byte)) {
		return "-", Written, func(t *testing.T, stdout []byte) {
			if len(stdout) == 0 {
				t.Errorf("nothing written to standard output")
			}
		}
	}},
	{Name: "/dev/stdout", Path: func(t *testing.T, env Env) (string, Outcome, func(*testing.T, []byte)) {
		if _, err := os.Lstat("/dev/stdout"); err != nil {
			t.Skip("no /dev/stdout here")
		}
		return "/dev/stdout", Written, func(t *testing.T, stdout []byte) {
			if st, err := os.Lstat("/dev/stdout"); err != nil || st.Mode().IsRegular() {
				t.Fatalf("/dev/stdout was replaced by a regular file (%v)", err)
			}
			if len(stdout) == 0 {
				t.Errorf("nothing written to standard output")
			}
		}
	}},
	{Name: "/dev/null", Path: func(t *testing.T, env Env) (string, Outcome, func(*testing.T, []byte)) {
		if _, err := os.Stat("/dev/null"); err != nil {
			t.Skip("no /dev/null here")
		}
		return "/dev/null", Written, func(t *testing.T, _ []byte) {
			if st, err := os.Stat("/dev/null"); err != nil || st.Mode().IsRegular() {
				t.Fatalf("/dev/null was replaced by a regular file (%v)", err)
			}
		}
	}},
}
