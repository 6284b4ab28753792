package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rkhs/internal/cli/clitest"
)

// outDirRuns are, for every flag naming a directory written into ("verb
// -flag"), a command line that writes there (OUT).
var outDirRuns = map[string][]string{
	"paper -out": {"paper", "-sets", "bodyfat", "-out", "OUT"},
}

// TestOutputDirFlags walks every verb's flags: every directory written
// into has a row in outDirRuns, and given a regular file, a named pipe or
// a path below a file it is refused before anything runs (exit 2, one
// line naming the flag, the file as it was).
func TestOutputDirFlags(t *testing.T) {
	for _, v := range verbs {
		fs := verbFlags(v)
		fs.VisitAll(func(f *flag.Flag) {
			key := v.name + " -" + f.Name
			if fs.kinds[f.Name] != outDirFlag {
				return
			}
			args := outDirRuns[key]
			if args == nil {
				t.Errorf("%s is a directory written into without a row in outDirRuns", key)
				return
			}
			for _, c := range []struct {
				name string
				make func(t *testing.T, dir string) (path, file string)
			}{
				{"a regular file", func(_ *testing.T, dir string) (string, string) {
					p := filepath.Join(dir, "afile")
					os.WriteFile(p, []byte("old\n"), 0o644)
					return p, p
				}},
				{"below a regular file", func(_ *testing.T, dir string) (string, string) {
					p := filepath.Join(dir, "afile")
					os.WriteFile(p, []byte("old\n"), 0o644)
					return filepath.Join(p, "sub"), p
				}},
				{"a named pipe", func(t *testing.T, dir string) (string, string) {
					p := filepath.Join(dir, "fifo")
					if err := clitest.Mkfifo(p); err != nil {
						t.Skip("no named pipes here:", err)
					}
					return p, ""
				}},
			} {
				t.Run(key+"/"+c.name, func(t *testing.T) {
					path, file := c.make(t, t.TempDir())
					code, _, e := runCmd(substitute(args, map[string]string{"OUT": path})...)
					if code != 2 || strings.Count(e, "\n") != 1 || !strings.Contains(e, "-"+f.Name+" ") || !strings.Contains(e, "not a directory") {
						t.Errorf("%s: exit %d, %q; want one line of refusal naming -%s, exit 2, before anything runs", path, code, e, f.Name)
					}
					if b, _ := os.ReadFile(file); file != "" && string(b) != "old\n" {
						t.Errorf("%s now holds %q", file, b)
					}
				})
			}
		})
	}
}
