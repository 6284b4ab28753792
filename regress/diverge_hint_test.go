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
