package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"rkhs/internal/cli/clitest"
	"rkhs/internal/outfile"
)

// TestOutputCases: every shared output case, run through CheckOutputs and
// WriteFile as a command runs them, ends as the case expects.
func TestOutputCases(t *testing.T) {
	for _, c := range clitest.Cases {
		t.Run(c.Name, func(t *testing.T) {
			dir := t.TempDir()
			input := filepath.Join(dir, "train.csv")
			if err := os.WriteFile(input, []byte("a,y\n1,2\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			other := filepath.Join(dir, "other.out")
			path, want, check := c.Path(t, clitest.Env{Dir: dir, Input: input, Other: other})
			err := CheckOutputs([]Input{{Flag: "train", Value: input}}, []Output{{"model", other}, {"plot", path}})
			if want == clitest.Refused {
				if Status(err) != 2 {
					t.Fatalf("%s: %v, want a refusal (status 2)", path, err)
				}
				if b, _ := os.ReadFile(input); string(b) != "a,y\n1,2\n" {
					t.Errorf("the input changed: %q", b)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s: %v, want it accepted", path, err)
			}
			var stdout bytes.Buffer
			if err := outfile.WriteFile(path, []byte("<svg/>\n"), &stdout); err != nil {
				t.Fatalf("outfile.WriteFile(%s): %v", path, err)
			}
			check(t, stdout.Bytes())
		})
	}
}

// TestCheckOutputsMessages: each refusal names the flags and the cause; a
// glob's match is named as one.
func TestCheckOutputsMessages(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.csv"), filepath.Join(dir, "b.csv")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hard := filepath.Join(dir, "hard.csv")
	if err := os.Link(b, hard); err != nil {
		t.Skip("no hard links here:", err)
	}
	glob := []Input{{Flag: "input", Value: filepath.Join(dir, "*.csv"), Paths: []string{a, b}}}
	for _, c := range []struct {
		name    string
		inputs  []Input
		outputs []Output
		want    string
	}{
		{"glob match", glob, []Output{{"model", b}}, "-model " + b + " and the file " + b + " that -input " + filepath.Join(dir, "*.csv") + " matches are the same file"},
		{"hard link", glob, []Output{{"model", hard}}, "are the same file"},
		{"outputs", nil, []Output{{"model", "/dev/null"}, {"plot", "/dev/null"}}, "-plot /dev/null and -model /dev/null are the same file"},
		{"stdout twice", nil, []Output{{"predictions", "-"}, {"plot", "/dev/stdout"}}, "-plot /dev/stdout and -predictions - are the same file"},
		{"missing directory", nil, []Output{{"model", filepath.Join(dir, "x", "m.json")}}, "the directory " + filepath.Join(dir, "x") + " does not exist"},
		{"directory", nil, []Output{{"model", dir}}, "is a directory"},
	} {
		err := CheckOutputs(c.inputs, c.outputs)
		var bad BadInput
		if !errors.As(err, &bad) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a BadInput containing %q", c.name, err, c.want)
		}
	}
	if err := CheckOutputs(glob, []Output{{"model", filepath.Join(dir, "m.json")}, {"plot", ""}}); err != nil {
		t.Errorf("a new file beside the inputs: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
		t.Errorf("CheckOutputs left %v behind", left)
	}
}

// TestWriteFileReplaces: an old file is replaced whole.
func TestWriteFileReplaces(t *testing.T) {
	p := filepath.Join(t.TempDir(), "out")
	if err := os.WriteFile(p, []byte("a much longer old content\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := outfile.WriteFile(p, []byte("new\n"), nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new\n" {
		t.Errorf("%q, want \"new\\n\"", b)
	}
}
