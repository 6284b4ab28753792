package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"rkhs/classify"
	"rkhs/internal/memlimit"
	"rkhs/kernels"
	"rkhs/regress"
)

// The methods of fit and classify, each described once: a row of methods
// says which verbs offer it and with what fit, the flags it reads, the
// -intercept values it offers, what it needs of -lambda, whether and how
// it chooses σ and λ, and how a long run is announced. Everything a verb
// checks of -method, and its -h, is read from the rows.

// route is how a method chooses σ and λ (-sigma auto, -lambda auto).
type route int

const (
	noSelection       route = iota
	exactSelection          // one eigendecomposition per σ (loo.SelectRLS, classify.SelectRLS), then the method's fit at the pair
	streamedSelection       // the rows streamed (loo.SelectNystrom, classify.SelectNystrom), the fit solved from the chosen σ's statistics
	falkonSelection         // streamed on -select-centers of the M centres, then falkon on all M at the pair (see choose)
)

// flags are the flags a selection by the route reads; a route that reads
// -ard-rows offers -sigma ard (see choose).
func (r route) flags() []string {
	return [][]string{nil, {"sigmas", "lambdas", "plot"},
		{"sigmas", "lambdas", "plot", "criterion", "loo-rows", "ard-rows", "ard-iters"},
		{"sigmas", "lambdas", "plot", "criterion", "loo-rows", "select-centers", "ard-rows", "ard-iters"}}[r]
}

// scales reports whether the route offers -sigma ard.
func (r route) scales() bool { return slices.Contains(r.flags(), "ard-rows") }

// lambdaRule is what a method needs of -lambda.
type lambdaRule int

const (
	noLambda       lambdaRule = iota
	lambdaRequired            // a number (or auto, where the method chooses)
	lambdaChosen              // a number, or chosen by leave-one-out when not given
)

// fitFunc fits a method on the run's rows with kernel k and λ (0 for a
// method without one).
type fitFunc func(r *fitRun, k kernels.Kernel, lambda float64) (*fitted, error)

// method is one -method of fit and classify.
type method struct {
	name, help string
	// fits holds the method's fit for each verb that offers it.
	fits map[string]fitFunc
	// flags are the flags the method reads of those that only some
	// methods read, besides -lambda, -intercept and its route's.
	flags []string
	// intercepts are the -intercept values the method offers, its
	// default first; nil for none (knn).
	intercepts []string
	lambda     lambdaRule
	selects    route
	// cost names the announcement of a long run (see fitRun.announce):
	// "cholesky" or "eigen" for an n×n factorization, "falkon", or "".
	cost string
	// intervals are the -interval-method values it offers, its default
	// first (see intervalFlags.check); nil for none.
	intervals []string
}

var bothIntervals = []string{"jackknife+", "cv+", "cv+fold"}

var everyIntercept = []string{"free", "none", "penalized"}

// methods are every method of fit and classify, in the order -h lists them.
var methods = []*method{
	{name: "cholesky", help: "RLS by Cholesky", fits: map[string]fitFunc{"fit": fitRLS},
		intercepts: everyIntercept, lambda: lambdaRequired, selects: exactSelection, cost: "cholesky", intervals: bothIntervals},
	{name: "eigen", help: "RLS through the eigendecomposition", fits: map[string]fitFunc{"fit": fitSpectral},
		intercepts: everyIntercept, lambda: lambdaRequired, selects: exactSelection, cost: "eigen", intervals: bothIntervals},
	{name: "tikh", help: "Tikhonov on the augmented matrix [K 1], whose b is free", fits: map[string]fitFunc{"fit": fitSpectral},
		intercepts: []string{"free"}, lambda: lambdaRequired, cost: "eigen"},
	{name: "tsvd", help: "truncated spectrum: eigenvalues below nλ dropped", fits: map[string]fitFunc{"fit": fitSpectral},
		intercepts: []string{"free", "none"}, lambda: lambdaRequired, cost: "eigen"}, // the penalized intercept is Tikhonov's only (regress.Spectral)
	{name: "cg", help: "CGLS on [K 1], -iters its regularization, stopping early once converged to rounding level", fits: map[string]fitFunc{"fit": fitIterative},
		flags: []string{"iters"}, intercepts: everyIntercept},
	{name: "landweber", help: "Landweber iteration, -iters its regularization", fits: map[string]fitFunc{"fit": fitIterative},
		flags: []string{"iters"}, intercepts: everyIntercept},
	{name: "nu", help: "the ν-method, -iters its regularization", fits: map[string]fitFunc{"fit": fitIterative},
		flags: []string{"iters"}, intercepts: everyIntercept},
	{name: "rls", help: "RLS classification, one-vs-all beyond two classes; λ chosen by leave-one-out unless given", fits: map[string]fitFunc{"classify": classifyRLS},
		intercepts: everyIntercept, lambda: lambdaChosen, selects: exactSelection, cost: "cholesky", intervals: bothIntervals[:2]},
	{name: "perceptron", help: "the kernel perceptron, binary", fits: map[string]fitFunc{"classify": classifyPerceptron},
		flags: []string{"iters"}, intercepts: []string{"free", "none"}},
	{name: "knn", help: "k nearest neighbours in the kernel's distance", fits: map[string]fitFunc{"classify": classifyKNN},
		flags: []string{"k"}},
	{name: "logistic", help: "kernel logistic regression, binary", fits: map[string]fitFunc{"classify": classifyLogistic},
		flags: []string{"iters"}, intercepts: everyIntercept, lambda: lambdaRequired},
	{name: "svm", help: "the hinge-loss SVM, binary, whose b is penalized or none", fits: map[string]fitFunc{"classify": classifySVM},
		flags: []string{"iters"}, intercepts: []string{"penalized", "none"}, lambda: lambdaRequired},
	{name: "nystrom", help: "RLS on -centers M Nyström centres; memory O(nM), or, choosing σ and λ, O(M²) a σ with the rows streamed",
		fits:  map[string]fitFunc{"fit": fitNystrom, "classify": classifyNystrom},
		flags: []string{"centers", "seed"}, intercepts: everyIntercept, lambda: lambdaRequired, selects: streamedSelection, intervals: bothIntervals},
	{name: "falkon", help: "Nyström solved by preconditioned conjugate gradient, for large n: memory O(M² + nd)",
		fits:  map[string]fitFunc{"fit": fitFalkon, "classify": classifyFalkon},
		flags: []string{"centers", "seed", "iters", "val"}, intercepts: []string{"free", "none"}, lambda: lambdaRequired, selects: falkonSelection, cost: "falkon", intervals: bothIntervals[1:]},
}

