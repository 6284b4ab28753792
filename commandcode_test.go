package rkhs

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// commandLines bounds the non-test lines of Go of the command code: the
// rkhs command with its internal packages, internal/cli (the rules the two
// commands share) and the rkhs-beam command. Policy and machinery a
// library user needs too belong in the library — loo's defaults, the
// selection's cost and the check of a width given (loo.CheckWidth),
// regress's fit costs, dataset's reading of a file by its name and its
// decompression, the model file (package model), what a selection chose
// and why with its tables, warnings and pictures (package report),
// what a σ given, a standardization, a headerless file read by position
// and a problem too large for memory tell their user (package report
// too), the rows of a file off their training scale (kernels.FarRows),
// regress's Gemm rate, internal/outfile's
// writing of outputs, which package beam uses — and
// presentation in one place; the bound keeps the commands thin as a
// whole, so that code moved from one command folder into another does not
// pass for a smaller command. It is today's size, 4,997 lines with
// -interval in both commands, within the 5,000 the commands are to stay
// under.
const commandLines = 4_997

// TestCommandCodeIsSmall: the command code is at most commandLines
// non-test lines.
func TestCommandCodeIsSmall(t *testing.T) {
	total := 0
	for _, dir := range []string{"cmd/rkhs", "internal/cli", "beam/cmd/rkhs-beam"} {
		n := 0
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "clitest" {
				return filepath.SkipDir // the tests' helpers, test code in a package of its own
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			b, err := os.ReadFile(path)
			n += bytes.Count(b, []byte("\n"))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d lines", dir, n)
		total += n
	}
	if total > commandLines || total < 1000 {
		t.Errorf("the command code is %d non-test lines; want at most %d (and more than 1000: the folders were found)", total, commandLines)
	}
}
