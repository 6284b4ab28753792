// Package rkhsbeam fits Nyström kernel ridge regression (rkhs/regress,
// Nystrom) on Apache Beam, for data that no longer fits one machine,
// chooses its σ and λ by exact leave-one-out (Select), and applies saved
// models to files of rows. It is a nested module, so that users of rkhs
// never download Beam.
//
// # How a fit is split
//
// With the centres fixed, everything the solve needs from the data is a
// sum over rows (regress.NystromStats): each input file is read by one
// worker, parsed by package dataset, and summarised; the summaries, a few
// times m² numbers each, are merged by a CombineFn and solved on one
// worker. The result equals regress.Nystrom on all the rows with the same
// centres, to the rounding of the ridge problem; the runner's order of
// merges changes only the rounding.
//
// # How a selection is split
//
// Select chooses σ and λ as loo.SelectNystrom does, in two pipelines and
// the driver between them: the first draws the centres once and, for
// every σ of the grid, merges the statistics as a fit does; the driver
// forms the λ path of each σ (loo.NewNystromPath: tr H and GCV for
// every λ); the second pipeline, unless the criterion is GCV, reads every
// file once per σ on a worker that rebuilds the same path from the
// statistics (written to a scratch directory the workers share) and adds
// the file's exact leave-one-out residuals; the workers' sums cross the
// process boundary in their binary encoding and are merged by a
// CombineFn. The driver picks the pair and solves its statistics. The
// scores equal loo.SelectNystrom's on the same rows and centres to the
// rounding of the merges.
//
// # One length scale per feature
//
// With SelectOptions.ARD, Select goes on from the grid's pair to one
// Gaussian length scale per feature and λ: loo.SelectScales.Descend
// drives L-BFGS in the driver, and each evaluation of the objective and
// its gradient at θ is the three passes of loo.ScaleObjective run as
// pipelines (two for GCV): pass 0 merges every file's loo.ScaleStats at θ
// and writes them to the scratch directory; the driver forms the path
// (loo.NewScalePath); pass A adds every file's exact leave-one-out
// residuals (loo.ScaleLOO) on workers that rebuild the same path from the
// statistics; pass B the adjoint sums (loo.ScaleAdjoint), on workers that
// also form the same adjoint matrices from the merged pass-A sums. Only
// sums cross the process boundary, tied to the path by the fingerprints
// their encodings carry; a θ at which the fit interpolates a row is
// reported to the descent as +Inf, not as a failed job. The model is the
// path's fit at the scales, with the first pass's standardization
// composed with them (loo.ComposeScales). The descent equals
// loo.SelectScales.Fit on the same rows and centres to the rounding of
// the merges, as L-BFGS propagates it (select_scales.go). With
// SelectOptions.ARDRows the descent fits on rows drawn by their place
// among all the rows instead (loo.SelectScales.DescentRows; the first
// pass counts each file's rows): one pipeline gathers them, the descent
// runs on them in the driver as loo.SelectScales.Fit runs it, bit for
// bit, and the fit at the scales is on every row (scale_rows.go).
//
// # Standardization, σ from the data, classes
//
// The first pass of a fit or a selection reads every file once and
// gathers, besides the centres, what the later passes need (prepare.go):
// the features' moments, merged across workers by the update of Chan,
// Golub and LeVeque (kernels.Moments), whose map zⱼ = (xⱼ − μⱼ)/σⱼ
// standardizes the centres and every row before the kernel and is kept
// in the model file, so that Predict and rkhs predict take raw features
// (a constant feature is kept at its value, scaled by its magnitude, as
// rkhs keeps it); the distinct labels of a classification, coded ±1 or
// one-vs-all as rkhs classify codes them; and the median heuristic for σ
// (loo.MedianDistance, in the kernel's own norm) on the rows rkhs takes
// it on (loo.MedianRows), gathered with the centres by their places among
// all the rows (scale_rows.go; DrawCenters draws a fit's centres alike),
// which the σ grid of a selection multiplies; and the facts about
// the labels by which a selection refuses them before its later passes,
// as the library refuses them: classes that look like a continuous target
// (classify.CheckClasses), labels whose squared residuals overflow.
//
// A runner parallelises over files: one file is read by one worker, so
// split a large input into many files (gzip files cannot be split anyway).
//
// # Memory of a worker
//
// Every pass parses a file's rows into blocks sized by memory, not by a
// row count (see readBlocks): a block of rows of d features, with the m
// kernel values each row needs, stays within 32 MiB and grows with the
// file, so that sparse LIBSVM rows of 10⁵–10⁶ features cost tens of MiB
// per file. The centres drawn in the first pass are kept sparse (their
// non-zeros) until the one dense m×d matrix the statistics need; a LIBSVM
// fit whose centres and statistics cannot fit in memory is refused before
// the pipeline runs (linalg.ErrTooLarge).
//
// # Columns, labels and outputs
//
// Input.CSV is dataset.CSVOptions, and each file's first record settles
// its layout as dataset.NewCSVLines settles it — the rules by which rkhs
// reads a whole file: a header found (DetectHeader: a first line with no
// number) or given, the label and the features found by their names in
// it (Target, Features) or by position (LabelCol; its zero value is the
// first column, and rkhs-beam passes -1, the last, as rkhs reads CSV).
// Each file is read by its own header, so named columns may stand in any
// order in each; without names, the headers of all files must agree. The
// model keeps the names of the columns (regress.Model.FeatureNames), and
// Predict, as rkhs predict, reads a file with a header by them, and so
// does the first pass a centres file. Predict reads any model rkhs fit,
// rkhs classify or Fit saves and writes one line per row in the format of
// rkhs predict, NaN for a row set aside as malformed. A local output is
// written as rkhs writes its outputs (through symbolic links, to named
// pipes and devices, "-" to standard output, a regular file replaced
// whole). The conjugate-gradient fit (FitCG) works in a scratch directory
// of its own for every run, removed at the end.
//
// # Runners
//
// Pipelines run on any Beam runner: Prism (in-process, the default of
// rkhs-beam, for tests and jobs that fit one machine), Flink, Spark or
// Google Cloud Dataflow; see rkhs-beam's documentation for the flags. The
// tests run a selection on Prism in-process and on Prism as a job server
// whose workers are separate processes (the PROCESS environment, each
// worker started by the Go SDK's boot loader from the staged binary), so
// that the coders, the side inputs and the scratch directory cross a
// process boundary as on a cluster. Such workers need not share the
// launcher's directory: rkhs-beam makes local paths absolute for any
// runner but the in-process one.
package rkhsbeam
