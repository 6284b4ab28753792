// Command rkhs runs kernel regularized least squares and its relatives on
// data files.
//
// Usage:
//
//	rkhs fit      -train FILE [-test FILE] [-method M] [-kernel K] [-sigma S|auto|ard] [-lambda L|auto] [...]
//	rkhs classify -train FILE [-test FILE] [-method M] [-kernel K] [-sigma S|auto|ard] [-lambda L|auto] [...]
//	rkhs predict  -model FILE -data FILE [-interval LEVEL] [-predictions OUT]
//	rkhs loo      -train FILE [-kernel K] [-sigma S] [-lambdas MIN:MAX:COUNT] [-intercept I] [-json]
//	rkhs paper    [-data DIR] [-out DIR] [-seed N] [-sets A,B,...]
//
// λ is in the K + nλI convention (n = training rows), and -sigma is the
// width of the Gaussian kernel exp(−‖x−z‖²/(2σ²)) or of the Laplacian
// exp(−‖x−z‖₁/σ). "rkhs VERB -h" lists every flag of a verb, and for fit
// and classify every -method with the flags it reads; a flag a method
// does not read is an error, so that no setting is silently ignored.
//
// # Data files
//
// Data files are LIBSVM (label idx:val …), CSV (.csv) or tab-separated
// (.tsv, .tab) by their name unless -format says, gzip- or
// bzip2-compressed or not (found by their first bytes). A CSV file's
// first line is a header when none of its fields is a number (-header
// yes|no overrides); the label is the last column or -target's, the
// features the others or -features A,B,…'s (columns not named are not
// read, so may hold text); -comma C sets the separator (\t a tab). A
// missing value (empty, NA, N/A, #N/A, NaN, null, None, ?) is an error
// naming its line and column unless -drop-missing drops and counts its
// rows. A file that looks written in another dialect (another separator,
// carriage returns alone, a quote never closed, a header of numbers) gets
// an error naming the flag that reads it.
//
// The test file of fit and classify, and the data of predict, are read by
// the training file's column names when both have a header (in any order,
// others not read, a missing one an error naming it), by position
// otherwise, when the widths must agree (a LIBSVM file, which leaves out
// trailing zero features, may be narrower).
//
//	$ rkhs fit -train PRSA_Data_Aotizhongxin_20130301-20170228.csv.gz -lambda 0.1
//	rkhs fit: PRSA_Data_Aotizhongxin_20130301-20170228.csv.gz: dataset: line 2: field 16 ("wd"): "NNW" is not a decimal number
//	$ rkhs fit -train PRSA_Data_Aotizhongxin_20130301-20170228.csv.gz -target PM2.5 \
//	      -features TEMP,PRES,DEWP,WSPM -drop-missing -method nystrom -centers 500 -sigma auto -lambda auto
//	rkhs: PRSA_Data_Aotizhongxin_20130301-20170228.csv.gz: dropped 945 of 35064 rows with a missing value
//	…
//
// # Errors, output files and memory
//
// Errors are one line on standard error; the exit status is 2 for bad
// input (flags, files that cannot be read, written or parsed, arguments
// the library rejects, a problem too large for the memory) and 1 for a
// computation that fails on valid input (cli.Status). Output paths are
// checked before anything runs (never an input, another output or a
// directory) and written once everything has succeeded, as package
// internal/outfile writes them: a regular file whole, by a temporary file
// renamed onto it (onto a symbolic link's target), a named pipe or a
// device as it is, a descriptor of the command ("-", /dev/stdout,
// /dev/fd/N) after what it already holds.
//
// A method that forms an n×n matrix says before allocating it when it
// will not fit the memory (the Go memory limit, the cgroup limit or the
// physical memory), naming what would fit; cg, landweber and nu then
// stream K. A run estimated at more than 10 s (regress.ExactCost,
// regress.FalkonCost, loo.SelectNystromCost) says first how long and how
// much memory it will take, then prints a progress line every 30 s.
//
// # fit
//
// fit fits a model, reports its training and test error and saves it
// with -model for predict; -predictions writes the test predictions, -json
// one object:
//
//	$ rkhs fit -train datasets/regression/housing_scale -sigma 1 -lambda 1e-4 -method cholesky -model housing.json
//	method cholesky, kernel gaussian, intercept free, λ = 0.0001
//	n_train 506, b = 26.0586, train MSE 2.90082, fit 0.013 s
//	$ rkhs fit -train datasets/regression/housing_scale -method cg -iters 30 -json
//	{"method":"cg","kernel":"gaussian","intercept":"free","n_train":506,"n_test":0,"features":13,"lambda":null,"b":27.142187893309767,"train_mse":7.326567698080466,"test_mse":null,"fit_seconds":0.013086138,"iterations":30}
//
// -method is cholesky, eigen, tikh (Tikhonov on [K 1]), tsvd, cg, landweber,
// nu (-iters T is their regularization), nystrom (-centers M) or falkon
// (Nyström solved by preconditioned conjugate gradient, for large n:
// -centers M -iters T, with -val F holding out a fraction of -train whose
// error is printed after every iteration). falkon prints a line per
// iteration, and a warning when it stops short of what its preconditioner
// promises (regress.FalkonPromise).
//
// # Choosing σ and λ
//
// -sigma auto and -lambda auto choose the width and λ by exact
// leave-one-out: cholesky, eigen and rls by one eigendecomposition a σ
// (loo.SelectRLS, classify.SelectRLS), nystrom streaming the rows in two
// passes for every σ, with no n×M matrix (loo.SelectNystrom,
// classify.SelectNystrom). Either may be a number while the other is
// chosen; rls chooses λ unless given. The σ grid is loo.DefaultSigmas of
// the median distance between rows in the kernel's own distance
// (loo.MedianDistanceOf), the λ grid loo.DefaultLambdas, 51 values from
// 1e-10 to 1 (rls on one σ: 25 over the spectrum of K); -sigmas and
// -lambdas MIN:MAX:COUNT replace them. σ is chosen on features
// standardized to mean 0 and standard deviation 1 (-standardize auto),
// and the saved model keeps the map. A constant feature is kept at its
// value, with a note; one that barely varies draws a warning, and so do
// test (or predict) rows more than 1000 standard deviations out
// (kernels.Standardization.Outlying), where the model predicts its
// intercept alone, or that differ from a feature constant in training; a
// row beyond the float64 range in standard deviations is refused.
// Regression minimizes the mean squared leave-one-out residual, classify
// the error rate; -criterion gcv minimizes generalized cross-validation
// (nystrom and falkon, one pass). -loo-rows N takes the leave-one-out
// mean over N rows drawn at random, each residual exact, printed with its
// standard error (auto: loo.DefaultSubset).
//
// falkon -centers M chooses on m = min(M, -select-centers) of its centres
// (default 1000), then fits on all M at the pair, λ weighing one
// objective for any number of centres (Rudi, Camoriano and Rosasco, "Less
// is More: Nyström Computational Regularization", 2015), iterating until
// its preconditioner's promise is met (at most 100 iterations unless
// -iters); if it stops short, a warning says that the saved model is not
// the one the selection scored. The final fit's memory is checked first.
//
// The table of the criterion (a row per λ, a column per σ, the chosen pair
// starred) goes to standard output, or under "table" with -json; -plot
// FILE draws it as SVG, one curve per σ:
//
//	$ rkhs fit -train datasets/regression/housing_scale -method nystrom -centers 200 -sigma auto -lambda auto -plot housing.svg
//	rkhs: features standardized by the mean and standard deviation of the 506 training rows
//	rkhs fit -method nystrom: pass 1 of 2, every σ: statistics, 0.1 s
//	rkhs fit -method nystrom: pass 2 of 2, every σ: leave-one-out, 0.2 s
//	loo_mse     σ=1.167       σ=2.335       σ=4.67        σ=9.339       σ=18.68
//	λ=1e-10     2391.58       31.1784       20.0626       16.7906       11.8501
//	…
//	λ=1.58e-05  58.1852       14.8535       9.05831*      11.1485       14.5466
//	…
//	chosen σ = 4.67 (median distance 4.67 × 1), λ = 1.585e-05: loo_mse 9.05831 over 506 rows
//	method nystrom, kernel gaussian, intercept free, σ = 4.67, λ = 1.585e-05
//	n_train 506, b = 28.5637, train MSE 4.98129, fit 0.269 s
//
// One line on standard error warns of a choice at an edge of its grid, of
// a table whose scores all agree, and of a σ given as a number at which
// the kernel matrix of the centres, or of 500 sampled rows, is
// numerically the identity or all ones (kernels.CheckDegenerate), in rkhs
// loo too:
//
//	$ rkhs fit -train datasets/regression/cpusmall_scale -method nystrom -centers 300 -sigma auto -lambda auto
//	rkhs fit: warning: the chosen σ = 14.56 is the largest of its grid (0.91 to 14.56, 5 values): the best σ may lie above it; widen -sigmas MIN:MAX:COUNT
//	$ rkhs fit -train datasets/regression/housing_scale -method nystrom -centers 50 -sigma 1e-4 -lambda 1e-3
//	rkhs fit: warning: -sigma 0.0001 is far below the median distance between rows, 2.345: the kernel matrix of 50 centres is numerically the identity (50 of them with every off-diagonal entry below 1e-06); try -sigma auto or -standardize
//
// eigen, tsvd and tikh warn when nλ is so near the rounding level ε‖K‖ of
// the kernel matrix (regress.Spectral.RoundingLevel) that rounding alone
// leaves the fit uncertain: for tikh when its objective may lie more than
// 10⁻⁶ above its minimum, for eigen and tsvd when nλ is within 100 of ε‖K‖.
//
// # One σ per feature
//
// -sigma ard learns one Gaussian width per feature and λ (automatic
// relevance determination; -method nystrom and falkon): the grid of -sigma
// auto, then L-BFGS from its choice on the same criterion and centres
// (loo.SelectScales; classify on the ±1 codes, its error rate reported) on
// -ard-rows rows (auto: every row up to 100,000, 50,000 above) and the
// first centres (loo.DefaultDescentCenters: every one up to 400, else 2/5
// of them and at least 400; the model is then fitted on all of them at
// the scales found) for at most -ard-iters iterations (50), a line each on
// standard error. The features
// are ranked by σ_j, in standard deviations; -json adds sigmas and the
// descent (ard_history …), -plot draws it. The top level of -json is the
// model saved: its lambda, its criterion on every row (loo_mse, or gcv;
// loo_error beside it for classes; loo_rows, loo_stderr) and no single
// sigma; the grid's choice where the descent began is under grid_sigma,
// grid_lambda, grid_loo_mse, grid_gcv, grid_loo_error, grid_loo_rows and
// grid_loo_stderr. When the scales do worse on every row than the grid's
// choice, a warning says so and the grid's model is saved: the top level
// is then the grid's, with no ard_ or grid_ fields. The model, the
// Gaussian of width 1 with the scales in its standardization, is read by
// predict as any:
//
//	$ rkhs fit -train datasets/regression/housing_scale -method nystrom -centers 200 -sigma ard -lambda auto -ard-iters 30
//	…
//	ard from σ = 4.67, λ = 1.585e-05: loo_mse 9.05831 → 6.07633 on 506 rows in 30 iterations (40 evaluations); stopped: the budget of iterations (-ard-iters) spent
//	rank  feature          σ_j (standard deviations)
//	   1  10               0.6318
//	   2  8                1.121
//	…
//	  13  4                1961
//	chosen λ = 7.849e-07 with these scales: loo_mse 6.07633 over 506 rows
//
// # classify
//
// classify fits a classifier (-method rls, perceptron, knn, logistic, svm,
// nystrom or falkon) and reports its accuracies as fractions. A label with
// more distinct values than max(20, n/10) for n rows is refused as a
// continuous target for rkhs fit (-max-classes N raises the limit), and so
// is a one-vs-all fit whose n × classes codes alone exceed the memory:
//
//	$ rkhs classify -train datasets/classification/heart_scale -method rls -sigma 4
//	rkhs classify -method rls: pass 1 of 1, σ = 4: eigendecomposition and leave-one-out, 0.0 s
//	loo_error   σ=4
//	…
//	chosen σ = 4, λ = 0.002855: loo_error 0.162963 over 270 rows
//	method rls, kernel gaussian, 2 classes {-1, 1}
//	σ = 4, λ = 0.002855, λ chosen by leave-one-out (LOO error 0.1630)
//	n_train 270, train accuracy 0.8519, fit 0.029 s
//
// # predict
//
// predict predicts with a model saved by fit or classify (any file
// the model file of internal/cli reads): values as %.17g, labels in the shortest form
// that reads back exactly, one a line, bit-identical to the fit's. A
// model fitted on a CSV file with a header finds its features by name in
// a CSV file with a header, its label not read; another file is read by
// position — the model's features in order, then the label, with a note,
// since a model does not record where its training file had the label;
// -unlabelled when there is none. In fit and classify, a headerless -test
// beside a training file read with -target another column than the last,
// or -features a subset, is refused, naming the header to give it. With
// -drop-missing, a row dropped predicts NaN, so that line i is row i.
// Model files are read strictly: keys exactly as written, each once.
//
//	$ rkhs predict -model housing.json -data datasets/regression/housing_scale | head -3
//	24.610020612553001
//	22.542277690513892
//	33.103891528791934
//
// # Intervals
//
// -interval LEVEL (fit -method cholesky, eigen, nystrom, falkon; classify
// -method rls, nystrom) gives each test row an interval that holds its
// target with probability about LEVEL, or a set of labels: jackknife+ or
// CV+ (Barber, Candès, Ramdas and Tibshirani, 2021) from the exact
// leave-one-out or leave-fold-out models, closed forms of the fit (package
// interval). -interval-method cv+ (falkon's and a streamed selection's
// default) uses -folds K folds drawn by -seed, and -model then saves the K
// fold models and residuals for predict -interval LEVEL. With -test the
// coverage and the mean width (a set's mean size) are printed;
// -predictions writes prediction,lower,upper (label,set); -plot the
// coverage against the level. The guarantee holds at a fixed σ and λ:
// after a choice on the same rows a note says so, and -interval-method
// cv+fold (with -sigma auto or -lambda auto) makes each fold model repeat
// the choice on the rows outside its fold, which the guarantee covers.
//
// # loo
//
// loo prints the exact leave-one-out error of RLS along a geometric range
// of λ from one eigendecomposition (-json: lambdas, loo_mse, best_lambda):
//
//	$ rkhs loo -train datasets/regression/housing_scale -sigma 1 -lambdas 1e-8:1:9
//	lambda       loo_mse
//	1e-08        38.0218
//	…
//	0.0001       8.5195
//	…
//	1            78.9789
//	best λ = 0.0001, LOO MSE 8.5195 (506 points, 0.15 s)
//
// # paper
//
// paper reproduces the experiment of Prato and Zanni, "A practical use of
// regularization for supervised learning with kernel methods" (2012), on
// the eight LIBSVM regression sets of package datasets, into -out DIR
// (table.md, results.json, one SVG per set; docs/paper holds a run's).
package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"rkhs/internal/cli"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// verb is a command of rkhs: its name, the arguments of its usage line,
// what it does in one line, and setup, which registers its flags on fs
// and returns the function that runs it once they are parsed. The help,
// the parsing of flags and the dispatch are made from this table.
type verb struct {
	name, args, summary string
	setup               func(fs *flagSet) (run func(stdout, stderr io.Writer) error)
}

