package classify

import (
	"math"

	"rkhs/internal/check"
	"rkhs/internal/codec"
	"rkhs/kernels"
	"rkhs/linalg"
)

// Models are saved as JSON objects, versioned by their "format" and
// "version" fields, through the codec package regress uses too
// (rkhs/internal/codec). Every file names its kernel by a kernels.Spec and
// its classes, the distinct training labels in ascending order; matrices
// are {"rows", "cols", "data"} with the data row-major, as in package
// regress.
//
//	{"format": "rkhs.classify.PerceptronModel", "version": 2,
//	 "feature_names": ["x0", "x1", …], "target_name": "label",
//	 "kernel": {"type": "gaussian", "sigma": 2},
//	 "classes": [-1, 1],
//	 "centers": {"rows": m, "cols": d, "data": [… m·d numbers …]},
//	 "coef": [… m numbers …], "intercept": b,
//	 "passes": 7, "mistakes": 52, "converged": true}
//
//	{"format": "rkhs.classify.LogisticModel", "version": 2,
//	 "kernel": …, "classes": […], "centers": …, "coef": […], "intercept": b,
//	 "iterations": 200, "converged": false, "grad_norm": g,
//	 "objective": F, "lipschitz": L}
//
//	{"format": "rkhs.classify.SVMModel", "version": 2,
//	 "kernel": …, "classes": […], "centers": …, "coef": […], "intercept": b,
//	 "objective": F, "best_iter": 1987}
//
//	{"format": "rkhs.classify.KNNModel", "version": 1,
//	 "kernel": …, "k": 5, "classes": […],
//	 "x": {"rows": n, "cols": d, "data": […]}, "labels": [… n labels …]}
//
//	{"format": "rkhs.classify.RLSModel", "version": 1,
//	 "classes": […], "one_vs_all": false, "lambda": λ,
//	 "model": {"format": "rkhs.regress.Model", "version": 1, …},
//	 "loo_lambdas": […], "loo_errors": […], "loo_mse": […]}
//
// The perceptron, logistic and SVM files hold the expansion f(x) =
// Σⱼ coef[j]·k(x, centers[j]) + intercept with two classes (the first
// coded −1); version 1 of their formats, which named the intercept "bias",
// is still read. An RLS file holds the regress.Model it wraps, in that
// package's format, with one column of coefficients for a binary model and
// one per class for one-vs-all; loo_lambdas, loo_errors and loo_mse are
// present only when λ was chosen by leave-one-out (loo_mse may be absent
// from older files). A k-NN file holds the training
// points and their labels; the k(xⱼ, xⱼ) it caches are recomputed on
// loading.
//
// feature_names and target_name, the names of the training data's columns
// (the models' FeatureNames and TargetName), may come after the header of
// any of these files (in an RLS file, in its regress.Model), and are
// present only when the model has them: files without them, those of
// older writers included, load. So may standardization, after them
// (the models' Standardization, kernels.Standardization):
// {"mean": [… d numbers …], "scale": [… d numbers …]}, present only when
// the model standardizes its features, so that a model without one writes
// the file it wrote before the key existed. Files are read strictly
// (rkhs/internal/codec): keys exactly as written here, each once, no
// others, values of the types shown, and a kernel with "type" and the
// parameters of that type only.
//
// Numbers are written as the shortest decimals that read back as the same
// float64 (encoding/json's rule), so a loaded model's predictions, scores,
// probabilities and k-NN means are bit-identical to the fitted model's.
// Only the kernels of package kernels can be saved.
//
// Diagnostics: the scalar outcome of a fit is kept (passes, mistakes,
// iterations, convergence, objective, gradient norm, step constant, best
// iterate), and so is RLS's leave-one-out curve, which records how λ was
// chosen and is as long as the λ grid. The per-training-point and
// per-step records are dropped, and are nil in a loaded model:
// PerceptronModel.Alpha (one count per training point, while the file
// keeps only the points with a nonzero count, and not their indices),
// LogisticModel.History and SVMModel.History (one value per step, as
// many as MaxIter allows). They describe the run, not the function, and
// nothing reads them after the fit.
//
// Loading checks the format, the version, the kernel, the classes
// (finite, strictly ascending, two for the binary models), that the
// shapes agree and that every number prediction reads is finite; errors
// are *linalg.InputError values wrapping ErrInput, with Op the method
// (e.g. "SVMModel.UnmarshalJSON") and Arg the field of the file.

const (
	perceptronFormat = "rkhs.classify.PerceptronModel"
	knnFormat        = "rkhs.classify.KNNModel"
	rlsFormat        = "rkhs.classify.RLSModel"
	logisticFormat   = "rkhs.classify.LogisticModel"
	svmFormat        = "rkhs.classify.SVMModel"
	// expansionVersion is the version of the perceptron, logistic and SVM
	// formats: 2 names the offset "intercept", 1 named it "bias".
	expansionVersion = 2
	// formatVersion is the version of the k-NN and RLS formats.
	formatVersion = 1
)

var (
	expansionVersions = []int{1, expansionVersion}
	readVersions      = []int{formatVersion}
)

