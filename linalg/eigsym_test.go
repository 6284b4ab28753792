package linalg

import "testing"

func eigenSymSolver(a *Dense, wantVectors bool) ([]float64, *Dense, error) {
	var e EigenSym
	if err := e.Factorize(a, wantVectors); err != nil {
		return nil, nil, err
	}
	var v *Dense
	if wantVectors {
		v = e.VectorsTo(nil)
	}
	return e.Values(nil), v, nil
}

// TestEigenSym runs the shared suite of symmetric eigensolvers on EigenSym
// (Householder tridiagonalization, divide and conquer, back-transformation).
func TestEigenSym(t *testing.T) { testEigenSolver(t, eigenSymSolver) }
