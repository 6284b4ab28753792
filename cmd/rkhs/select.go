package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"rkhs/dataset"
	"rkhs/internal/cliflag"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/regress"
)

// Choosing σ and λ in fit and classify: -sigma auto and -lambda auto
// select over a grid by exact leave-one-out (loo.SelectRLS for the exact
// methods, loo.SelectNystrom streamed for -method nystrom), print the
// table of the criterion and fit at the chosen pair; a σ given as a number
// is checked against the data (kernels.CheckDegenerate) and a degenerate
// one draws a warning.

// The default grids, said in -h. σ: the median distance between rows in
// the kernel's distance (kernelMedian, on a seeded sample of
// loo.DefaultMedianRows rows) times sigmaRatios, ratios 2 apart; λ: defaultLambdas, five values a
// decade from 1e-10 (where nλ stops mattering next to K's largest
// eigenvalues, about n) to 1 (where the fit is close to the mean).
var (
	sigmaRatios    = []float64{0.25, 0.5, 1, 2, 4}
	defaultLambdas = [3]float64{1e-10, 1, 51} // MIN, MAX, COUNT
)

const (
	sigmaAutoHelp     = "; auto: chosen by leave-one-out over the median distance between rows × {1/4, 1/2, 1, 2, 4} (-sigmas overrides the grid; cholesky, eigen, nystrom and falkon in fit, rls, nystrom and falkon in classify; falkon selects on -select-centers of its centres)"
	lambdaAutoHelp    = "; auto: chosen by leave-one-out over 51 values from 1e-10 to 1, five a decade (-lambdas overrides the grid)"
	degenerateRows    = 500 // rows (or centres) on which a σ given is checked
	degenerateWarning = "rkhs %s: warning: -sigma %g is far %s the median distance between rows, %.4g: the kernel matrix of %s is numerically %s (%d of them with %s); try -sigma auto or -standardize\n"
)

// autoValue is the value of -sigma, -lambda and -loo-rows: a number, or
// auto. A number is read as flag.Float64 reads it (strconv.ParseFloat), so
// that runs with numbers are unchanged; checkSelectFlags checks that
// -loo-rows is a whole number.
type autoValue struct {
	v    float64
	auto bool
}

func (a *autoValue) String() string {
	if a.auto {
		return "auto"
	}
	return strconv.FormatFloat(a.v, 'g', -1, 64)
}

// Set reads "auto" or a number, with flag.Float64's errors.
func (a *autoValue) Set(s string) error {
	if s == "auto" {
		a.v, a.auto = 0, true
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		if errors.Is(err, strconv.ErrRange) {
			return errors.New("value out of range")
		}
		return errors.New("parse error")
	}
	a.v, a.auto = v, false
	return nil
}

// -loo-rows auto, the default: the leave-one-out pass of a Nyström
// selection runs on every row of a training set of up to autoLOOAbove
// rows, and on autoLOORows rows drawn at random above that. Every residual
// is exact either way; a subset's mean is an unbiased estimate of every
// row's, printed with its standard error. The pass on every row costs as
// much as the statistics pass (2nm² flops a σ each), so the subset halves
// the selection's time at large n; at 20,000 rows the standard error is a
// few percent of the leave-one-out MSE, and the λ of a σ are compared on
// the same rows, so their differences are known better than that.
const (
	autoLOOAbove = 100_000
	autoLOORows  = 20_000
)

// looSubset is loo.SelectNystrom.Subset for n training rows under
// -loo-rows v (checked by checkSelectFlags: auto, or a whole number ≥ 0):
// 0 (every row) or the rows of the leave-one-out pass.
func looSubset(v autoValue, n int) int {
	if v.auto {
		if n > autoLOOAbove {
			return autoLOORows
		}
		return 0
	}
	return int(v.v)
}

// selectFlags are the flags of a selection: the grids, the criterion, the
// leave-one-out subset and the plot.
type selectFlags struct {
	sigmas, lambdas string
	criterion       string
	looRows         autoValue // auto, or a whole number of rows (0: every row)
	plot            string
}

// subset is loo.SelectNystrom.Subset for n training rows: none with the
// GCV criterion, which makes no leave-one-out pass.
func (sf *selectFlags) subset(n int) int {
	if sf.criterion == "gcv" {
		return 0
	}
	return looSubset(sf.looRows, n)
}

