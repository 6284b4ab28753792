package classify

import (
	"encoding/json"
	"fmt"
	"math"

	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/regress"
)

// Models are saved as JSON objects, versioned by their "format" and
// "version" fields. Every file names its kernel by a kernels.Spec and its
// classes, the distinct training labels in ascending order; matrices are
// {"rows", "cols", "data"} with the data row-major, as in package regress.
//
//	{"format": "rkhs.classify.PerceptronModel", "version": 1,
//	 "kernel": {"type": "gaussian", "sigma": 2},
//	 "classes": [-1, 1],
//	 "centers": {"rows": m, "cols": d, "data": [… m·d numbers …]},
//	 "coef": [… m numbers …], "bias": b,
//	 "passes": 7, "mistakes": 52, "converged": true}
//
//	{"format": "rkhs.classify.LogisticModel", "version": 1,
//	 "kernel": …, "classes": […], "centers": …, "coef": […], "bias": b,
//	 "iterations": 200, "converged": false, "grad_norm": g,
//	 "objective": F, "lipschitz": L}
//
//	{"format": "rkhs.classify.SVMModel", "version": 1,
//	 "kernel": …, "classes": […], "centers": …, "coef": […], "bias": b,
//	 "objective": F, "best_iter": 1987}
//
//	{"format": "rkhs.classify.KNNModel", "version": 1,
//	 "kernel": …, "k": 5, "classes": […],
//	 "x": {"rows": n, "cols": d, "data": […]}, "labels": [… n labels …]}
//
//	{"format": "rkhs.classify.RLSModel", "version": 1,
//	 "classes": […], "one_vs_all": false, "lambda": λ,
//	 "model": {"format": "rkhs.regress.Model", "version": 1, …},
//	 "loo_lambdas": […], "loo_errors": […]}
//
// The perceptron, logistic and SVM files hold the expansion f(x) =
// Σⱼ coef[j]·k(x, centers[j]) + bias with two classes (the first coded
// −1). An RLS file holds the regress.Model it wraps, in that package's
// format, with one column of coefficients for a binary model and one per
// class for one-vs-all; loo_lambdas and loo_errors are present only when λ
// was chosen by leave-one-out. A k-NN file holds the training points and
// their labels; the k(xⱼ, xⱼ) it caches are recomputed on loading.
//
// Numbers are written as the shortest decimals that read back as the same
// float64 (encoding/json's rule), so a loaded model's predictions, scores,
// probabilities and k-NN means are bit-identical to the fitted model's. Only the kernels of package kernels
// can be saved.
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
// are *InputError values wrapping ErrInput, with Op the method (e.g.
// "SVMModel.UnmarshalJSON") and Arg the field of the file.

const (
	perceptronFormat = "rkhs.classify.PerceptronModel"
	knnFormat        = "rkhs.classify.KNNModel"
	rlsFormat        = "rkhs.classify.RLSModel"
	logisticFormat   = "rkhs.classify.LogisticModel"
	svmFormat        = "rkhs.classify.SVMModel"
	formatVersion    = 1
)

// fileHeader is the start of every model file.
type fileHeader struct {
	Format  string `json:"format"`
	Version int    `json:"version"`
}

func (h fileHeader) check(op, want string) error {
	if h.Format != want {
		return inputError(op, "format", "%q, want %q", h.Format, want)
	}
	if h.Version != formatVersion {
		return inputError(op, "version", "%s version %d, this build reads version %d", h.Format, h.Version, formatVersion)
	}
	return nil
}

// matrixJSON is a row-major matrix in a model file.
type matrixJSON struct {
	Rows int       `json:"rows"`
	Cols int       `json:"cols"`
	Data []float64 `json:"data"`
}

// toMatrixJSON copies m for saving, refusing a matrix that is nil,
// malformed or not finite (a model that no fit produced).
func toMatrixJSON(op, name string, m *linalg.Dense) (matrixJSON, error) {
	if err := checkMatrix(op, name, m, false); err != nil {
		return matrixJSON{}, err
	}
	c := m.Clone()
	return matrixJSON{Rows: c.Rows, Cols: c.Cols, Data: c.Data}, nil
}

