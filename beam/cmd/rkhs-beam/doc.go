// Command rkhs-beam fits Nyström kernel ridge regression on Apache Beam
// and applies saved models to files of rows (package rkhs/beam).
//
// Usage:
//
//	rkhs-beam fit     -input GLOB[,GLOB…] -format csv|libsvm -kernel K [-sigma S] -lambda L [-standardize auto|yes|no]
//	                  [-intercept none|free|penalized] (-centers M [-seed N] | -centers-file FILE)
//	                  [-solver direct|cg [-scratch DIR]] -model OUT [-stats OUT] [-dead-letter OUT] [runner flags]
//	rkhs-beam select  -input GLOB[,GLOB…] -format csv|libsvm [-kernel gaussian|laplacian] [-sigmas A:B:K] [-lambdas A:B:K]
//	                  [-standardize auto|yes|no] [-classes [-max-classes N]] [-criterion loo|gcv] [-intercept I]
//	                  [-sigma ard [-ard-rows N|auto] [-ard-iters N]] (-centers M [-seed N] | -centers-file FILE)
//	                  [-interval LEVEL [-interval-method cv+] [-folds K]] [-scratch DIR] [-json] -model OUT [runner flags]
//	rkhs-beam predict -input GLOB[,GLOB…] -format csv|libsvm [-unlabelled] -model FILE -output DIR [-dead-letter OUT] [runner flags]
//	rkhs-beam solve   -stats FILE -lambda L [-intercept I] -model OUT   (no pipeline: a new λ from saved statistics)
//
// # Input files
//
// A CSV file is read as rkhs reads one (-header, -target, -features in
// any order in each file, -comma), with -label-col, 0-based and negative
// from the end, for the label of a file without a header; the model keeps
// the columns' names, so that both predict verbs find them by name.
// LIBSVM input needs -width D, its number of features. Names ending in
// .gz are read through gzip. λ is in the K + nλI convention, n the rows
// read; the model file is the JSON rkhs predict reads. fit's -centers M
// -seed S are rkhs's (two more reads: rkhsbeam.DrawCenters). -solver cg runs one
// pipeline a pass of regress.Falkon's solver (20 iterations, no penalized
// intercept), each writing its sums under -scratch (a directory the
// workers share; default the system's temporary directory), removed at
// the end.
//
// -standardize scales every feature to mean 0 and standard deviation 1 by
// the moments of the rows read, merged across workers, and the model
// keeps the map; auto is on exactly when σ is chosen from the data, as in
// rkhs: always in select, never in fit.
//
// # select
//
// select chooses σ and λ as rkhs fit -sigma auto -lambda auto does
// (loo.SelectNystrom), in passes of the pipeline: a first pipeline reads
// the features' moments and the labels; a second gathers the rows rkhs
// draws its centres and its median from with the same -seed (the centres
// of -centers, shared by every σ of the geometric grid -sigmas
// MIN:MAX:COUNT, whose default is the median distance between rows, as
// the kernel sees them, × {1/4, 1/2, 1, 2, 4}); a third summarises the
// data for each σ; this process computes GCV and tr H for every λ of
// -lambdas; unless -criterion gcv, a fourth pipeline gives the exact
// leave-one-out residuals of every pair, on every row up to 100,000 rows
// and on 20,000 drawn with -seed above, rkhs's default -loo-rows (each
// worker rebuilds the λ path from the statistics, which it reads from
// -scratch: a directory the workers share). It writes the model at the
// pair with the smallest score to -model and prints the table of the
// criterion, one row per λ and one column per σ, the chosen pair starred,
// as rkhs does (with -json, one object with the fields of rkhs fit -json
// for a selection, and the tables of every score). -interval LEVEL adds
// CV+ (-folds K, default 10; folds by -seed and row number, as rkhs) from
// fold statistics merged across files and one more pass for the residuals,
// saved in the model as rkhs fit -interval-method cv+ saves it, so rkhs
// predict -interval gives its intervals. With -classes the
// labels are classes, coded ±1 (one-vs-all beyond two classes) as rkhs
// classify codes them, the criterion is the leave-one-out error rate (ties
// to the smaller leave-one-out squared error) and the model a classifier;
// labels that look like a continuous target (more distinct values than
// max(20, n/10) for n rows) are refused, as rkhs classify refuses them
// (-max-classes N raises the limit). Labels whose squared residuals
// overflow are refused with their magnitude. A choice at the smallest or
// largest value of its σ or λ grid draws one warning line on standard
// error, as in rkhs: the grid should be widened on that side.
//
// -sigma ard (the gaussian kernel only) goes on from the grid's choice
// (σ₀, λ₀) as rkhs fit -sigma ard does: one length scale σ_j per feature
// and λ, learnt by L-BFGS on the same criterion (the mean squared
// leave-one-out residual, of the ±1 codes with -classes, whose error rate
// is reported beside it; or GCV) with the same centres and
// standardization (loo.SelectScales), for at most -ard-iters iterations
// (0: 50), on the rows of -ard-rows, whose rule is rkhs's: auto, the
// default, every row up to 100,000 rows and 50,000 drawn at random (with
// -seed) above; 0 every row; or a count. On every row, each evaluation
// of the criterion and its gradient is three pipelines (two for GCV):
// the statistics at the scales, then this process forms the fit, then
// the leave-one-out residuals and the adjoint pass, each worker
// rebuilding the fit from the statistics in -scratch. On rows drawn, one
// pipeline gathers them, by their place among all the rows (the files in
// the order their globs list them), and the descent runs on them in this
// process, as rkhs runs it; the fit at the scales and its criterion are
// then on every row, two pipelines more. (rkhs-beam has no -loo-rows:
// its leave-one-out errors are over rkhs's default subset.) One line
// per iteration goes to standard error (the criterion, the projected
// gradient, the seconds). The model written is the fit at the scales,
// its standardization the features' composed with the scales, so that
// rkhs predict and rkhs-beam predict read it as any model. After the
// grid's table it prints, as rkhs does, the descent, the features from
// the most relevant (the shortest σ_j, in standard deviations of the
// feature) to the least, a constant feature last, and the criterion at
// the scales; -json adds the fields of rkhs fit -json for the descent
// (sigmas in the order of the columns, feature_names, ard_ranking,
// ard_history, ard_iterations and the other ard_ fields); its top level
// is, as rkhs's, the model written (lambda the scales' λ, loo_mse or gcv
// and loo_error their scores on every row, no single sigma), and the
// grid's choice is under grid_sigma, grid_lambda, grid_loo_mse and the
// other grid_ fields. The grid's choice is only the descent's start: a
// choice at an edge of the grid draws no warning.
//
// # predict
//
// predict reads any model file rkhs reads and writes, for each
// input file, OUT/NAME.pred (NAME the file's name without .gz), one line
// a row as rkhs predict writes them; with -dead-letter, a row that cannot
// be read gets a line of NaN, so that line i stays row i. A CSV file with
// a header is read by the model's column names, as rkhs predict reads it;
// any other file by position. Two input files of one NAME are refused.
//
// # Outputs
//
// Output paths are checked before any job, as rkhs checks them (never an
// input, a file an -input glob matches, another output, or a file in a
// directory that does not exist), and a local one is written as rkhs
// writes it (package internal/outfile); "-" is standard output only when
// the pipeline runs in this process. Paths with a scheme (gs://) are the
// runner's to check.
//
// # Runners
//
// -runner selects where the pipeline runs (Beam's flag; default prism):
//
//   - prism: in this process, on every core; nothing to install. For
//     tests and inputs one machine can read.
//   - flink: -runner flink -endpoint HOST:8099 (a Flink job server, Beam's
//     flink-job-server container beside a Flink cluster) and
//     -environment_type DOCKER (workers run the Go SDK container) or
//     LOOPBACK (workers call back into this process: local clusters only).
//     Input, output and model paths must be on a filesystem every worker
//     reaches (gs://, s3:// or a shared mount).
//   - spark: -runner spark -endpoint HOST:8099 (Beam's spark-job-server),
//     with the same -environment_type choices and path rules.
//   - universal: -runner universal -endpoint HOST:PORT, any job server —
//     Prism started as one (its command, prism -job_port PORT) runs the
//     workers as processes of this machine with -environment_type PROCESS
//     -environment_config '{"command":"BOOT"}' -worker_binary
//     ./rkhs-beam, BOOT the Go SDK's boot loader (go build
//     github.com/apache/beam/sdks/v2/go/container); Prism v2.77 passes
//     the worker id in quotes (--id='ID'), which a two-line script around
//     the boot loader strips (as the package's test does).
//   - dataflow: -runner dataflow -project P -region R -temp_location
//     gs://B/tmp -staging_location gs://B/staging; the command builds a
//     Linux worker binary of itself (or give -worker_binary), and paths are
//     gs:// paths.
//
// The command prints one line on standard error, a summary or the error
// (-v adds the runner's logs), and exits as rkhs does: 2 for input the
// user can fix, found before any job or after its first pass, 1 for a job
// that fails.
package main