// checkClasses requires classes a fit could have produced: finite,
// strictly ascending, no −0 (fits write 0), and exactly want of them, or
// at least two when want is 0.
func checkClasses(op string, classes []float64, want int) error {
	switch {
	case want > 0 && len(classes) != want:
		return inputError(op, "classes", "%d classes %s, want %d", len(classes), listClasses(classes), want)
	case len(classes) < 2:
		return inputError(op, "classes", "%d classes %s, want two or more", len(classes), listClasses(classes))
	}
	if err := check.Vector(ErrInput, op, "classes", classes); err != nil {
		return err
	}
	for i, c := range classes {
		if math.Signbit(c) && c == 0 {
			return inputError(op, "classes", "classes[%d] is −0; write 0", i)
		}
		if i > 0 && !(classes[i-1] < c) {
			return inputError(op, "classes", "%s not strictly ascending", listClasses(classes))
		}
	}
	return nil
}

// specOf returns the Spec of a model's kernel (the field arg) for saving;
// user-defined kernels have none.
func specOf(op, arg string, k kernels.Kernel) (kernels.Spec, error) {
	s, err := kernels.SpecOf(k)
	if err != nil {
		return kernels.Spec{}, &linalg.InputError{Op: op, Arg: arg, Reason: "cannot be saved: " + err.Error(), Kind: ErrInput, Err: err}
	}
	return s, nil
}

// kernelOf returns the kernel a file names, validated.
func kernelOf(op string, s kernels.Spec) (kernels.Kernel, error) {
	return codec.Kernel(ErrInput, op, s)
}

func checkCountField(op, name string, v int) error {
	return check.Count(ErrInput, op, name, v, 0)
}

// expansionJSON holds the fields of the binary expansion models
// (perceptron, logistic, SVM): f(x) = Σⱼ coef[j]·k(x, centers[j]) +
// intercept. Bias is the intercept of version 1 files.
type expansionJSON struct {
	codec.Header
	codec.Columns
	Standardization *kernels.Standardization `json:"standardization,omitempty"`
	Kernel          kernels.Spec             `json:"kernel"`
	Classes         []float64                `json:"classes"`
	Centers         codec.Matrix             `json:"centers"`
	Coef            []float64                `json:"coef"`
	Intercept       float64                  `json:"intercept"`
	Bias            *float64                 `json:"bias,omitempty"`
}

// encode checks the expansion e of a model (as Scores does) and the
// names of its columns, and returns its fields for a file of the given
// format.
func (e *expansion) encode(op, model, format string) (expansionJSON, error) {
	if err := e.check(op, model); err != nil {
		return expansionJSON{}, err
	}
	cols, err := codec.EncodeColumns(ErrInput, op, model, e.features, e.target, e.centers.Cols)
	if err != nil {
		return expansionJSON{}, err
	}
	spec, err := specOf(op, model+".Kernel", e.kernel)
	if err != nil {
		return expansionJSON{}, err
	}
	c, err := codec.EncodeMatrix(ErrInput, op, model+".Centers", e.centers)
	if err != nil {
		return expansionJSON{}, err
	}
	coef := e.coef
	if coef == nil {
		coef = []float64{} // [], not null, for a model without support vectors
	}
	return expansionJSON{Header: codec.Header{Format: format, Version: expansionVersion}, Columns: cols, Standardization: e.std, Kernel: spec, Classes: e.classes, Centers: c, Coef: coef, Intercept: e.b}, nil
}

// decodeExpansion reads a file of the given format into mj (which embeds
// an expansionJSON, reached by ex) and returns the checked expansion.
func decodeExpansion(op, format string, b []byte, mj any, ex *expansionJSON) (*expansion, error) {
	version, err := codec.Decode(ErrInput, op, format, expansionVersions, b, mj, "coef") // null: no support vectors, as older files wrote it
	if err != nil {
		return nil, err
	}
	intercept := ex.Intercept
	switch {
	case version == 1 && ex.Bias != nil:
		intercept = *ex.Bias
	case version > 1 && ex.Bias != nil:
		return nil, inputError(op, "bias", "a version 1 field in a version %d file (write intercept)", version)
	}
	k, err := kernelOf(op, ex.Kernel)
	if err != nil {
		return nil, err
	}
	if err := checkClasses(op, ex.Classes, 2); err != nil {
		return nil, err
	}
	centers, err := ex.Centers.Decode(ErrInput, op, "centers", 0)
	if err != nil {
		return nil, err
	}
	if err := codec.Vector(ErrInput, op, "coef", ex.Coef, centers.Rows); err != nil {
		return nil, err
	}
	if err := check.Finite1(ErrInput, op, "intercept", intercept); err != nil {
		return nil, err
	}
	features, target, err := ex.Columns.Decode(ErrInput, op, centers.Cols)
	if err != nil {
		return nil, err
	}
	if err := codec.DecodeStandardization(ErrInput, op, ex.Standardization, centers.Cols); err != nil {
		return nil, err
	}
	return &expansion{kernel: k, classes: ex.Classes, centers: centers, coef: ex.Coef, b: intercept, features: features, target: target, std: ex.Standardization}, nil
}