// register adds the flags; lambdasHelp is the help of -lambdas.
func (sf *selectFlags) register(fs commandFlags, lambdasHelp string) {
	fs.StringVar(&sf.sigmas, "sigmas", "", "σ grid of -sigma auto, `MIN:MAX:COUNT`, geometric (default: the median distance between rows × {1/4, 1/2, 1, 2, 4}); implies -sigma auto")
	fs.StringVar(&sf.lambdas, "lambdas", "", lambdasHelp)
	fs.StringVar(&sf.criterion, "criterion", "loo", "nystrom: what the selection minimizes: loo (exact leave-one-out: the mean squared residual in fit, the error rate in classify; two passes over the rows) or gcv (generalized cross-validation, one pass)")
	sf.looRows = autoValue{auto: true}
	fs.Var(&sf.looRows, "loo-rows", fmt.Sprintf("nystrom and falkon: compute the leave-one-out error on this many rows drawn at random (-seed), each residual exact and their mean an unbiased estimate of every row's at a fraction of the cost, printed with its standard error; 0: every row; auto: every row up to %d rows, %d above", autoLOOAbove, autoLOORows))
	fs.StringVar(&sf.plot, "plot", "", "write an SVG `file` of the selection's curves: the criterion against λ, one curve per σ, the chosen point circled")
}

// selection is what a run chose and the table behind it.
type selection struct {
	criterion     string  // "loo_mse", "gcv" or "loo_error"
	median        float64 // the median distance between rows; 0 when σ was given
	sigma, lambda float64
	score         float64 // the criterion at the chosen pair
	looMSE        float64 // the leave-one-out MSE at the chosen pair; NaN if not computed
	looRows       int     // rows the leave-one-out means are over
	rows          int     // the training rows, of which looRows were drawn when fewer
	stdErr        float64 // the standard error of score with -loo-rows; 0 when exact (every row) or not computed
	table         *loo.Table
}

// selectionFields are the fields of a selection in the JSON of fit and
// classify (λ is the result's own): the pair chosen, the median distance
// (-sigma auto without -sigmas), the criterion, the leave-one-out MSE at
// the pair, GCV at the pair with -criterion gcv, the rows the
// leave-one-out mean is over, the standard error of the leave-one-out score
// at the pair (of loo_mse, or of the error rate for classes) as an
// estimate of its value over every row when -loo-rows drew a subset, and
// the whole table.
type selectionFields struct {
	Sigma          *jsonFloat     `json:"sigma,omitempty"`
	MedianDistance *jsonFloat     `json:"median_distance,omitempty"`
	Criterion      string         `json:"criterion,omitempty"`
	LooMSE         *jsonFloat     `json:"loo_mse,omitempty"`
	GCV            *jsonFloat     `json:"gcv,omitempty"`
	LOORows        int            `json:"loo_rows,omitempty"`
	LOOStdErr      *jsonFloat     `json:"loo_stderr,omitempty"`
	Table          *selectionJSON `json:"table,omitempty"`
}

// record puts the selection in the JSON fields.
func (r *selectionFields) record(s *selection) {
	r.Sigma = jsonPtr(s.sigma)
	if s.median > 0 {
		r.MedianDistance = jsonPtr(s.median)
	}
	r.Criterion, r.LOORows, r.Table = s.criterion, s.looRows, s.json()
	if !math.IsNaN(s.looMSE) {
		r.LooMSE = jsonPtr(s.looMSE)
	}
	if s.stdErr > 0 {
		r.LOOStdErr = jsonPtr(s.stdErr)
	}
	if s.criterion == loo.GCV.String() {
		r.GCV = jsonPtr(s.score)
	}
}

// report records a selection (nil: none was made) in a command's result,
// its λ and selection fields, and queues its plot when plotFile is given.
func (s *selection) report(lambda **jsonFloat, r *selectionFields, plotFile, title string, files []pendingFile) []pendingFile {
	if s == nil {
		return files
	}
	*lambda = jsonPtr(s.lambda)
	r.record(s)
	if plotFile != "" {
		files = append(files, pendingFile{plotFile, s.plot(title)})
	}
	return files
}

// selectionJSON is the table in -json.
type selectionJSON struct {
	Criterion string        `json:"criterion"`
	Sigmas    []jsonFloat   `json:"sigmas"`
	Lambdas   []jsonFloat   `json:"lambdas"`
	Scores    [][]jsonFloat `json:"scores"` // [σ][λ]; null where the system is singular
}

func (s *selection) json() *selectionJSON {
	j := &selectionJSON{Criterion: s.criterion, Sigmas: jsonFloats(s.table.Sigmas), Lambdas: jsonFloats(s.table.Lambdas)}
	for _, row := range s.table.Scores {
		j.Scores = append(j.Scores, jsonFloats(row))
	}
	return j
}

