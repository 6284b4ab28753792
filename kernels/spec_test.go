package kernels

import (
	"encoding/json"
	"errors"
	"testing"
)

func TestSpecRoundTrip(t *testing.T) {
	for _, k := range []Kernel{Linear{}, Polynomial{Degree: 3, Offset: 0.5}, Gaussian{Sigma: 0.1}, Laplacian{Sigma: 2}} {
		s, err := SpecOf(k)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		var s2 Spec
		if err := json.Unmarshal(b, &s2); err != nil {
			t.Fatal(err)
		}
		k2, err := s2.Kernel()
		if err != nil {
			t.Fatal(err)
		}
		if k2 != k {
			t.Errorf("%#v → %s → %#v", k, b, k2)
		}
	}
	if _, err := SpecOf(cosine{}); !errors.Is(err, ErrParameter) {
		t.Errorf("SpecOf(user kernel): %v", err)
	}
	for _, s := range []Spec{{Type: "rbf"}, {Type: "gaussian"}, {Type: "polynomial", Degree: 0}} {
		if _, err := s.Kernel(); !errors.Is(err, ErrParameter) {
			t.Errorf("%+v: %v", s, err)
		}
	}
}
