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
// # Labels and outputs
//
// Input.CSV is dataset.CSVOptions: its zero LabelCol is the first column;
// rkhs-beam passes -1, the last column, as rkhs reads CSV. Predict reads
// any model rkhs fit, rkhs classify or Fit saves and writes one line per
// row in the format of rkhs predict, NaN for a row set aside as
// malformed. The conjugate-gradient fit (FitCG) works in a scratch
// directory of its own for every run, removed at the end.
//
// # Runners
//
// Pipelines run on any Beam runner: Prism (in-process, the default of
// rkhs-beam, for tests and jobs that fit one machine), Flink, Spark or
// Google Cloud Dataflow; see rkhs-beam's documentation for the flags.
package rkhsbeam
