package outfile

import (
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
