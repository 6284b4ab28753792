package cli

import "testing"

func TestStandardize(t *testing.T) {
	for _, c := range []struct {
		in, mode string
		bad      bool
	}{{"auto", "auto", false}, {"YES", "yes", false}, {"true", "yes", false}, {"1", "yes", false},
		{"no", "no", false}, {"false", "no", false}, {"0", "no", false}, {"maybe", "", true}} {
		var s Standardize
		err := s.Set(c.in)
		if (err != nil) != c.bad || s.Mode != c.mode {
			t.Errorf("Set(%q): mode %q, error %v; want %q, error %v", c.in, s.Mode, err, c.mode, c.bad)
		}
	}
	for _, c := range []struct {
		mode            string
		sigmaAuto, want bool
	}{{"", false, false}, {"", true, true}, {"auto", true, true}, {"auto", false, false},
		{"yes", false, true}, {"no", true, false}} {
		s := Standardize{c.mode}
		if got := s.On(c.sigmaAuto); got != c.want {
			t.Errorf("mode %q, σ auto %v: On %v, want %v", c.mode, c.sigmaAuto, got, c.want)
		}
	}
	if s := (*Standardize)(nil); s.String() != "auto" {
		t.Errorf("nil String: %q", s.String())
	}
}
