package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"rkhs/internal/outfile"
)

// TestDescriptorOutputs: an output that names an open descriptor of the
// process, here a file opened on descriptor N as a shell's N>file would,
// is written to that descriptor after what was written there before; the
// file is not replaced (the same file, its earlier content kept), under
// every name of the descriptor. A descriptor that is not open, and
// standard input, are refused.
func TestDescriptorOutputs(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd here")
	}
	dir := t.TempDir()
	for _, name := range []string{"/dev/fd/N", "/proc/self/fd/N", "/proc/thread-self/fd/N", "a link to /dev/fd/N", "a link to /proc/self/fd/N"} {
		t.Run(name, func(t *testing.T) {
			log := filepath.Join(dir, "log.txt")
			f, err := os.Create(log)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			before, _ := os.Stat(log)
			if _, err := f.WriteString("the report so far\n"); err != nil {
				t.Fatal(err)
			}
			fd := strconv.Itoa(int(f.Fd()))
			var path string
			switch name {
			case "/dev/fd/N":
				path = "/dev/fd/" + fd
			case "/proc/self/fd/N":
				path = "/proc/self/fd/" + fd
			case "/proc/thread-self/fd/N":
				if _, err := os.Stat("/proc/thread-self"); err != nil {
					t.Skip("no /proc/thread-self here")
				}
				path = "/proc/thread-self/fd/" + fd
			default:
				path = filepath.Join(dir, "link")
				os.Remove(path)
				to := "/dev/fd/" + fd
				if name == "a link to /proc/self/fd/N" {
					to = "/proc/self/fd/" + fd
				}
				if err := os.Symlink(to, path); err != nil {
					t.Skip("no symbolic links here:", err)
				}
			}
			if err := CheckOutputs(nil, []Output{{"predictions", path}}); err != nil {
				t.Fatalf("CheckOutputs(%s): %v", path, err)
			}
			if err := outfile.WriteFile(path, []byte("the output\n"), nil); err != nil {
				t.Fatalf("outfile.WriteFile(%s): %v", path, err)
			}
			if _, err := f.WriteString("the end of the report\n"); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(log)
			if want := "the report so far\nthe output\nthe end of the report\n"; string(got) != want {
				t.Errorf("%s holds %q, want %q", log, got, want)
			}
			if after, err := os.Stat(log); err != nil || !os.SameFile(before, after) {
				t.Errorf("%s was replaced by another file (%v)", log, err)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
	for _, path := range []string{"/dev/fd/1000000", "/dev/stdin", "/proc/self/fd/0"} {
		if err := CheckOutputs(nil, []Output{{"model", path}}); Status(err) != 2 {
			t.Errorf("CheckOutputs(%s): %v, want a refusal", path, err)
		}
	}
}

// TestDescriptorSameFile: "-" and /dev/fd/1 are one output; /dev/stdout
// and /dev/stderr are two; a descriptor open on an input file is that
// file.
func TestDescriptorSameFile(t *testing.T) {
	in := filepath.Join(t.TempDir(), "train.csv")
	if err := os.WriteFile(in, []byte("a,y\n1,2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(in, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fd := "/dev/fd/" + strconv.Itoa(int(f.Fd()))
	for _, c := range []struct {
		name    string
		inputs  []Input
		outputs []Output
		refused bool
	}{
		{"- and /dev/fd/1", nil, []Output{{"model", "-"}, {"plot", "/dev/fd/1"}}, true},
		{"/dev/stdout and /proc/self/fd/1", nil, []Output{{"model", "/dev/stdout"}, {"plot", "/proc/self/fd/1"}}, true},
		{"/dev/stdout and /dev/stderr", nil, []Output{{"model", "/dev/stdout"}, {"plot", "/dev/stderr"}}, false},
		{"a descriptor on the input", []Input{{Flag: "train", Value: in}}, []Output{{"model", fd}}, true},
	} {
		if _, err := os.Stat("/dev/fd"); err != nil && c.name == "a descriptor on the input" {
			continue
		}
		err := CheckOutputs(c.inputs, c.outputs)
		if got := Status(err) == 2; got != c.refused {
			t.Errorf("%s: %v; want refused %v", c.name, err, c.refused)
		}
	}
	if b, _ := os.ReadFile(in); !bytes.Equal(b, []byte("a,y\n1,2\n")) {
		t.Errorf("the input changed: %q", b)
	}
}