func jsonFloats(v []float64) []jsonFloat {
	out := make([]jsonFloat, len(v))
	for i, x := range v {
		out[i] = jsonFloat(x)
	}
	return out
}

// printTable writes the table, one row per λ and one column per σ, the
// chosen pair starred, then the choice in one line.
func (s *selection) printTable(w io.Writer) {
	s.table.Format(w, s.criterion, loo.Choice{Sigma: s.sigma, Lambda: s.lambda})
	fmt.Fprintf(w, "chosen σ = %.4g", s.sigma)
	if s.median > 0 {
		fmt.Fprintf(w, " (median distance %.4g × %.3g)", s.median, s.sigma/s.median)
	}
	fmt.Fprintf(w, ", λ = %.4g: %s %.6g", s.lambda, s.criterion, s.score)
	if s.stdErr > 0 {
		fmt.Fprintf(w, " ± %.2g (one standard error of the estimate)", s.stdErr)
	}
	if s.looRows > 0 && s.looRows < s.rows {
		fmt.Fprintf(w, " over %d of the %s, drawn at random", s.looRows, count(s.rows, "row"))
	} else if s.looRows > 0 {
		fmt.Fprintf(w, " over %s", count(s.looRows, "row"))
	}
	fmt.Fprintln(w)
}

// warnEdges prints a warning line on w for each grid whose smallest or
// largest value was chosen (cliflag.WarnEdges). s may be nil (no selection
// was made).
func (s *selection) warnEdges(w io.Writer, what string) {
	if s != nil {
		cliflag.WarnEdges(w, "rkhs "+what, s.table, loo.Choice{Sigma: s.sigma, Lambda: s.lambda})
	}
}

// plot returns the SVG of the table: the criterion against λ, one curve
// per σ, the chosen point circled.
func (s *selection) plot(title string) []byte {
	colors := []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"}
	p := panel{title: title, xlabel: "λ (K + nλI)", ylabel: s.criterion, logX: true}
	for a, sg := range s.table.Sigmas {
		sr := series{name: "σ = " + strconv.FormatFloat(sg, 'g', 4, 64), color: colors[a%len(colors)], marker: -1,
			x: s.table.Lambdas, y: s.table.Scores[a]}
		if sg == s.sigma {
			sr.marker = slices.Index(s.table.Lambdas, s.lambda)
		}
		p.series = append(p.series, sr)
	}
	return []byte(svgDocument(p))
}

// kernelMedian returns the median heuristic for σ on x (loo.MedianDistance
// on a seeded sample of loo.DefaultMedianRows rows) in the distance the
// kernel of the flags applies σ to: Euclidean for gaussian, the 1-norm for
// laplacian.
func kernelMedian(kf *kernelFlags, x *linalg.Dense, seed uint64) (float64, error) {
	k, err := kf.kernelAt(1) // its type, not its σ, chooses the norm
	if err != nil {
		return 0, err
	}
	norm, err := loo.NormOf(k)
	if err != nil {
		return 0, err
	}
	return loo.MedianDistance(x, norm, 0, seed)
}

// grids returns the σ and λ grids of a run on x (the training features as
// the model sees them): -sigmas, or the median heuristic × sigmaRatios, or
// the σ given; -lambdas, or lambdaDefault (nil: defaultLambdas), or the λ
// given. median is the median distance when it was computed.
func grids(kf *kernelFlags, sf *selectFlags, lambda autoValue, lambdaDefault []float64, x *linalg.Dense, seed uint64) (sigmas, lambdas []float64, median float64, err error) {
	switch {
	case sf.sigmas != "":
		if sigmas, err = parseRange("sigmas", sf.sigmas); err != nil {
			return nil, nil, 0, err
		}
	case kf.sigma.auto:
		if median, err = kernelMedian(kf, x, seed); err != nil {
			return nil, nil, 0, err
		}
		for _, r := range sigmaRatios {
			sigmas = append(sigmas, r*median)
		}
	default:
		sigmas = []float64{kf.sigma.v}
	}
	switch {
	case sf.lambdas != "":
		if lambdas, err = parseRange("lambdas", sf.lambdas); err != nil {
			return nil, nil, 0, err
		}
	case lambda.auto && lambdaDefault != nil:
		lambdas = lambdaDefault
	case lambda.auto:
		lambdas = loo.Geometric(defaultLambdas[0], defaultLambdas[1], int(defaultLambdas[2]))
	default:
		lambdas = []float64{lambda.v}
	}
	return sigmas, lambdas, median, nil
}

