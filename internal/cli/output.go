package cli

import (
	"fmt"

	"rkhs/internal/outfile"
)

// Output is an output flag of a command and the path it was given ("" for
// none).
type Output struct{ Flag, Path string }

// Input is an input flag of a command, its value and the files it reads:
// Paths nil for the one file Value names, or every file its globs match.
type Input struct {
	Flag, Value string
	Paths       []string
}

// CheckOutputs makes sure, before any long computation, that every output
// can be written (outfile.Check) and is neither an input file, nor a file
// an input glob matched, nor another output (outfile.Same: the same path,
// or the same file by another name or link). Outputs with an empty path
// are not given and not checked. The errors are BadInput, naming the
// flags.
func CheckOutputs(inputs []Input, outputs []Output) error {
	for i, o := range outputs {
		if o.Path == "" {
			continue
		}
		for _, in := range inputs {
			paths := in.Paths
			if paths == nil {
				paths = []string{in.Value}
			}
			for _, p := range paths {
				if outfile.Same(o.Path, p) {
					what := "-" + in.Flag + " " + p
					if p != in.Value {
						what = fmt.Sprintf("the file %s that -%s %s matches", p, in.Flag, in.Value)
					}
					return BadInputf("-%s %s and %s are the same file: the output would overwrite the input", o.Flag, o.Path, what)
				}
			}
		}
		for _, prev := range outputs[:i] {
			if outfile.Same(o.Path, prev.Path) {
				return BadInputf("-%s %s and -%s %s are the same file: one would overwrite the other", o.Flag, o.Path, prev.Flag, prev.Path)
			}
		}
		if err := outfile.Check(o.Path); err != nil {
			return BadInputf("-%s %s: %v", o.Flag, o.Path, err)
		}
	}
	return nil
}

// CheckOutputDir makes sure, before any long computation, that path can
// be the directory the output flag names (outfile.CheckDir); the error is
// a BadInput naming the flag.
func CheckOutputDir(flag, path string) error {
	if err := outfile.CheckDir(path); err != nil {
		return BadInputf("-%s %s: %v", flag, path, err)
	}
	return nil
}
