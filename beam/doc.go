// Package rkhsbeam fits Nyström kernel ridge regression (rkhs/regress,
// Nystrom) on Apache Beam, for data that no longer fits one machine, and
// applies saved models to files of rows. It is a nested module, so that
// users of rkhs never download Beam.
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
// A runner parallelises over files: one file is read by one worker, so
// split a large input into many files (gzip files cannot be split anyway).
//
// # Runners
//
// Pipelines run on any Beam runner: Prism (in-process, the default of
// rkhs-beam, for tests and jobs that fit one machine), Flink, Spark or
// Google Cloud Dataflow; see rkhs-beam's documentation for the flags.
package rkhsbeam