// methodsOf returns the methods verb offers, in table order.
func methodsOf(verb string) []*method {
	var ms []*method
	for _, m := range methods {
		if m.fits[verb] != nil {
			ms = append(ms, m)
		}
	}
	return ms
}

// own returns every flag the method reads of those that only some methods
// read.
func (m *method) own() []string {
	own := append(slices.Clone(m.flags), m.selects.flags()...)
	if m.lambda != noLambda {
		own = append(own, "lambda")
	}
	if m.intercepts != nil {
		own = append(own, "intercept")
	}
	return own
}

// withScales returns the methods of ms whose route offers -sigma ard.
func withScales(ms []*method) []*method {
	var out []*method
	for _, m := range ms {
		if m.selects.scales() {
			out = append(out, m)
		}
	}
	return out
}

// names lists the names of ms for a message: "a, b or c".
func names(ms []*method, or string) string {
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = m.name
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " " + or + " " + s[len(s)-1]
}

// fitRLS is -method cholesky: regress.RLS.
func fitRLS(r *fitRun, k kernels.Kernel, lambda float64) (*fitted, error) {
	m, err := regress.RLS{Kernel: k, Lambda: lambda, Intercept: r.ic}.Fit(&r.train.X, r.train.Labels())
	if err != nil {
		return nil, err
	}
	return &fitted{model: m, b: m.Intercept[0], lambda: lambda}, nil
}

// fitSpectral is -method eigen, tsvd and tikh: a filter of the spectrum of
// K (regress.Spectral).
func fitSpectral(r *fitRun, k kernels.Kernel, lambda float64) (*fitted, error) {
	s, err := regress.NewSpectral(k, &r.train.X, r.train.Labels())
	if err != nil {
		return nil, err
	}
	var m *regress.Model
	switch r.m.name {
	case "eigen":
		m, err = s.Fit(regress.TikhonovFilter{Lambda: lambda}, r.ic)
	case "tsvd":
		m, err = s.Fit(regress.TruncatedSVDFilter{Lambda: lambda}, r.ic)
	default:
		m, err = s.FitAugmented(lambda)
	}
	if err != nil {
		return nil, err
	}
	warnRounding(r.stderr, "rkhs "+r.o.verb, r.m.name, s, lambda)
	r.spectral = s // for -interval
	return &fitted{model: m, b: m.Intercept[0], lambda: lambda}, nil
}

// warnRounding prints one warning on w when nλ is so close to the rounding
// level ε‖K‖ of the kernel matrix (regress.Spectral.RoundingLevel) that
// rounding alone leaves the fit of the method uncertain: for tikh, when it
// may leave the objective more than 10⁻⁶ above its minimum
// (Spectral.RoundingMiss); for eigen and tsvd, whose filters act on the
// eigenvalues themselves, when nλ is within a factor 100 of ε‖K‖, below
// which the eigenvalues are noise.
func warnRounding(w io.Writer, who, method string, s *regress.Spectral, lambda float64) {
	level, nl := s.RoundingLevel(), float64(s.N())*lambda
	var what string
	switch {
	case method == "tikh" && s.RoundingMiss(lambda) > 1e-6:
		what = fmt.Sprintf("rounding alone may leave the objective of Tikhonov on [K 1] a relative %.2g above its minimum", s.RoundingMiss(lambda))
	case method != "tikh" && level > nl/100:
		what = "eigenvalues of K below that are rounding noise, and the coefficients are determined only to about " + fmt.Sprintf("%.2g", level/nl) + " relative"
	default:
		return
	}
	fmt.Fprintf(w, "%s: warning: nλ = %.3g is near the rounding level of the kernel matrix, ε‖K‖ = %.3g: %s; standardize the features (-standardize) or raise λ\n", who, nl, level, what)
}

