package regress

import (
	"errors"
	"math"
	"strings"
	"testing"

	"rkhs/kernels"
	"rkhs/linalg"
)

// TestDivergenceHint: an iteration that diverges says what to change for
// the solver that ran: a step Eta only where the caller gave one; CG and
// CGLS, which have no step, and Landweber with the step it chose, point
// at the scale of the data.
func TestDivergenceHint(t *testing.T) {
	x := linalg.NewDense(4, 1, []float64{0.1, 0.5, 0.9, 0.3})
	y := linalg.NewDense(4, 1, []float64{math.MaxFloat64, -math.MaxFloat64, math.MaxFloat64, -math.MaxFloat64})
	small := linalg.NewDense(4, 1, []float64{1, 2, 0, 1})
	g := kernels.Gaussian{Sigma: 1}
	it := Iterative{MaxIter: 20}
	for _, c := range []struct {
		name string
		err  error
		eta  bool
	}{
		{"CGLS", errOf(CGLS{Kernel: g, Iterative: it}.Fit(x, y)), false},
		{"Landweber, chosen step", errOf(Landweber{Kernel: g, Iterative: it}.Fit(x, y)), false},
		{"Landweber, given step", errOf(Landweber{Kernel: g, Eta: 1e300, Iterative: it}.Fit(x, small)), true},
	} {
		if !errors.Is(c.err, linalg.ErrNoConvergence) || strings.Contains(c.err.Error(), "Eta") != c.eta {
			t.Errorf("%s: %v; want ErrNoConvergence, mentioning Eta: %v", c.name, c.err, c.eta)
		}
	}
}

func errOf[T any](_ T, err error) error { return err }

// TestLastResidual: with LastResidual the run keeps two residuals, the
// first and the last, equal to those of the full record, and the model is
// the same.
func TestLastResidual(t *testing.T) {
	x := linalg.NewDense(6, 1, []float64{0.1, 0.5, 0.9, 0.3, 0.7, 0.2})
	y := linalg.NewDense(6, 1, []float64{1, 2, 0, 1, 3, 2})
	g := kernels.Gaussian{Sigma: 0.5}
	full, err := CGLS{Kernel: g, Iterative: Iterative{MaxIter: 40}}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	short, err := CGLS{Kernel: g, Iterative: Iterative{MaxIter: 40, LastResidual: true}}.Fit(x, y)
	if err != nil {
		t.Fatal(err)
	}
	last := len(full.Residuals) - 1
	if len(short.Residuals) != 2 || short.Residuals[0] != full.Residuals[0] || short.Residuals[1] != full.Residuals[last] {
		t.Errorf("residuals %v, want [%v %v]", short.Residuals, full.Residuals[0], full.Residuals[last])
	}
	if short.Coef.At(3, 0) != full.Coef.At(3, 0) || short.Iterations != full.Iterations {
		t.Errorf("LastResidual changed the fit")
	}
}
