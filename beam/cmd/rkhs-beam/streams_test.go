package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"rkhs/internal/cli/clitest"
)

// redirectedBeam runs rkhs-beam args in dir with standard output and
// standard error sent to files there, and returns its exit status and
// what those files hold.
func redirectedBeam(t *testing.T, dir string, args []string) (code int, stdout, stderr []byte) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "RKHS_BEAM_ARGS="+strings.Join(args, "\x1f"))
	return clitest.Redirected(t, cmd, dir)
}

// TestEveryOutputOnStreams walks the verb table as
// TestEveryOutputOfEveryVerb does, with each name of a standard stream
// (clitest.StreamCases: /dev/fd/1, /proc/self/fd/1, /dev/stderr, a link to
// one, …) while both streams are redirected to files: the output lands in
// that stream's file beside what the verb writes there when the output
// goes to a file of its own, and the other stream is as it is then.
func TestEveryOutputOnStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("runs rkhs-beam for every output flag and stream name")
	}
	shared := t.TempDir()
	trainingFiles(t, shared)
	for _, v := range verbs {
		setup, ok := fixtures[v.name]
		if !ok {
			t.Errorf("verb %s has no fixture: its outputs are not tested", v.name)
			continue
		}
		for _, out := range v.outputs {
			t.Run(v.name+"/-"+out, func(t *testing.T) {
				dir := t.TempDir()
				for _, name := range []string{"clean.csv", "train.csv", "model.json", "stats.bin"} {
					b, _ := os.ReadFile(filepath.Join(shared, name))
					os.WriteFile(filepath.Join(dir, name), b, 0o644)
				}
				fx := setup(t, dir)
				argsWith := func(path string) []string {
					args := slices.Clone(fx.args)
					for _, name := range v.outputs {
						p := fx.outputs[name]
						if name == out {
							p = path
						}
						args = append(args, "-"+name, p)
					}
					return args
				}
				code, so, se := redirectedBeam(t, dir, argsWith("alone.out"))
				if code != 0 {
					t.Fatalf("to a file: exit %d: %s", code, se)
				}
				alone := [3][]byte{1: so, 2: se}
				output, err := os.ReadFile(filepath.Join(dir, "alone.out"))
				if err != nil {
					t.Fatal(err)
				}
				if len(output) == 0 {
					t.Skipf("-%s writes nothing here: there is nothing to find in a stream", out)
				}
				for _, c := range clitest.StreamCases {
					t.Run(c.Name, func(t *testing.T) {
						code, so, se := redirectedBeam(t, dir, argsWith(c.Path(t, dir)))
						if code != 0 {
							t.Fatalf("exit %d: %s", code, se)
						}
						got := [3][]byte{1: so, 2: se}
						names := [3]string{1: "standard output", 2: "standard error"}
						clitest.CheckStream(t, names[c.Stream], got[c.Stream], alone[c.Stream], output)
						if o := 3 - c.Stream; strings.Count(string(got[o]), "\n") != strings.Count(string(alone[o]), "\n") {
							t.Errorf("%s: %q, want as many lines as %q", names[o], got[o], alone[o])
						}
					})
				}
			})
		}
	}
}