// checkSelectFlags checks the flags of a selection before any data is
// read: -sigma auto needs a kernel with a width, a grid flag conflicts
// with a number for its parameter, grids parse, -criterion is known, and
// -plot and -loo-rows need what they act on. auto and lambdaAuto say
// whether σ and λ are chosen (a grid flag implies auto, which is then set).
func checkSelectFlags(kf *kernelFlags, sf *selectFlags, lambda *autoValue, set map[string]bool) error {
	if set["sigmas"] && set["sigma"] && !kf.sigma.auto {
		return badInputf("-sigma %v and -sigmas: give one (-sigmas is the grid of -sigma auto)", kf.sigma.v)
	}
	if set["lambdas"] && set["lambda"] && !lambda.auto {
		return badInputf("-lambda %v and -lambdas: give one (-lambdas is the grid of -lambda auto)", lambda.v)
	}
	if set["sigmas"] {
		kf.sigma.auto = true
	}
	if set["lambdas"] {
		lambda.auto = true
	}
	if kf.sigma.auto && !kf.hasWidth() {
		return badInputf("-sigma auto: the %s kernel has no width (use gaussian or laplacian)", kf.name)
	}
	for _, g := range [][2]string{{"sigmas", sf.sigmas}, {"lambdas", sf.lambdas}} {
		if g[1] != "" {
			if _, err := parseRange(g[0], g[1]); err != nil {
				return err
			}
		}
	}
	switch {
	case sf.criterion != "loo" && sf.criterion != "gcv":
		return badInputf("-criterion %q: want loo or gcv", sf.criterion)
	case !sf.looRows.auto && (sf.looRows.v < 0 || sf.looRows.v != math.Trunc(sf.looRows.v) || sf.looRows.v > math.MaxInt32):
		return badInputf("-loo-rows %v: want a whole number of rows ≥ 0 (0: every row) or auto", sf.looRows.v)
	case !sf.looRows.auto && sf.looRows.v > 0 && sf.criterion == "gcv":
		return badInputf("-loo-rows is the leave-one-out subset: not used by -criterion gcv")
	case sf.plot != "" && !kf.sigma.auto && !lambda.auto:
		return badInputf("-plot draws the curves of a selection: give -sigma auto or -lambda auto")
	}
	return nil
}

// progressLine returns the callback that prints one line per pass of a
// selection on w: the pass, what it computes (kinds, in turn for each σ),
// σ ("every σ" for a pass that serves them all, σ NaN) and the time since
// start.
func progressLine(w io.Writer, what string, start time.Time, kinds ...string) func(pass, passes int, sigma float64) {
	return func(pass, passes int, sigma float64) {
		at := fmt.Sprintf("σ = %.4g", sigma)
		if math.IsNaN(sigma) {
			at = "every σ"
		}
		fmt.Fprintf(w, "rkhs %s: pass %d of %d, %s: %s, %.1f s\n", what, pass, passes, at, kinds[(pass-1)%len(kinds)], time.Since(start).Seconds())
	}
}

// nystromPasses are the passes of loo.SelectNystrom, for each σ or for all
// σ together, with Subset sub of n rows.
func nystromPasses(c loo.Criterion, sub, n int) []string {
	if c == loo.GCV {
		return []string{"statistics and GCV"}
	}
	if sub > 0 && sub < n {
		return []string{"statistics", fmt.Sprintf("leave-one-out on %d of the %d rows, drawn at random (-loo-rows)", sub, n)}
	}
	return []string{"statistics", "leave-one-out"}
}

// featuresSeen returns the training features as the model sees them, the
// one place every decision about σ reads them from: the median distance,
// the degeneracy check, the centres and the selection.
func featuresSeen(d *dataset.Data) *linalg.Dense { return &d.X }

// drawCentres returns m distinct rows of x drawn as regress.Nystrom and
// regress.Falkon draw theirs with the same seed (regress.NystromCenters),
// so that a selection's centres are those of -method nystrom -seed N; the
// library's errors become the command's, naming -centers.
func drawCenters(x *linalg.Dense, m int, seed uint64) (*linalg.Dense, error) {
	if m < 1 || m > x.Rows {
		return nil, badInputf("-centers %d: want between 1 and the %s of the training file", m, count(x.Rows, "row"))
	}
	c, err := regress.NystromCenters(x, m, seed)
	var ie *linalg.InputError
	if errors.As(err, &ie) && ie.Arg == "Centers" {
		return nil, badInputf("-centers: %s", ie.Reason)
	}
	return c, err
}