// dense returns the matrix of a model file: at least one column, as many
// values as rows·cols (checked without overflow), all finite.
func (mj matrixJSON) dense(op, name string) (*linalg.Dense, error) {
	if mj.Rows < 0 || mj.Cols < 1 || len(mj.Data)%mj.Cols != 0 || len(mj.Data)/mj.Cols != mj.Rows {
		return nil, inputError(op, name, "%d×%d with %d values", mj.Rows, mj.Cols, len(mj.Data))
	}
	if err := checkFiniteSlice(op, name+".data", mj.Data); err != nil {
		return nil, err
	}
	return linalg.NewDense(mj.Rows, mj.Cols, mj.Data), nil
}

func checkFiniteSlice(op, name string, v []float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return inputError(op, fmt.Sprintf("%s[%d]", name, i), "is %v", x)
		}
	}
	return nil
}

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
	if err := checkFiniteSlice(op, "classes", classes); err != nil {
		return err
	}
	for i, c := range classes {
		if math.Signbit(c) && c == 0 {
			return inputError(op, fmt.Sprintf("classes[%d]", i), "is −0; write 0")
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
		return kernels.Spec{}, &InputError{Op: op, Arg: arg, Reason: "cannot be saved: " + err.Error(), Err: err}
	}
	return s, nil
}

// kernelOf returns the kernel a file names, validated.
func kernelOf(op string, s kernels.Spec) (kernels.Kernel, error) {
	k, err := s.Kernel()
	if err != nil {
		return nil, &InputError{Op: op, Arg: "kernel", Reason: err.Error(), Err: err}
	}
	return k, nil
}

// decodeFile checks the format and version of the file b, then
// unmarshals it into v. Malformed JSON (and numbers out of float64 range)
// is an InputError on the "model file"; the header is read first, so that
// a file of another kind is reported by its format, not by the first field
// of the wrong type.
func decodeFile(op, format string, b []byte, v any) error {
	var h fileHeader
	if err := json.Unmarshal(b, &h); err != nil {
		return &InputError{Op: op, Arg: "model file", Reason: err.Error(), Err: err}
	}
	if err := h.check(op, format); err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return &InputError{Op: op, Arg: "model file", Reason: err.Error(), Err: err}
	}
	return nil
}

func checkCountField(op, name string, v int) error {
	if v < 0 {
		return inputError(op, name, "%d, must be ≥ 0", v)
	}
	return nil
}

// expansionJSON holds the fields of the binary expansion models
// (perceptron, logistic, SVM): f(x) = Σⱼ coef[j]·k(x, centers[j]) + bias.
type expansionJSON struct {
	fileHeader
	Kernel  kernels.Spec `json:"kernel"`
	Classes []float64    `json:"classes"`
	Centers matrixJSON   `json:"centers"`
	Coef    []float64    `json:"coef"`
	Bias    float64      `json:"bias"`
}

// expansion is the decoded, validated form of expansionJSON.
type expansion struct {
	kernel  kernels.Kernel
	classes []float64
	centers *linalg.Dense
	coef    []float64
	bias    float64
}

func newExpansionJSON(op, format string, k kernels.Kernel, classes []float64, centers *linalg.Dense, coef []float64, bias float64) (expansionJSON, error) {
	spec, err := specOf(op, "Kernel", k)
	if err != nil {
		return expansionJSON{}, err
	}
	c, err := toMatrixJSON(op, "Centers", centers)
	if err != nil {
		return expansionJSON{}, err
	}
	return expansionJSON{fileHeader: fileHeader{format, formatVersion}, Kernel: spec, Classes: classes, Centers: c, Coef: coef, Bias: bias}, nil
}

// decode checks and returns the expansion; the header has been checked.
func (e *expansionJSON) decode(op string) (expansion, error) {
	k, err := kernelOf(op, e.Kernel)
	if err != nil {
		return expansion{}, err
	}
	if err := checkClasses(op, e.Classes, 2); err != nil {
		return expansion{}, err
	}
	centers, err := e.Centers.dense(op, "centers")
	if err != nil {
		return expansion{}, err
	}
	if len(e.Coef) != centers.Rows {
		return expansion{}, inputError(op, "coef", "%d coefficients for %d centres", len(e.Coef), centers.Rows)
	}
	if err := checkFiniteSlice(op, "coef", e.Coef); err != nil {
		return expansion{}, err
	}
	if math.IsNaN(e.Bias) || math.IsInf(e.Bias, 0) {
		return expansion{}, inputError(op, "bias", "is %v", e.Bias)
	}
	return expansion{kernel: k, classes: e.Classes, centers: centers, coef: e.Coef, bias: e.Bias}, nil
}