// fitIterative is -method cg, landweber and nu, matrix-free: K is stored
// when it fits in memory and streamed a block of rows at a time otherwise.
// Only the last residual is kept, so a huge -iters costs no memory; cg
// (CGLS) stops once ‖K̃ᵀr‖ is at the rounding level (2⁻⁵⁰ of its start),
// after which iterating changes nothing.
func fitIterative(r *fitRun, k kernels.Kernel, _ float64) (*fitted, error) {
	x, y := &r.train.X, r.train.Labels()
	iters := r.o.iters
	if !r.o.set["iters"] {
		iters = 50
	}
	it := regress.Iterative{MaxIter: iters, LastResidual: true, Stream: memlimit.CheckSquares("", x.Rows, 2, x.Cols) != nil}
	var fit *regress.IterFit
	var err error
	switch r.m.name {
	case "cg":
		it.Tol = 0x1p-50
		fit, err = regress.CGLS{Kernel: k, Intercept: r.ic, Iterative: it}.Fit(x, y)
	case "landweber":
		fit, err = regress.Landweber{Kernel: k, Intercept: r.ic, Iterative: it}.Fit(x, y)
	default:
		fit, err = regress.NuMethod{Kernel: k, Intercept: r.ic, Iterative: it}.Fit(x, y)
	}
	if err != nil {
		return nil, err
	}
	return &fitted{model: fit.Model, b: fit.Intercept[0], iterations: fit.Iterations}, nil
}

// fitNystrom is fit -method nystrom with σ and λ given: regress.Nystrom.
func fitNystrom(r *fitRun, k kernels.Kernel, lambda float64) (*fitted, error) {
	m, err := regress.Nystrom{Kernel: k, Lambda: lambda, Intercept: r.ic, Centers: r.o.centers, Seed: r.o.seed}.Fit(&r.train.X, r.train.Labels())
	if err != nil {
		return nil, err
	}
	return &fitted{model: m.Model, b: m.Intercept[0], centers: m.Coef.Rows, jitter: m.Jitter, lambda: lambda}, nil
}

// classifyNystrom is classify -method nystrom with σ and λ given: the
// selection of a grid of one pair by GCV, one pass over the rows
// (classify.SelectNystrom codes the labels), whose fit is the
// classifier's.
func classifyNystrom(r *fitRun, k kernels.Kernel, lambda float64) (*fitted, error) {
	sigma := 1.0 // the grid's one σ, which k ignores
	if r.o.kf.hasWidth() {
		sigma = r.o.kf.sigma.V
	}
	f, _, err := r.streamed(func(float64) kernels.Kernel { return k }, []float64{sigma}, []float64{lambda}, true)
	return f, err
}

// classifyRLS is classify -method rls with σ and λ given: classify.RLS.
func classifyRLS(r *fitRun, k kernels.Kernel, lambda float64) (*fitted, error) {
	m, err := classify.RLS{Kernel: k, Lambda: lambda, Intercept: r.ic}.Fit(&r.train.X, r.train.Y)
	if err != nil {
		return nil, err
	}
	return &fitted{model: m, classes: m.Classes, lambda: m.Lambda}, nil
}

func classifyPerceptron(r *fitRun, k kernels.Kernel, _ float64) (*fitted, error) {
	m, err := classify.Perceptron{Kernel: k, Intercept: r.ic, MaxPasses: r.o.iters}.Fit(&r.train.X, r.train.Y)
	if err != nil {
		return nil, err
	}
	return &fitted{model: m, classes: m.Classes, iterations: m.Passes, converged: &m.Converged}, nil
}

func classifyKNN(r *fitRun, k kernels.Kernel, _ float64) (*fitted, error) {
	m, err := classify.KNN{Kernel: k, K: r.o.k}.Fit(&r.train.X, r.train.Y)
	if err != nil {
		return nil, err
	}
	return &fitted{model: m, classes: m.Classes, k: r.o.k}, nil
}

func classifyLogistic(r *fitRun, k kernels.Kernel, lambda float64) (*fitted, error) {
	m, err := classify.Logistic{Kernel: k, Lambda: lambda, Intercept: r.ic, MaxIter: r.o.iters}.Fit(&r.train.X, r.train.Y)
	if err != nil {
		return nil, err
	}
	return &fitted{model: m, classes: m.Classes, lambda: lambda, iterations: m.Iterations, converged: &m.Converged}, nil
}

func classifySVM(r *fitRun, k kernels.Kernel, lambda float64) (*fitted, error) {
	m, err := classify.SVM{Kernel: k, Lambda: lambda, Intercept: r.ic, MaxIter: r.o.iters}.Fit(&r.train.X, r.train.Y)
	if err != nil {
		return nil, err
	}
	return &fitted{model: m, classes: m.Classes, lambda: lambda, iterations: len(m.History) - 1}, nil
}
