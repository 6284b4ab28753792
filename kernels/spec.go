package kernels

import "rkhs/internal/check"

// Spec is a serializable description of one of this package's kernels, for
// saving models and for command-line flags. Type is "linear",
// "polynomial", "gaussian" or "laplacian"; the other fields are the
// parameters of that type (zero for the others).
type Spec struct {
	Type   string  `json:"type"`
	Sigma  float64 `json:"sigma,omitempty"`
	Degree int     `json:"degree,omitempty"`
	Offset float64 `json:"offset,omitempty"`
}

// SpecOf returns the Spec of k. It fails with an ErrParameter InputError for
// kernels not defined in this package (a user-defined kernel cannot be
// saved by name).
func SpecOf(k Kernel) (Spec, error) {
	switch kk := k.(type) {
	case Linear:
		return Spec{Type: "linear"}, nil
	case Polynomial:
		return Spec{Type: "polynomial", Degree: kk.Degree, Offset: kk.Offset}, nil
	case Gaussian:
		return Spec{Type: "gaussian", Sigma: kk.Sigma}, nil
	case Laplacian:
		return Spec{Type: "laplacian", Sigma: kk.Sigma}, nil
	}
	return Spec{}, check.Input(ErrParameter, "SpecOf", "k", "kernel of type %T has no Spec (only this package's kernels do)", k)
}

// Kernel returns the kernel s describes, after validating its parameters;
// errors are *linalg.InputError values wrapping ErrParameter.
func (s Spec) Kernel() (Kernel, error) {
	var k Kernel
	switch s.Type {
	case "linear":
		k = Linear{}
	case "polynomial":
		k = Polynomial{Degree: s.Degree, Offset: s.Offset}
	case "gaussian":
		k = Gaussian{Sigma: s.Sigma}
	case "laplacian":
		k = Laplacian{Sigma: s.Sigma}
	default:
		return nil, check.Input(ErrParameter, "Spec.Kernel", "Type", "unknown kernel type %q (want linear, polynomial, gaussian or laplacian)", s.Type)
	}
	if err := check.Kernel(ErrParameter, "Spec.Kernel", "", k); err != nil {
		return nil, err
	}
	return k, nil
}
