package main

import (
	"slices"
	"strings"
	"testing"
)

// TestListedInterceptsRun walks the method table: every -intercept value a
// method lists fits (exit 0) on the method's row of methodRuns, and the
// -intercept help names exactly the values of every method that lists
// fewer than all, so that the help offers nothing the fit then refuses.
func TestListedInterceptsRun(t *testing.T) {
	dir := t.TempDir()
	files := tinyFiles(t, dir)
	heartTrain, _ := splitSet(t, dir, "heart", "", 150)
	for _, v := range verbs {
		if v.name != "fit" && v.name != "classify" {
			continue
		}
		help := verbFlags(v).Lookup("intercept").Usage
		for _, m := range methodsOf(v.name) {
			if m.intercepts != nil && len(m.intercepts) < len(everyIntercept) {
				if want := m.name + ": " + strings.Join(m.intercepts, " or "); !strings.Contains(help, want) {
					t.Errorf("%s -intercept help %q lacks %q", v.name, help, want)
				}
			}
			train := files["TRAIN"]
			if v.name == "classify" {
				train = heartTrain
			}
			for _, ic := range everyIntercept {
				args := append([]string{v.name, "-train", train, "-method", m.name, "-intercept", ic}, withoutIntercept(methodRuns[v.name+" "+m.name])...)
				code, _, e := runCmd(args...)
				if listed := slices.Contains(m.intercepts, ic); listed && code != 0 {
					t.Errorf("%s -method %s lists -intercept %s, which exits %d: %s", v.name, m.name, ic, code, e)
				} else if !listed && code == 0 {
					t.Errorf("%s -method %s accepts -intercept %s, which it does not list", v.name, m.name, ic)
				}
			}
		}
	}
}

// withoutIntercept returns args without an -intercept flag and its value.
func withoutIntercept(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		if args[i] == "-intercept" {
			i++
			continue
		}
		out = append(out, args[i])
	}
	return out
}
