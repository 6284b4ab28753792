package report

import (
	"encoding/json"
	"math"
	"testing"

	"rkhs/loo"
	"rkhs/optimize"
)

// TestJSONFloat: non-finite values are null, others the shortest form.
func TestJSONFloat(t *testing.T) {
	for v, want := range map[float64]string{0.1: "0.1", 1e300: "1e+300", -2: "-2"} {
		if b, _ := JSONFloat(v).MarshalJSON(); string(b) != want {
			t.Errorf("%v: %s, want %s", v, b, want)
		}
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if b, _ := JSONFloat(v).MarshalJSON(); string(b) != "null" {
			t.Errorf("%v: %s, want null", v, b)
		}
	}
}

// TestScalesJSON: the fields carry the scales in column order and the
// descent; a nil report has none.
func TestScalesJSON(t *testing.T) {
	sel := &loo.ScaleSelection{Sigmas: []float64{900, 1.5, 2, 3.25}, Lambda: 1e-4, Objective: 0.25, StdErr: 0.01,
		ErrorRate: 0.1, ErrorRateStdErr: 0.02, LOORows: 50, Start: 0.5, History: []float64{0.4, 0.3, 0.26},
		Iterations: 3, Evaluations: 4, Stop: optimize.StopRelTol, Constant: []int{3}, FitRows: 80}
	s := &Scales{Sel: sel, Criterion: loo.LOOErrorRate, Sigma: 2, Lambda: 1e-3, Rows: 100}
	raw, err := json.Marshal(s.Fields())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"sigmas":[900,1.5,2,3.25],"ard_ranking":[1,2,0,3],"ard_constant":[3],"ard_criterion":"loo_mse","ard_objective":0.25,"ard_stderr":0.01,"ard_loo_rows":50,"ard_loo_error":0.1,"ard_loo_error_stderr":0.02,"ard_rows":80,"ard_start":0.5,"ard_history":[0.4,0.3,0.26],"ard_iterations":3,"ard_evaluations":4,"ard_stop":"relative tolerance"}`
	if string(raw) != want {
		t.Errorf("fields\n%s, want\n%s", raw, want)
	}
	if (*Scales)(nil).Fields() != nil {
		t.Error("a nil report has fields")
	}
}