type perceptronJSON struct {
	expansionJSON
	Passes    int  `json:"passes"`
	Mistakes  int  `json:"mistakes"`
	Converged bool `json:"converged"`
}

// MarshalJSON encodes the model in the format at the top of persist.go:
// the expansion, Classes, Passes, Mistakes and Converged; Alpha is not
// saved. It fails with an *InputError wrapping ErrInput (and
// kernels.ErrParameter) if the kernel is not one of package kernels', and
// wrapping ErrInput if Centers is nil, malformed or not finite.
func (m *PerceptronModel) MarshalJSON() ([]byte, error) {
	e, err := newExpansionJSON("PerceptronModel.MarshalJSON", perceptronFormat, m.Kernel, m.Classes, m.Centers, m.Coef, m.Bias)
	if err != nil {
		return nil, err
	}
	return json.Marshal(perceptronJSON{e, m.Passes, m.Mistakes, m.Converged})
}

// UnmarshalJSON decodes a model saved by MarshalJSON, checking the format,
// the version, the kernel, the classes, the shapes and finiteness; errors
// are *InputError values wrapping ErrInput, and m is unchanged on error.
// Alpha is nil in the loaded model.
func (m *PerceptronModel) UnmarshalJSON(b []byte) error {
	const op = "PerceptronModel.UnmarshalJSON"
	var mj perceptronJSON
	if err := decodeFile(op, perceptronFormat, b, &mj); err != nil {
		return err
	}
	e, err := mj.decode(op)
	if err != nil {
		return err
	}
	if err := checkCountField(op, "passes", mj.Passes); err != nil {
		return err
	}
	if err := checkCountField(op, "mistakes", mj.Mistakes); err != nil {
		return err
	}
	*m = PerceptronModel{Kernel: e.kernel, Centers: e.centers, Coef: e.coef, Bias: e.bias, Classes: e.classes,
		Passes: mj.Passes, Mistakes: mj.Mistakes, Converged: mj.Converged}
	return nil
}

type logisticJSON struct {
	expansionJSON
	Iterations int     `json:"iterations"`
	Converged  bool    `json:"converged"`
	GradNorm   float64 `json:"grad_norm"`
	Objective  float64 `json:"objective"`
	Lipschitz  float64 `json:"lipschitz"`
}

// MarshalJSON encodes the model in the format at the top of persist.go:
// the expansion, Classes, Iterations, Converged, GradNorm, Objective and
// Lipschitz; History is not saved. Errors as PerceptronModel.MarshalJSON.
func (m *LogisticModel) MarshalJSON() ([]byte, error) {
	e, err := newExpansionJSON("LogisticModel.MarshalJSON", logisticFormat, m.Kernel, m.Classes, m.Centers, m.Coef, m.Bias)
	if err != nil {
		return nil, err
	}
	return json.Marshal(logisticJSON{e, m.Iterations, m.Converged, m.GradNorm, m.Objective, m.Lipschitz})
}

// UnmarshalJSON decodes a model saved by MarshalJSON; checks and errors as
// PerceptronModel.UnmarshalJSON. History is nil in the loaded model.
func (m *LogisticModel) UnmarshalJSON(b []byte) error {
	const op = "LogisticModel.UnmarshalJSON"
	var mj logisticJSON
	if err := decodeFile(op, logisticFormat, b, &mj); err != nil {
		return err
	}
	e, err := mj.decode(op)
	if err != nil {
		return err
	}
	if err := checkCountField(op, "iterations", mj.Iterations); err != nil {
		return err
	}
	*m = LogisticModel{Kernel: e.kernel, Centers: e.centers, Coef: e.coef, Bias: e.bias, Classes: e.classes,
		Iterations: mj.Iterations, Converged: mj.Converged, GradNorm: mj.GradNorm, Objective: mj.Objective, Lipschitz: mj.Lipschitz}
	return nil
}

type svmJSON struct {
	expansionJSON
	Objective float64 `json:"objective"`
	BestIter  int     `json:"best_iter"`
}

