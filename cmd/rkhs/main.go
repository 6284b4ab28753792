// Command rkhs runs kernel regularized least squares and its relatives on
// data files.
//
// Usage:
//
//	rkhs fit      -train FILE [-test FILE] -kernel K [-sigma S|auto] -lambda L|auto -intercept I -method M [...]
//	rkhs loo      -train FILE -kernel K [-sigma S] -lambdas MIN:MAX:COUNT -intercept I [-json]
//	rkhs predict  -model FILE -data FILE -predictions OUT   (regression or classification model)
//	rkhs classify -train FILE [-test FILE] -method rls|perceptron|knn|logistic|svm|falkon|nystrom -kernel K [-sigma S|auto] [-lambda L|auto] [-k K] [-iters T] [-model OUT] [-json]
//	rkhs paper    [-data DIR] [-out DIR] [-seed N]
//
// λ is in the K + nλI convention (n = training rows), and -sigma is the
// Gaussian width in exp(−‖x−z‖²/(2σ²)). Run "rkhs CMD -h" for every flag
// of a command.
//
// # Data files
//
// Data files are LIBSVM sparse text (label idx:val …), CSV when the name
// ends in .csv, tab-separated when it ends in .tsv or .tab (-format says it
// otherwise), each possibly gzip- or bzip2-compressed (found by their first
// bytes). In a CSV file the first line is a header when none of its fields
// is a number (-header yes|no overrides), and names the columns: the label
// is the last column or the one -target names, the features all the others
// or those -features A,B,… names (columns not named are not read, so they
// may hold text); -comma C sets another separator (\t for a tab). A
// missing value (empty, NA, N/A, #N/A, NaN, null, None, ?) is an error
// naming its line and column unless -drop-missing drops its row and counts
// the rows dropped. The errors name what makes a file look written in
// another dialect (another separator, lines that end in one, carriage
// returns alone as line ends, a quote never closed, a first line of
// numbers that is a header after all) with the flag that reads it; a
// damaged gzip or bzip2 file is bad input naming the damage. A name that
// two header columns share is ambiguous, and an error. For fit and classify
// a test file's columns are positional: it must have the training file's
// width (a LIBSVM file, which omits trailing zero features, may be
// narrower).
//
//	$ rkhs fit -train PRSA_Data_Aotizhongxin_20130301-20170228.csv.gz -lambda 0.1
//	rkhs fit: …: dataset: line 2: field 16 ("wd"): "N" is not a decimal number
//	$ rkhs fit -train PRSA_Data_Aotizhongxin_20130301-20170228.csv.gz -lambda 0.1 \
//	      -target PM2.5 -features TEMP,PRES,DEWP,WSPM -drop-missing -method nystrom -centers 500
//	rkhs: PRSA_Data_Aotizhongxin_20130301-20170228.csv.gz: dropped 945 of 35064 rows with a missing value
//	…
//
// # Errors, output files and memory
//
// Errors are one line on standard error. The exit status is 2 for bad
// input — flags and their values, files that cannot be read or written or
// do not parse, arguments the library rejects, a problem too large for
// the memory there is — and 1 for a computation
// that fails on valid input (a matrix that is not positive definite, at a
// λ too small for it, or an iteration that does not converge); see
// exitStatus. Output paths are checked before the computation starts, and
// output files written only once everything has succeeded, each to a
// temporary file renamed into place with mode 0666 less the umask, so
// nothing is ever written half.
//
// A method that forms an n×n matrix says before allocating it when it will
// not fit (the Go memory limit, else the cgroup limit or the physical
// memory), with one line naming what would run instead; cg, landweber and
// nu then keep K out of memory and stream it. An exact run estimated at
// more than 10 s says first how long and how much memory it will take,
// then prints a progress line every 30 s.
//
// # fit
//
// fit fits a model, reports training and test error, and optionally saves
// it:
//
//	$ go run ./cmd/rkhs fit -train datasets/regression/housing_scale -kernel gaussian -sigma 1 \
//	      -lambda 1e-4 -intercept free -method cholesky -model housing.json
//	method cholesky, kernel gaussian, intercept free, λ = 0.0001
//	n_train 506, b = 26.0586, train MSE 2.90082, fit 0.010 s
//
// -method is cholesky, eigen (RLS through the eigendecomposition), tsvd,
// tikh (Tikhonov on the augmented matrix [K 1]), cg (CGLS on [K 1]),
// landweber, nu (ν-method), nystrom (-centers M -seed N) or falkon (Nyström
// solved by preconditioned conjugate gradient, for large n: -centers M
// -iters T, and -val F to hold out a fraction F of the training file). cg,
// landweber and nu take -iters T instead of λ (and reject -lambda, as every
// method rejects a flag it does not use; cg stops earlier once it has
// converged to rounding level). -test FILE adds the test error,
// -predictions OUT writes one test prediction per line (%.17g), and -json
// prints one object with n_train, n_test, lambda, b, train_mse, test_mse,
// fit_seconds:
//
//	$ go run ./cmd/rkhs fit -train datasets/regression/housing_scale -method cg -iters 30 -json
//	{"method":"cg","kernel":"gaussian","intercept":"free","n_train":506,"n_test":0,"features":13,"lambda":null,"b":27.28853553884617,"train_mse":7.380083990930517,"test_mse":null,"fit_seconds":0.034064514,"iterations":30}
//
// fit -method falkon and classify -method falkon print a line per
// iteration on standard error: the iteration, the elapsed time, the
// residual, and the error on the held-out -val fraction of the training
// file. With -val the training figures (n_train, train_mse, the training
// accuracy) are those of the rows fitted, and the held-out rows are
// reported apart (n_val, val_mse or val_accuracy). A run with many centres
// estimated at more than 10 s says first how long and how much memory it
// will take.
//
//	rkhs fit -method falkon -centers 4000 -iters 20 -val 0.1 …
//
// # Choosing σ and λ
//
// -sigma auto and -lambda auto choose the kernel width and λ by exact
// leave-one-out: fit -method cholesky or eigen and classify -method rls
// through one eigendecomposition per σ (package loo, SelectRLS), fit and
// classify -method nystrom -centers M streaming the rows, two passes over
// them for all σ together and no n×m matrix (loo.SelectNystrom: the same M centres, drawn as
// -method nystrom -seed draws them, for every σ). The σ grid is the median
// distance between rows (loo.MedianSigma, a seeded sample of 1000 rows)
// times 1/4, 1/2, 1, 2 and 4; the λ grid 51 values from 1e-10 to 1, five a
// decade; -sigmas and -lambdas MIN:MAX:COUNT replace them (geometric).
// Regression minimizes the mean squared leave-one-out residual, classify
// the leave-one-out error rate (ties to the smaller squared residual of
// the ±1 codings); -criterion gcv minimizes generalized cross-validation
// instead (nystrom, one pass). -loo-rows N computes the leave-one-out
// mean over N rows drawn at random (-seed), each residual exact and the
// mean an unbiased estimate of every row's, printed with its standard
// error; its default, auto, is every row up to 100,000 training rows and
// 20,000 drawn rows above that, where the pass on every row would double
// the selection's time (-loo-rows 0: every row at any size).
// Either parameter may be given as a number while the other is chosen.
// fit and classify -method falkon -centers M choose as nystrom does on
// the first m = min(M, -select-centers) of the M centres falkon draws with
// -seed (default 1000: a selection costs O(n·m²) per σ, seconds at
// m = 1000), then fit falkon on all M at the chosen σ and λ; with
// M ≤ -select-centers the selection used every centre and the fit is
// solved directly from its statistics, as nystrom's. σ carries over as it
// is, and so does λ: in the K + nλI convention it weighs one objective,
// (1/n)‖K_nM c − y‖² + λ cᵀK_MM c, for any number of centres, of which
// more centres are a closer approximation (Rudi, Camoriano and Rosasco,
// "Less is More: Nyström Computational Regularization", 2015). A
// line per pass goes to standard error, the table of the criterion (a row
// per λ, a column per σ, the chosen pair starred) to standard output or,
// with -json, under "table" beside sigma, lambda, loo_mse or loo_error,
// the test error and fit_seconds (selection and final fit together);
// -plot FILE draws the criterion against λ, one curve per σ, as SVG. The
// model saved by -model is the fit at the chosen pair.
//
//	$ rkhs fit -train cpu-train -test cpu-test -method nystrom -centers 300 -sigma auto -lambda auto -plot cpu.svg
//	rkhs fit -method nystrom: pass 1 of 10, σ = 0.2132: statistics, 0.1 s
//	…
//	loo_mse     σ=0.2132      σ=0.4263      σ=0.8526      σ=1.705       σ=3.411
//	…
//	λ=1.58e-07  79.0035       24.4174       9.89545       8.75281*      9.98985
//	…
//	chosen σ = 1.705 (median distance 0.8526 × 2), λ = 1.585e-07: loo_mse 8.75281 over 6144 rows
//	method nystrom, kernel gaussian, intercept free, σ = 1.705, λ = 1.585e-07
//	n_train 6144, b = -9.25051, train MSE 7.74438, fit 3.105 s
//	n_test 2048, test MSE 8.55819
//
// A σ given as a number is checked on the data: when the kernel matrix of
// the centres (or of 500 sampled rows) is numerically the identity or all
// ones (kernels.CheckDegenerate: at least half the points with every
// off-diagonal entry of their row below 1e-6, or with most of them above
// 1 − 1e-6), the model is close to the mean and one line on standard
// error says so, naming σ and the median distance:
//
//	$ rkhs fit -train datasets/regression/housing_scale -method nystrom -centers 50 -sigma 1e-4 -lambda 1e-3
//	…
//	rkhs fit: warning: -sigma 0.0001 is far below the median distance between rows, 2.345: the kernel matrix of 50 centres is numerically the identity (50 of them with every off-diagonal entry below 1e-06); try -sigma auto or -standardize
//
// A selection whose choice is the smallest or the largest value of its σ
// or λ grid (loo.Table.Edges) says so on standard error, one line per grid:
// the criterion may keep falling beyond the grid, which should be widened
// on that side:
//
//	rkhs classify: warning: the chosen λ = 1e-10 is the smallest of its grid (1e-10 to 0.01, 25 values): the best λ may lie below it; widen -lambdas MIN:MAX:COUNT
//
// # predict
//
// predict predicts with a model saved by fit -model or classify -model:
// values as %.17g, or a classifier's labels in the shortest form that reads
// back exactly, as classify -predictions writes them; bit-identical to the
// fitted model's. A model fitted on a CSV file with a header stores the
// names of its feature and label columns (feature_names, target_name in
// the model file), and predict finds the features by these names in a CSV
// file with a header, in any order and without reading its label; a name
// missing from the header is an error, and so are -features or -target
// that disagree with the stored names. A file without a header (or LIBSVM)
// is read by position, and a CSV file without a label column then needs
// -unlabelled. Model files are read strictly: keys exactly as written, each
// once, no unknown ones, and a kernel with only its own type's parameters.
//
//	$ go run ./cmd/rkhs predict -model housing.json -data datasets/regression/housing_scale | head -3
//	24.610020612552866
//	22.542277690513757
//	33.103891528791863
//
// # loo
//
// loo prints the exact leave-one-out error of RLS for a geometric range of
// λ from one eigendecomposition (-json: lambdas, loo_mse, best_lambda):
//
//	$ go run ./cmd/rkhs loo -train datasets/regression/housing_scale -kernel gaussian -sigma 1 -lambdas 1e-8:1:9
//	lambda       loo_mse
//	1e-08        38.0218
//	1e-07        24.5545
//	1e-06        15.8964
//	1e-05        9.84703
//	0.0001       8.5195
//	0.001        12.0808
//	0.01         26.1226
//	0.1          55.9736
//	1            78.9789
//	best λ = 0.0001, LOO MSE 8.5195 (506 points, 0.08 s)
//
// # classify
//
// classify fits a classifier: -method rls|perceptron|knn|logistic|svm|falkon.
// RLS without -lambda chooses λ by leave-one-out on the training file;
// -intercept (none, free or penalized) sets the offset of every method but
// k-NN (default free, penalized for the SVM); -model OUT saves the
// classifier (-json: n_train, n_test, test_accuracy, fit_seconds, …). A
// label with more distinct values than max(20, n/10) for n rows — fewer
// than 10 rows a class on average — is refused as a continuous target for
// rkhs fit (-max-classes N raises the limit), and so is a one-vs-all fit
// whose n × classes targets alone exceed the memory:
//
//	$ go run ./cmd/rkhs classify -train datasets/classification/heart_scale -method rls -kernel gaussian -sigma 4 -json
//	{"method":"rls","kernel":"gaussian","intercept":"free","n_train":270,"n_test":0,"features":13,"classes":[-1,1],"lambda":0.0028549988523052885,"lambda_by_loo":true,"loo_error":0.16296296296296298,"train_accuracy":0.8518518518518519,"test_accuracy":null,"fit_seconds":0.021956325}
//
// # paper
//
// paper reproduces the experiment of Prato and Zanni, "A practical use of
// regularization for supervised learning with kernel methods" (2012), on
// the eight LIBSVM regression sets bundled in package datasets (see
// paper.go): 2/3 training and 1/3 test, 100 values of λ in [1e-10, 1e5],
// 50 CG iterations, the linear kernel and a Gaussian kernel whose σ is
// chosen on the training part alone. It compares RLS with a free intercept
// (their eq. 7), RLS with a penalized intercept (eq. 8), Tikhonov on the
// augmented matrix [K 1] and CG on [K 1] (eq. 9), and adds the λ that
// exact leave-one-out chooses on the training part. -data DIR reads the
// sets from a directory instead of the bundled copies, -out DIR (default
// paper-out) receives table.md, results.json and one SVG per set, -seed N
// changes the splits. The repository's docs/paper holds the output of a
// run.
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
	{"fit", "-train FILE [-test FILE] [-method M] [-kernel K] [-sigma S|auto] [-lambda L|auto] [...]",
		"fit kernel RLS (or a relative) on -train and report its errors", setupModel("fit")},
	{"classify", "-train FILE [-test FILE] [-method M] [-kernel K] [-sigma S|auto] [-lambda L|auto] [...]",
		"fit a kernel classifier on -train and report its accuracy", setupModel("classify")},
	{"predict", "-model FILE -data FILE [-predictions OUT]",
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
