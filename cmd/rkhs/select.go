package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"time"

	"rkhs/dataset"
	"rkhs/internal/cli"
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
func looSubset(v cli.AutoValue, n int) int {
	if v.Auto {
		if n > autoLOOAbove {
			return autoLOORows
		}
		return 0
	}
	return int(v.V)
}

// selectFlags are the flags of a selection: the grids, the criterion, the
// leave-one-out subset and the plot.
type selectFlags struct {
	sigmas, lambdas string
	criterion       string
	looRows         cli.AutoValue // auto, or a whole number of rows (0: every row)
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
	sf.looRows = cli.AutoValue{Auto: true}
	fs.Var(&sf.looRows, "loo-rows", fmt.Sprintf("nystrom and falkon: compute the leave-one-out error on this many rows drawn at random (-seed), each residual exact and their mean an unbiased estimate of every row's at a fraction of the cost, printed with its standard error; 0: every row; auto: every row up to %d rows, %d above", autoLOOAbove, autoLOORows))
	fs.StringVar(&sf.plot, "plot", "", "write an SVG `file` of the selection's curves: the criterion against λ, one curve per σ, the chosen point circled")
}

// report records a selection (nil: none was made) in a command's result,
// its λ and selection fields, and queues its plot when plotFile is given.
func report(s *cli.Selection, lambda **cli.JSONFloat, r *cli.SelectionFields, plotFile, title string, files []pendingFile) []pendingFile {
	if s == nil {
		return files
	}
	*lambda = cli.JSONPtr(s.Choice.Lambda)
	*r = s.Fields()
	if plotFile != "" {
		files = append(files, pendingFile{plotFile, s.Plot(title)})
	}
	return files
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
func grids(kf *kernelFlags, sf *selectFlags, lambda cli.AutoValue, lambdaDefault []float64, x *linalg.Dense, seed uint64) (sigmas, lambdas []float64, median float64, err error) {
	switch {
	case sf.sigmas != "":
		if sigmas, err = cli.Grid("sigmas", sf.sigmas); err != nil {
			return nil, nil, 0, err
		}
	case kf.sigma.Auto:
		if median, err = kernelMedian(kf, x, seed); err != nil {
			return nil, nil, 0, err
		}
		for _, r := range sigmaRatios {
			sigmas = append(sigmas, r*median)
		}
	default:
		sigmas = []float64{kf.sigma.V}
	}
	switch {
	case sf.lambdas != "":
		if lambdas, err = cli.Grid("lambdas", sf.lambdas); err != nil {
			return nil, nil, 0, err
		}
	case lambda.Auto && lambdaDefault != nil:
		lambdas = lambdaDefault
	case lambda.Auto:
		lambdas = loo.Geometric(defaultLambdas[0], defaultLambdas[1], int(defaultLambdas[2]))
	default:
		lambdas = []float64{lambda.V}
	}
	return sigmas, lambdas, median, nil
}

// checkSelectFlags checks the flags of a selection before any data is
// read: -sigma auto needs a kernel with a width, a grid flag conflicts
// with a number for its parameter, grids parse, -criterion is known, and
// -plot and -loo-rows need what they act on. auto and lambda.Auto say
// whether σ and λ are chosen (a grid flag implies auto, which is then set).
func checkSelectFlags(kf *kernelFlags, sf *selectFlags, lambda *cli.AutoValue, set map[string]bool) error {
	if set["sigmas"] && set["sigma"] && !kf.sigma.Auto {
		return cli.BadInputf("-sigma %v and -sigmas: give one (-sigmas is the grid of -sigma auto)", kf.sigma.V)
	}
	if set["lambdas"] && set["lambda"] && !lambda.Auto {
		return cli.BadInputf("-lambda %v and -lambdas: give one (-lambdas is the grid of -lambda auto)", lambda.V)
	}
	if set["sigmas"] {
		kf.sigma.Auto = true
	}
	if set["lambdas"] {
		lambda.Auto = true
	}
	if kf.sigma.Auto && !kf.hasWidth() {
		return cli.BadInputf("-sigma auto: the %s kernel has no width (use gaussian or laplacian)", kf.name)
	}
	for _, g := range [][2]string{{"sigmas", sf.sigmas}, {"lambdas", sf.lambdas}} {
		if g[1] != "" {
			if _, err := cli.Grid(g[0], g[1]); err != nil {
				return err
			}
		}
	}
	switch {
	case sf.criterion != "loo" && sf.criterion != "gcv":
		return cli.BadInputf("-criterion %q: want loo or gcv", sf.criterion)
	case !sf.looRows.Auto && (sf.looRows.V < 0 || sf.looRows.V != math.Trunc(sf.looRows.V) || sf.looRows.V > math.MaxInt32):
		return cli.BadInputf("-loo-rows %v: want a whole number of rows ≥ 0 (0: every row) or auto", sf.looRows.V)
	case !sf.looRows.Auto && sf.looRows.V > 0 && sf.criterion == "gcv":
		return cli.BadInputf("-loo-rows is the leave-one-out subset: not used by -criterion gcv")
	case sf.plot != "" && !kf.sigma.Auto && !lambda.Auto:
		return cli.BadInputf("-plot draws the curves of a selection: give -sigma auto or -lambda auto")
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

// drawCenters returns m distinct rows of x drawn as regress.Nystrom and
// regress.Falkon draw theirs with the same seed (regress.NystromCenters),
// so that a selection's centres are those of -method nystrom -seed N; the
// library's errors become the command's, naming -centers.
func drawCenters(x *linalg.Dense, m int, seed uint64) (*linalg.Dense, error) {
	if m < 1 || m > x.Rows {
		return nil, cli.BadInputf("-centers %d: want between 1 and the %s of the training file", m, cli.Count(x.Rows, "row"))
	}
	c, err := regress.NystromCenters(x, m, seed)
	var ie *linalg.InputError
	if errors.As(err, &ie) && ie.Arg == "Centers" {
		return nil, cli.BadInputf("-centers: %s", ie.Reason)
	}
	return c, err
}

// warnDegenerate prints one warning line on w when the kernel k, of the
// width sigma given as a number, is degenerate on the data
// (kernels.CheckDegenerate): with nystrom, on the m centres a Nyström-type
// fit draws with seed (drawCenters), else on a seeded sample of the rows
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
		of = cli.Count(pts.Rows, "centre")
		if pts.Rows < centers.Rows {
			of = fmt.Sprintf("%d of the %d centres", pts.Rows, centers.Rows)
		}
	} else {
		of = cli.Count(pts.Rows, "row")
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
	return fmt.Sprintf("rkhs %s on %s (%s)", what, filepath.Base(train), cli.Count(n, "row"))
}

// prepare starts a selection on x, the training features as the model
// sees them: the grids (see grids), the function that builds the kernel of
// each σ (every one checked here) and the selection to fill.
func prepare(kf *kernelFlags, sf *selectFlags, lambda cli.AutoValue, lambdaDefault []float64, x *linalg.Dense, seed uint64) (sigmas, lambdas []float64, kernel func(float64) kernels.Kernel, sel *cli.Selection, err error) {
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
	return sigmas, lambdas, kernel, cli.NewSelection(nil, loo.Choice{}, median, x.Rows), nil
}