// warnDegenerate prints one warning line on w when the kernel k, of the
// width sigma given as a number, is degenerate on the data
// (kernels.CheckDegenerate): with nystrom, on the m centres a Nyström-type
// fit draws with seed (drawCentres), else on a seeded sample of the rows
// of x; at most degenerateRows of either. The line names σ and the median
// distance and suggests -sigma auto and -standardize. Nothing is printed
// when the check cannot judge (fewer than two distinct rows).
func warnDegenerate(w io.Writer, what string, k kernels.Kernel, sigma float64, x *linalg.Dense, nystrom bool, m int, seed uint64) {
	var centers *linalg.Dense
	if nystrom {
		var err error
		if centers, err = drawCenters(x, m, seed); err != nil {
			return
		}
	}
	pts := centers
	if pts == nil {
		pts = x
	}
	if pts.Rows > degenerateRows {
		idx := rand.New(rand.NewPCG(seed, 0x646567656e)).Perm(pts.Rows)[:degenerateRows] // "degen"
		slices.Sort(idx)
		s := linalg.NewDense(degenerateRows, pts.Cols, nil)
		for j, i := range idx {
			copy(s.Row(j), pts.Row(i))
		}
		pts = s
	}
	var of string
	if centers != nil {
		of = count(pts.Rows, "centre")
		if pts.Rows < centers.Rows {
			of = fmt.Sprintf("%d of the %d centres", pts.Rows, centers.Rows)
		}
	} else {
		of = count(pts.Rows, "row")
		if pts.Rows < x.Rows {
			of = fmt.Sprintf("%d sampled rows", pts.Rows)
		}
	}
	var de *kernels.DegenerateError
	if !errors.As(kernels.CheckDegenerate(k, pts), &de) {
		return
	}
	norm, err := loo.NormOf(k)
	if err != nil {
		return
	}
	median, err := loo.MedianDistance(x, norm, 0, seed)
	if err != nil {
		return
	}
	if de.Kind == kernels.NearIdentity {
		fmt.Fprintf(w, degenerateWarning, what, sigma, "below", median, of, "the identity", de.Alike, fmt.Sprintf("every off-diagonal entry below %g", kernels.DegenerateIdentityBelow))
	} else {
		fmt.Fprintf(w, degenerateWarning, what, sigma, "above", median, of, "all ones", de.Alike, fmt.Sprintf("most off-diagonal entries above 1 − %g", 1-kernels.DegenerateOnesAbove))
	}
}

// criterionOf maps -criterion to the library's, for regression (LOO MSE)
// or classification (LOO error rate).
func criterionOf(c string, classes bool) loo.Criterion {
	switch {
	case c == "gcv":
		return loo.GCV
	case classes:
		return loo.LOOErrorRate
	}
	return loo.LOOMSE
}

// titleOf is the plot's title: the command and the data.
func titleOf(what, train string, n int) string {
	return fmt.Sprintf("rkhs %s on %s (%s)", what, filepath.Base(train), count(n, "row"))
}

// fromNystrom records the result of loo.SelectNystrom on n rows.
func (s *selection) fromNystrom(r *loo.NystromSelection, n int) {
	s.rows = n
	s.criterion, s.sigma, s.lambda, s.score, s.table = r.Criterion.String(), r.Sigma, r.Lambda, r.Score, r.Scores
	a, j := slices.Index(r.Scores.Sigmas, r.Sigma), slices.Index(r.Scores.Lambdas, r.Lambda)
	if a >= 0 && j >= 0 && r.LOO[a] != nil {
		s.looMSE, s.looRows = r.LOO[a][j], r.LOORows
		if se := r.StdErr[a][j]; se > 0 {
			s.stdErr = se
		}
	}
}

// prepare starts a selection on x, the training features as the model
// sees them: the grids (see grids), the function that builds the kernel of
// each σ (every one checked here) and the selection to fill.
func prepare(kf *kernelFlags, sf *selectFlags, lambda autoValue, lambdaDefault []float64, x *linalg.Dense, seed uint64) (sigmas, lambdas []float64, kernel func(float64) kernels.Kernel, sel *selection, err error) {
	sigmas, lambdas, median, err := grids(kf, sf, lambda, lambdaDefault, x, seed)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	for _, s := range sigmas {
		if _, err := kf.kernelAt(s); err != nil {
			return nil, nil, nil, nil, err
		}
	}
	kernel = func(s float64) kernels.Kernel {
		k, _ := kf.kernelAt(s) // checked above
		return k
	}
	return sigmas, lambdas, kernel, &selection{median: median, looMSE: math.NaN()}, nil
}

func jsonPtr(v float64) *jsonFloat {
	j := jsonFloat(v)
	return &j
}
