package cli

import (
	"fmt"
	"strings"
)

// Standardize is the value of -standardize: "auto" (the zero value),
// "yes" or "no". It is a boolean flag too (IsBoolFlag), so that
// -standardize alone means yes; a value is given as -standardize=no, or
// as -standardize no once the arguments went through JoinValues.
type Standardize struct{ Mode string }

// String returns the mode, "auto" for the zero value.
func (s *Standardize) String() string {
	if s == nil || s.Mode == "" {
		return "auto"
	}
	return s.Mode
}

// Set reads auto, yes or no (true/1 and false/0 as yes and no), in any
// case.
func (s *Standardize) Set(v string) error {
	switch strings.ToLower(v) {
	case "auto":
		s.Mode = "auto"
	case "yes", "true", "1":
		s.Mode = "yes"
	case "no", "false", "0":
		s.Mode = "no"
	default:
		return fmt.Errorf("%q: want auto, yes or no", v)
	}
	return nil
}

// IsBoolFlag lets -standardize stand alone (flag.Value's convention).
func (s *Standardize) IsBoolFlag() bool { return true }

// Words are the values "-standardize WORD" may take as a separate
// argument (see JoinValues).
func (s *Standardize) Words() []string {
	return []string{"auto", "yes", "no", "true", "false"}
}

// On reports whether a run standardizes, sigmaAuto saying whether σ is
// chosen from the data: auto is on exactly then, since the median
// heuristic measures distances that only make sense when the features
// share one scale.
func (s *Standardize) On(sigmaAuto bool) bool {
	switch s.Mode {
	case "yes":
		return true
	case "no":
		return false
	}
	return sigmaAuto
}
