package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestDeadLetterRewritten: every verb with a -dead-letter output rewrites
// the file on every run, with the lines set aside in that run: an
// earlier run's lines do not survive a run that sets none aside, and a
// run that sets one aside holds it alone.
func TestDeadLetterRewritten(t *testing.T) {
	shared := t.TempDir()
	trainingFiles(t, shared)
	n := 0
	for _, v := range verbs {
		if !slices.Contains(v.outputs, "dead-letter") {
			continue
		}
		n++
		for _, c := range []struct {
			input string
			lines int
		}{{"clean.csv", 0}, {"train.csv", 1}} {
			dir := t.TempDir()
			for _, name := range []string{"clean.csv", "train.csv", "model.json", "stats.bin"} {
				b, _ := os.ReadFile(filepath.Join(shared, name))
				os.WriteFile(filepath.Join(dir, name), b, 0o644)
			}
			fx := fixtures[v.name](t, dir)
			args := slices.Clone(fx.args)
			for i, a := range args {
				if a == "train.csv" {
					args[i] = c.input
				}
			}
			for _, name := range v.outputs {
				args = append(args, "-"+name, fx.outputs[name])
			}
			dead := filepath.Join(dir, fx.outputs["dead-letter"])
			if err := os.WriteFile(dead, []byte("an earlier run's line\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if code, out := rkhsBeam(t, dir, args...); code != 0 {
				t.Fatalf("%s on %s: exit %d: %s", v.name, c.input, code, out)
			}
			b, err := os.ReadFile(dead)
			if got := bytes.Count(b, []byte("\n")); err != nil || got != c.lines || string(b) == "an earlier run's line\n" {
				t.Errorf("%s on %s: -dead-letter holds %q (%v), want %d lines of this run", v.name, c.input, b, err, c.lines)
			}
		}
	}
	if n == 0 {
		t.Fatal("no verb has a -dead-letter output")
	}
}