// MarshalJSON encodes the model in the format at the top of persist.go:
// the expansion, Classes, Objective and BestIter; History is not saved.
// Errors as PerceptronModel.MarshalJSON.
func (m *SVMModel) MarshalJSON() ([]byte, error) {
	e, err := newExpansionJSON("SVMModel.MarshalJSON", svmFormat, m.Kernel, m.Classes, m.Centers, m.Coef, m.Bias)
	if err != nil {
		return nil, err
	}
	return json.Marshal(svmJSON{e, m.Objective, m.BestIter})
}

// UnmarshalJSON decodes a model saved by MarshalJSON; checks and errors as
// PerceptronModel.UnmarshalJSON. History is nil in the loaded model.
func (m *SVMModel) UnmarshalJSON(b []byte) error {
	const op = "SVMModel.UnmarshalJSON"
	var mj svmJSON
	if err := decodeFile(op, svmFormat, b, &mj); err != nil {
		return err
	}
	e, err := mj.decode(op)
	if err != nil {
		return err
	}
	if err := checkCountField(op, "best_iter", mj.BestIter); err != nil {
		return err
	}
	*m = SVMModel{Kernel: e.kernel, Centers: e.centers, Coef: e.coef, Bias: e.bias, Classes: e.classes,
		Objective: mj.Objective, BestIter: mj.BestIter}
	return nil
}

type knnJSON struct {
	fileHeader
	Kernel  kernels.Spec `json:"kernel"`
	K       int          `json:"k"`
	Classes []float64    `json:"classes"`
	X       matrixJSON   `json:"x"`
	Labels  []float64    `json:"labels"`
}

// MarshalJSON encodes the model in the format at the top of persist.go:
// Kernel, K, Classes, the training points X and their Labels. Errors as
// PerceptronModel.MarshalJSON (X in place of Centers).
func (m *KNNModel) MarshalJSON() ([]byte, error) {
	const op = "KNNModel.MarshalJSON"
	spec, err := specOf(op, "Kernel", m.Kernel)
	if err != nil {
		return nil, err
	}
	x, err := toMatrixJSON(op, "X", m.X)
	if err != nil {
		return nil, err
	}
	return json.Marshal(knnJSON{fileHeader{knnFormat, formatVersion}, spec, m.K, m.Classes, x, m.Labels})
}

// UnmarshalJSON decodes a model saved by MarshalJSON, checking the format,
// the version, the kernel, that there is one finite label per training
// point, that the classes are the distinct labels in ascending order and
// that 1 ≤ K < n; it then recomputes k(xⱼ, xⱼ) for every training point
// (n kernel evaluations, as Fit does). Errors are *InputError values
// wrapping ErrInput, and m is unchanged on error.
func (m *KNNModel) UnmarshalJSON(b []byte) error {
	const op = "KNNModel.UnmarshalJSON"
	var mj knnJSON
	if err := decodeFile(op, knnFormat, b, &mj); err != nil {
		return err
	}
	k, err := kernelOf(op, mj.Kernel)
	if err != nil {
		return err
	}
	x, err := mj.X.dense(op, "x")
	if err != nil {
		return err
	}
	if len(mj.Labels) != x.Rows {
		return inputError(op, "labels", "%d labels for %d training points", len(mj.Labels), x.Rows)
	}
	if err := checkFiniteSlice(op, "labels", mj.Labels); err != nil {
		return err
	}
	if err := checkClasses(op, mj.Classes, 0); err != nil {
		return err
	}
	want := classesOf(mj.Labels)
	if len(want) != len(mj.Classes) {
		return inputError(op, "classes", "%s, the labels have %s", listClasses(mj.Classes), listClasses(want))
	}
	for i, c := range want {
		if c != mj.Classes[i] {
			return inputError(op, "classes", "%s, the labels have %s", listClasses(mj.Classes), listClasses(want))
		}
	}
	if mj.K < 1 || mj.K >= x.Rows {
		return inputError(op, "k", "%d, must satisfy 1 ≤ k < n = %d", mj.K, x.Rows)
	}
	*m = KNNModel{Kernel: k, K: mj.K, X: x, Labels: mj.Labels, Classes: mj.Classes,
		class: classIndex(mj.Labels, mj.Classes), self: selfKernel(k, x)}
	return nil
}

