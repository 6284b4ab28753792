package clitest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// StreamCase is a path that names one of the command's standard streams,
// given to an output flag while the command runs with both streams
// redirected to files (Redirected): the output must go into that file
// beside the rest of the command's report, never replace it.
type StreamCase struct {
	Name   string
	Stream int // the stream the path names: 1 standard output, 2 standard error
	// Path returns the path to give the flag (it may make a link in dir).
	Path func(t *testing.T, dir string) string
}

// name is a StreamCase for a fixed path.
func name(path string, stream int) StreamCase {
	return StreamCase{Name: path, Stream: stream, Path: func(t *testing.T, _ string) string {
		if _, err := os.Stat(filepath.Dir(path)); err != nil {
			t.Skipf("no %s here", filepath.Dir(path))
		}
		return path
	}}
}

// linkTo is a StreamCase for a symbolic link in dir to path.
func linkTo(path string, stream int) StreamCase {
	return StreamCase{Name: "a link to " + path, Stream: stream, Path: func(t *testing.T, dir string) string {
		if _, err := os.Stat(filepath.Dir(path)); err != nil {
			t.Skipf("no %s here", filepath.Dir(path))
		}
		link := filepath.Join(dir, "stream.link")
		os.Remove(link)
		if err := os.Symlink(path, link); err != nil {
			t.Skip("no symbolic links here:", err)
		}
		return link
	}}
}

// StreamCases are the names of the standard streams every output flag of
// every verb is run with.
var StreamCases = []StreamCase{
	name("/dev/fd/1", 1),
	name("/proc/self/fd/1", 1),
	name("/proc/thread-self/fd/1", 1),
	name("/dev/stderr", 2),
	name("/dev/fd/2", 2),
	name("/proc/self/fd/2", 2),
	name("/proc/thread-self/fd/2", 2),
	linkTo("/proc/self/fd/1", 1),
	linkTo("/dev/stderr", 2),
}

// Redirected runs cmd with its standard output and standard error each
// sent to a new file in dir, as a shell's "> out 2> err" sends them, and
// returns its exit status and what the two files hold afterwards.
func Redirected(t *testing.T, cmd *exec.Cmd, dir string) (code int, stdout, stderr []byte) {
	t.Helper()
	files := [2]*os.File{}
	for i, n := range []string{"stdout.txt", "stderr.txt"} {
		f, err := os.Create(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		files[i] = f
	}
	cmd.Stdout, cmd.Stderr = files[0], files[1]
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	stdout, _ = os.ReadFile(files[0].Name())
	stderr, _ = os.ReadFile(files[1].Name())
	return code, stdout, stderr
}

// CheckStream fails t unless got, what a redirected stream holds when an
// output was sent to it, is alone (the same stream of a run that wrote the
// output to a file) with the output added: it holds output, and without it
// as many lines as alone. The stream is named for the message.
func CheckStream(t *testing.T, stream string, got, alone, output []byte) {
	t.Helper()
	if len(output) == 0 {
		t.Fatalf("the output written to a file is empty: nothing to look for in %s", stream)
	}
	i := bytes.Index(got, output)
	if i < 0 {
		t.Errorf("%s (%d bytes) does not hold the output (%d bytes)", stream, len(got), len(output))
		return
	}
	rest := append(got[:i:i], got[i+len(output):]...)
	if n, want := bytes.Count(rest, []byte("\n")), bytes.Count(alone, []byte("\n")); n != want {
		t.Errorf("%s holds %d lines besides the output, want %d as without it: the report was lost\n%s", stream, n, want, rest)
	}
}
