package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"rkhs/internal/cli/clitest"
)

// commandArgs is the environment variable that makes the test binary run
// rkhs itself with these arguments (separated by \x1f), on its own
// standard streams: the tests of this file run it with them redirected to
// files, as a shell would.
const commandArgs = "RKHS_COMMAND_ARGS"

func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(commandArgs); ok {
		os.Exit(run(strings.Split(args, "\x1f"), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// redirected runs rkhs args in a process of its own with standard output
// and standard error sent to files in dir, and returns its exit status
// and what those files hold.
func redirected(t *testing.T, dir string, args []string) (code int, stdout, stderr []byte) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), commandArgs+"="+strings.Join(args, "\x1f"))
	return clitest.Redirected(t, cmd, dir)
}

// TestOutputFlagsOnStreams runs every output flag of every verb (the rows
// of outputRuns) with each name of a standard stream (clitest.StreamCases:
// /dev/fd/1, /proc/self/fd/1, /dev/stderr, a link to one, …) while both
// streams are redirected to files: the output lands in that stream's file
// beside everything the command writes there when the output goes to a
// file of its own, and the other stream is as it is then.
func TestOutputFlagsOnStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("runs rkhs in a process of its own for every output flag and stream name")
	}
	for key, args := range outputRuns {
		t.Run(key, func(t *testing.T) {
			dir := t.TempDir()
			files := tinyFiles(t, dir)
			files["OTHER"] = filepath.Join(dir, "other.out")
			files["OUT"] = filepath.Join(dir, "alone.out")
			code, out, errs := redirected(t, dir, substitute(args, files))
			if code != 0 {
				t.Fatalf("to a file: exit %d: %s", code, errs)
			}
			alone := [3][]byte{1: out, 2: errs}
			output, err := os.ReadFile(files["OUT"])
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range clitest.StreamCases {
				t.Run(c.Name, func(t *testing.T) {
					files["OUT"] = c.Path(t, dir)
					code, out, errs := redirected(t, dir, substitute(args, files))
					if code != 0 {
						t.Fatalf("exit %d: %s", code, errs)
					}
					got := [3][]byte{1: out, 2: errs}
					names := [3]string{1: "standard output", 2: "standard error"}
					clitest.CheckStream(t, names[c.Stream], got[c.Stream], alone[c.Stream], output)
					if o := 3 - c.Stream; strings.Count(string(got[o]), "\n") != strings.Count(string(alone[o]), "\n") {
						t.Errorf("%s: %q, want as many lines as %q", names[o], got[o], alone[o])
					}
				})
			}
		})
	}
}
