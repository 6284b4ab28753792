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
		{[]string{"fit", "-train", train, "-lambda", "1", "-model", nowhere}, "-model " + nowhere + ": the directory " + filepath.Dir(nowhere) + " does not exist"},
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

// TestHugeIters: cg with a huge -iters stops once it has converged to the
// rounding level instead of running every iteration (and keeps no
// per-iteration record).
func TestHugeIters(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "lin.csv", []byte("0,1\n1,3\n2,5\n3,7\n4,9.5\n"))
	code, out, e := runCmd("fit", "-train", p, "-kernel", "linear", "-method", "cg", "-iters", "2000000000", "-json")
	if code != 0 || !strings.Contains(out, `"iterations":`) || strings.Contains(out, `"iterations":2000000000`) {
		t.Errorf("exit %d, %q (%s): want a run stopped at convergence", code, out, e)
	}
}

// TestSkipTrainAccuracy: the training accuracy, n² kernel evaluations for
// k-NN, is optional; the test accuracy is the same with or without it.
func TestSkipTrainAccuracy(t *testing.T) {
	dir := t.TempDir()
	train, test := splitSet(t, dir, "heart", "", 200)
	_, with, _ := runCmd("classify", "-train", train, "-test", test, "-method", "knn", "-json")
	code, without, e := runCmd("classify", "-train", train, "-test", test, "-method", "knn", "-json", "-skip-train-accuracy")
	if code != 0 || !strings.Contains(without, `"train_accuracy":null`) {
		t.Fatalf("exit %d, %q (%s)", code, without, e)
	}
	acc := func(s string) string {
		i := strings.Index(s, `"test_accuracy"`)
		return s[i : i+strings.IndexByte(s[i:], ',')]
	}
	if acc(with) != acc(without) {
		t.Errorf("test accuracy %s with the training accuracy, %s without", acc(with), acc(without))
	}
}