// verbs are the commands of rkhs, in the order the usage lists them.
var verbs = []*verb{
	{"fit", "-train FILE [-test FILE] [-method M] [-kernel K] [-sigma S|auto|ard] [-lambda L|auto] [...]",
		"fit kernel RLS (or a relative) on -train and report its errors", setupModel("fit")},
	{"classify", "-train FILE [-test FILE] [-method M] [-kernel K] [-sigma S|auto|ard] [-lambda L|auto] [...]",
		"fit a kernel classifier on -train and report its accuracy", setupModel("classify")},
	{"predict", "-model FILE -data FILE [-interval LEVEL] [-predictions OUT]",
		"predict with a model saved by rkhs fit -model or rkhs classify -model", setupPredict},
	{"loo", "-train FILE [-kernel K] [-sigma S] [-lambdas MIN:MAX:COUNT] [-intercept I] [-json]",
		"exact leave-one-out errors of kernel RLS over a geometric range of λ, from one eigendecomposition", setupLOO},
	{"paper", "[-data DIR] [-out DIR] [-seed N] [-sets A,B,...]",
		"reproduce the Prato–Zanni experiment on the eight LIBSVM regression sets", setupPaper},
}

// run runs the command line args (without the program's name) and returns
// the exit status (cli.Status), with one line on stderr for an error.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "help" {
		fmt.Fprint(stderr, "rkhs: kernel regularized least squares on data files.\n\n")
		for _, v := range verbs {
			fmt.Fprintf(stderr, "  rkhs %-9s%s\n", v.name, v.summary)
		}
		fmt.Fprint(stderr, "\nRun \"rkhs VERB -h\" for the flags of a verb.\n")
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	i := slices.IndexFunc(verbs, func(v *verb) bool { return v.name == args[0] })
	if i < 0 {
		names := make([]string, len(verbs))
		for j, v := range verbs {
			names[j] = v.name
		}
		fmt.Fprintf(stderr, "rkhs: unknown command %q (want %s)\n", args[0], strings.Join(names, ", "))
		return 2
	}
	v := verbs[i]
	fs := newFlagSet(v.name)
	do := v.setup(fs)
	err := fs.parse(v, args[1:], stderr)
	if err == nil {
		err = do(stdout, stderr)
	}
	status := cli.Status(err)
	if status != 0 {
		fmt.Fprintf(stderr, "rkhs %s: %s\n", v.name, cli.OneLine(err.Error()))
	}
	return status
}
