package cli

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// AutoValue is the value of a flag that takes a number or auto (-sigma,
// -lambda, -loo-rows): Auto when "auto" was given, V the number otherwise.
// A number is read as flag.Float64 reads it (strconv.ParseFloat).
type AutoValue struct {
	V    float64
	Auto bool
}

// String returns "auto" or the number.
func (a *AutoValue) String() string {
	if a.Auto {
		return "auto"
	}
	return strconv.FormatFloat(a.V, 'g', -1, 64)
}

// Set reads "auto" or a number, with flag.Float64's errors.
func (a *AutoValue) Set(s string) error {
	if s == "auto" {
		a.V, a.Auto = 0, true
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return errors.New("value out of range")
		}
		return errors.New("parse error")
	}
	a.V, a.Auto = v, false
	return nil
}

// WholeCount returns the number of a as a count of rows, for a flag such
// as -loo-rows: auto gives ok false; a number must be whole, ≥ 0 and at
// most 2³¹ − 1 (a count of rows that fits an int on every platform).
func (a *AutoValue) WholeCount(name string) (n int, ok bool, err error) {
	if a.Auto {
		return 0, false, nil
	}
	if v := a.V; v < 0 || v != math.Trunc(v) || v > math.MaxInt32 {
		return 0, false, BadInputf("-%s %v: want a whole number of rows from 0 to %d, or auto", name, v, math.MaxInt32)
	}
	return int(a.V), true, nil
}

// valueBool is a boolean flag whose value may also be a word, as
// Standardize is: -name alone, -name=word, and, after JoinValues,
// "-name word".
type valueBool interface {
	flag.Value
	IsBoolFlag() bool
	// Words are the values that may follow the flag as a separate
	// argument.
	Words() []string
}

// JoinValues returns args with every "-name word" (or "--name word") of a
// flag of fs that is boolean but also takes words (Standardize) joined
// into "-name=word", so that the usage "-standardize yes" reads as
// written: the flag package would take "yes" for a positional argument.
// Other arguments are returned as they are.
func JoinValues(fs *flag.FlagSet, args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		out = append(out, a)
		if a == "--" {
			return append(out, args[i+1:]...)
		}
		name, ok := strings.CutPrefix(strings.TrimPrefix(a, "-"), "-")
		if !ok {
			name = strings.TrimPrefix(a, "-")
		}
		if !strings.HasPrefix(a, "-") || strings.Contains(name, "=") || i+1 == len(args) {
			continue
		}
		f := fs.Lookup(name)
		if f == nil {
			continue
		}
		vb, ok := f.Value.(valueBool)
		if !ok {
			continue
		}
		for _, w := range vb.Words() {
			if strings.EqualFold(args[i+1], w) {
				out[len(out)-1] = fmt.Sprintf("-%s=%s", name, args[i+1])
				i++
				break
			}
		}
	}
	return out
}
