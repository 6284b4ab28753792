package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMessagesNameTheFlag: a missing -lambda names the flag; a flag the
// method does not use is an error in fit as in classify (cg ignored
// -lambda 5 and printed λ = 5); an output path that cannot be written is
// reported before the fit, by its own name, not a temporary file's.
func TestMessagesNameTheFlag(t *testing.T) {
	dir := t.TempDir()
	train, _ := splitHousing(t, dir)
	nowhere := filepath.Join(dir, "no", "such", "dir", "m.json")
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"fit", "-train", train}, "-lambda is required by -method cholesky"},
		{[]string{"fit", "-train", train, "-method", "eigen"}, "-lambda is required by -method eigen"},
		{[]string{"fit", "-train", train, "-method", "nystrom", "-lambda", "1e-3"}, "-centers is required"},
		{[]string{"fit", "-train", train, "-method", "cg", "-lambda", "5"}, "-lambda is not used by -method cg"},
		{[]string{"fit", "-train", train, "-method", "cholesky", "-lambda", "1", "-iters", "5"}, "-iters is not used by -method cholesky"},
		{[]string{"fit", "-train", train, "-lambda", "1", "-centers", "5"}, "-centers is not used"},
		{[]string{"fit", "-train", train, "-lambda", "1", "-model", nowhere}, "-model " + nowhere + ": cannot be written"},
		{[]string{"fit", "-train", train, "-lambda", "1", "-model", dir}, "is a directory"},
		{[]string{"classify", "-train", train, "-method", "knn", "-model", nowhere}, "-model " + nowhere},
	} {
		code, _, e := runCmd(c.args...)
		if code != 2 || !strings.Contains(e, c.msg) || strings.Contains(e, ".rkhs-") {
			t.Errorf("%v: exit %d, %q; want 2 and %q", c.args[1:], code, e, c.msg)
		}
	}
	code, out, e := runCmd("fit", "-train", train, "-method", "cg", "-iters", "5")
	if code != 0 || strings.Contains(out, "λ") || !strings.Contains(out, "5 iterations") {
		t.Errorf("cg: exit %d, %q (%s); want no λ, 5 iterations", code, out, e)
	}
	code, out, _ = runCmd("fit", "-train", train, "-method", "cg", "-iters", "5", "-json")
	if code != 0 || !strings.Contains(out, `"lambda":null`) {
		t.Errorf("cg -json: %q, want lambda null", out)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("the checks left files behind: %v", entries)
	}
}
