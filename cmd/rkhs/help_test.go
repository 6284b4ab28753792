package main

import (
	"flag"
	"regexp"
	"testing"
)

// TestFlagHelpSentences walks every flag of every verb: a help text is
// whole sentences, so no clause after a semicolon starts as a new
// sentence would (a capital letter after "; " is the mark of a sentence
// cut when a clause was taken out).
func TestFlagHelpSentences(t *testing.T) {
	cut := regexp.MustCompile(`; [A-Z][a-z]`)
	for _, v := range verbs {
		verbFlags(v).VisitAll(func(f *flag.Flag) {
			if m := cut.FindStringIndex(f.Usage); m != nil {
				t.Errorf("%s -%s: %q…: a clause after a semicolon starts a sentence", v.name, f.Name, f.Usage[max(0, m[0]-40):m[1]+20])
			}
		})
	}
}
