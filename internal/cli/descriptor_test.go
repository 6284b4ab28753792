package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestDescriptorNames: every name of a descriptor of this process, given
// as such or through links, is that descriptor; other paths, another
// process's descriptors and names that only look alike are not.
func TestDescriptorNames(t *testing.T) {
	dir := t.TempDir()
	pid := strconv.Itoa(os.Getpid())
	link := func(name, to string) string {
		p := filepath.Join(dir, name)
		if err := os.Symlink(to, p); err != nil {
			t.Skip("no symbolic links here:", err)
		}
		return p
	}
	other := "1"
	if pid == "1" {
		other = "2"
	}
	for _, c := range []struct {
		path string
		fd   int
		ok   bool
	}{
		{"-", 1, true},
		{"/dev/stdin", 0, true},
		{"/dev/stdout", 1, true},
		{"/dev/stderr", 2, true},
		{"/dev/fd/1", 1, true},
		{"/dev//fd/./2", 2, true},
		{"/dev/fd/17", 17, true},
		{"/proc/self/fd/1", 1, true},
		{"/proc/thread-self/fd/2", 2, true},
		{"/proc/" + pid + "/fd/3", 3, true},
		{"/proc/" + pid + "/task/" + pid + "/fd/4", 4, true},
		{link("to-stderr", "/dev/stderr"), 2, true},
		{link("to-fd", "/dev/fd/1"), 1, true},
		{link("chain", "to-fd"), 1, true},
		{"/proc/" + other + "/fd/1", -1, false},
		{"/dev/fd/01", -1, false},
		{"/dev/fd/-1", -1, false},
		{"/dev/fd/x", -1, false},
		{"/dev/fd", -1, false},
		{"/dev/null", -1, false},
		{"/dev/stdout.txt", -1, false},
		{filepath.Join(dir, "1"), -1, false},
		{link("to-file", "real.txt"), -1, false},
	} {
		fd, ok := Descriptor(c.path)
		if fd != c.fd || ok != c.ok {
			t.Errorf("Descriptor(%q) = %d, %v; want %d, %v", c.path, fd, ok, c.fd, c.ok)
		}
	}
	if _, err := os.Stat("/dev/fd"); err == nil {
		link("dev", "/dev")
		if fd, ok := Descriptor(filepath.Join(dir, "dev", "fd", "5")); fd != 5 || !ok {
			t.Errorf("a link to /dev, then fd/5: %d, %v; want 5, true", fd, ok)
		}
	}
}

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
			if err := WriteFile(path, []byte("the output\n"), nil); err != nil {
				t.Fatalf("WriteFile(%s): %v", path, err)
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
