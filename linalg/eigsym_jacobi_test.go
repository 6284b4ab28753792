package linalg

import (
	"testing"
)

// jacobiSolver adapts EigenSymJacobi to the shared suite.
func jacobiSolver(a *Dense, wantVectors bool) ([]float64, *Dense, error) {
	var e EigenSymJacobi
	if err := e.Factorize(a, wantVectors); err != nil {
		return nil, nil, err
	}
	var v *Dense
	if wantVectors {
		v = e.VectorsTo(nil)
	}
	return e.Values(nil), v, nil
}

func TestEigenSymJacobi(t *testing.T) { testEigenSolver(t, jacobiSolver) }