type rlsJSON struct {
	fileHeader
	Classes    []float64       `json:"classes"`
	OneVsAll   bool            `json:"one_vs_all"`
	Lambda     float64         `json:"lambda"`
	Model      json.RawMessage `json:"model"`
	LOOLambdas []float64       `json:"loo_lambdas,omitempty"`
	LOOErrors  []float64       `json:"loo_errors,omitempty"`
}

// MarshalJSON encodes the model in the format at the top of persist.go:
// Classes, OneVsAll, Lambda, the regress.Model in regress's format and,
// when λ was chosen by leave-one-out, LOOLambdas and LOOErrors. It fails
// with an *InputError wrapping ErrInput if Model is nil or its kernel is
// not one of package kernels' (then wrapping kernels.ErrParameter too).
func (m *RLSModel) MarshalJSON() ([]byte, error) {
	const op = "RLSModel.MarshalJSON"
	if m.Model == nil {
		return nil, inputError(op, "Model", "nil (not a fitted model)")
	}
	if _, err := specOf(op, "Model.Kernel", m.Model.Kernel); err != nil { // before regress's own, unwrapped, error
		return nil, err
	}
	if err := checkMatrix(op, "Model.Centers", m.Model.Centers, false); err != nil {
		return nil, err
	}
	if err := checkMatrix(op, "Model.Coef", m.Model.Coef, false); err != nil {
		return nil, err
	}
	inner, err := m.Model.MarshalJSON()
	if err != nil {
		return nil, &InputError{Op: op, Arg: "Model", Reason: err.Error(), Err: err}
	}
	return json.Marshal(rlsJSON{fileHeader{rlsFormat, formatVersion}, m.Classes, m.OneVsAll, m.Lambda, inner, m.LOOLambdas, m.LOOErrors})
}

// UnmarshalJSON decodes a model saved by MarshalJSON, checking the format,
// the version, the classes, λ, the wrapped regress.Model (by its own
// UnmarshalJSON) and that its columns match the coding: one for a binary
// model, one per class for one-vs-all. Errors are *InputError values
// wrapping ErrInput (and regress.ErrInput for a bad inner model), and m is
// unchanged on error.
func (m *RLSModel) UnmarshalJSON(b []byte) error {
	const op = "RLSModel.UnmarshalJSON"
	var mj rlsJSON
	if err := decodeFile(op, rlsFormat, b, &mj); err != nil {
		return err
	}
	want := 0
	if !mj.OneVsAll {
		want = 2
	}
	if err := checkClasses(op, mj.Classes, want); err != nil {
		return err
	}
	if !(mj.Lambda > 0) || math.IsInf(mj.Lambda, 0) {
		return inputError(op, "lambda", "%v, must be positive and finite", mj.Lambda)
	}
	if len(mj.Model) == 0 {
		return inputError(op, "model", "missing")
	}
	var inner regress.Model
	if err := inner.UnmarshalJSON(mj.Model); err != nil {
		return &InputError{Op: op, Arg: "model", Reason: err.Error(), Err: err}
	}
	// regress checks the shapes agree; check here too that each matrix
	// holds its rows·cols values without overflow, and that there is at
	// least one centre and one column.
	for _, c := range []struct {
		name string
		a    *linalg.Dense
	}{{"model.centers", inner.Centers}, {"model.coef", inner.Coef}} {
		if c.a.Rows < 1 || c.a.Cols < 1 || len(c.a.Data)%c.a.Cols != 0 || len(c.a.Data)/c.a.Cols != c.a.Rows {
			return inputError(op, c.name, "%d×%d with %d values", c.a.Rows, c.a.Cols, len(c.a.Data))
		}
	}
	q := 1
	if mj.OneVsAll {
		q = len(mj.Classes)
	}
	if inner.Coef.Cols != q {
		return inputError(op, "model.coef", "%d columns for %d classes (one-vs-all %v), want %d", inner.Coef.Cols, len(mj.Classes), mj.OneVsAll, q)
	}
	if len(mj.LOOLambdas) != len(mj.LOOErrors) {
		return inputError(op, "loo_errors", "%d errors for %d values of λ", len(mj.LOOErrors), len(mj.LOOLambdas))
	}
	*m = RLSModel{Classes: mj.Classes, OneVsAll: mj.OneVsAll, Lambda: mj.Lambda, Model: &inner, LOOLambdas: mj.LOOLambdas, LOOErrors: mj.LOOErrors}
	return nil
}
