// Package cli holds every rule that the commands rkhs and rkhs-beam share,
// so that a flag spelt the same means the same in both, a refusal reads
// the same, and a fix made here reaches both:
//
//   - flag values: grids MIN:MAX:COUNT (Grid; the default grids of a
//     selection are loo's, loo.DefaultSigmas and loo.DefaultLambdas), a number or auto
//     (AutoValue), -standardize (Standardize, with JoinValues so that
//     "-standardize yes" reads as "-standardize=yes"), the layout of a CSV
//     file (CSVColumns: -header, -target, -features, -comma), -intercept
//     (Intercept);
//   - data files: the flag that reads a CSV file written in another dialect
//     (CSVHint);
//   - output files: which paths may be written (CheckOutputs and
//     CheckOutputDir: never an input file or a file an input glob
//     matches, never another output; how they are written is package
//     outfile's);
//   - errors and exit statuses (BadInput, Status, OneLine): 2 for input
//     the user can fix, 1 for a computation that failed on valid input;
//   - the rows of a selection's leave-one-out pass (LOORows) and the
//     error of a problem too large for memory (TooLarge, with report's
//     line and advice); what a selection, a σ given and a
//     standardization tell their user, and a selection's -json fields,
//     are package report's;
//   - one length scale per feature (-sigma ard): the value of -sigma
//     (SigmaValue), the rules of -ard-rows and -ard-iters (ARDFlags:
//     Register, Check, RowsOf) and the progress line (ScalesProgress).
//
// The commands' own files hold only what is theirs: their verbs, methods
// and flags as tables, and the drivers that run them.
package cli
