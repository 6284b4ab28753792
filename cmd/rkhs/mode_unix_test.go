//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestOutputMode: output files get mode 0666 less the umask, as a shell
// redirection gives them, not os.CreateTemp's 0600.
func TestOutputMode(t *testing.T) {
	dir := t.TempDir()
	train, _ := splitHousing(t, dir)
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	model := filepath.Join(dir, "m.json")
	if code, _, e := runCmd("fit", "-train", train, "-lambda", "1", "-model", model); code != 0 {
		t.Fatal(e)
	}
	st, err := os.Stat(model)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Mode().Perm(); got != 0o644 {
		t.Errorf("mode %o with umask 022, want 644", got)
	}
}
