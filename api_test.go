package rkhs_test

// The convention tables grow with the API: every exported function and
// method of the packages below has a row in a convention table or a line
// in exempt that says why none applies.

import (
	"go/ast"
	"go/build"
	"go/doc"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"testing"
)

// apiPackages are the directories, relative to the module root, whose
// exported functions and methods the convention tables must cover.
var apiPackages = []string{"linalg", "kernels", "regress", "loo", "interval", "classify", "dataset", "optimize", "model", "report"}

// Reasons shared by several exemptions.
const (
	accessor  = "accessor: returns what the value holds and checks nothing"
	stringer  = "fmt.Stringer: formats a value for messages"
	errorType = "method of an error type"
	formula   = "a formula on one number: no error result, NaN in gives NaN out"
	indexes   = "indices or sizes a program fixes, not data: impossible ones panic, as make does (doc.go, Failure)"
	evalLoop  = "the inner loop of every kernel matrix: no checks, which Validate, Gram, Cross and NewRows make"
	rowsOp    = "no error result: NewRows checked kernel and data; a destination or vector of the wrong shape panics, as in linalg"
	scaledOp  = "a pass's block over a Scaled kernel: NewScaled checked kernel, scales and centres, Blocks's error is CrossTo's; a block or sum of the wrong shape panics, as in linalg"
	blas      = "linalg's BLAS layer: no error result, misuse panics (doc.go, Failure)"
	factored  = "reads a factorization; before a successful Factorize it panics, as linalg does for misuse"
	formats   = "formats values a selection computed: no error result; nil or empty ones write nothing or an empty page (report's TestNothingToReport)"
)

// exempt lists the exported functions and methods that have no row in a
// convention table, each with the reason no convention applies. A name is
// spelled as go doc spells it: pkg.Func or pkg.Type.Method.
var exempt = map[string]string{
	"regress.AlphaFromLambda":               formula,
	"regress.Cost.Duration":                 formula,
	"regress.GemmRate":                      "a measurement of this machine's speed: no input, no error result",
	"report.RoundDuration":                  formula,
	"dataset.Data.Widen":                    indexes,
	"dataset.Data.Labels":                   accessor,
	"regress.LambdaFromAlpha":               formula,
	"regress.LambdaFromC":                   formula,
	"regress.FalkonPromise":                 formula,
	"regress.FalkonMemory":                  formula,
	"regress.FalkonMaxCenters":              formula,
	"regress.ExactCost":                     formula,
	"regress.FalkonCost":                    formula,
	"loo.SelectNystromCost":                 formula,
	"model.Of":                              "a type switch over the models a program fitted: another type is a programming error and panics, as a type assertion does",
	"model.Marshal":                         "json.Marshal of a model, whose own MarshalJSON reports a model it cannot write",
	"model.Model.AppendLine":                "formats numbers the caller holds: no error result",
	"model.Model.Lines":                     "formats Predict's result: no error result",
	"report.Count":                          formats,
	"report.IntervalJSON":                   formats,
	"report.FromNystrom":                    formats,
	"report.NewSelection":                   formats,
	"report.ObjectiveName":                  formats,
	"report.SVG":                            formats,
	"report.Scales.Plot":                    formats,
	"report.Scales.PrintTable":              formats,
	"report.Scales.WorseWarning":            formats,
	"report.Selection.Plot":                 formats,
	"report.Selection.PrintTable":           formats,
	"report.Selection.WarnFacts":            formats,
	"report.WarnFacts":                      formats,
	"report.WarnTiny":                       formats,
	"report.WarnWidth":                      formats,
	"report.StandardizeNotes":               formats,
	"report.OffConstantLine":                formats,
	"report.OutlyingLine":                   formats,
	"report.OutlyingWorst":                  formats,
	"report.PositionNote":                   formats,
	"report.TooLarge":                       formats,
	"report.LOOAdvice":                      formats,
	"report.SelectionAdvice":                formats,
	"report.CentersAdvice":                  formats,
	"report.JSONFloat.MarshalJSON":          "json.Marshaler of a number: never fails, NaN and ±Inf are written null",
	"report.JSONFloats":                     formats,
	"report.JSONPtr":                        formats,
	"report.Scales.Fields":                  formats,
	"report.Selection.Fields":               formats,
	"classify.MaxClasses":                   formula,
	"loo.DefaultDescentRows":                "a default computed from a row count: 0 (every row) up to DefaultDescentAbove; no error result",
	"loo.DefaultDescentCenters":             "a default computed from a centre count: every one up to DefaultDescentCentersMin; no error result",
	"loo.SelectScales.DescentCenters":       "a count from the Centers option and m, at most m; no error result (Fit checks Centers)",
	"loo.ScaleSelection.Worse":              "compares two objectives already computed; false on a nil selection, no error result",
	"loo.SelectNystrom.SubsetRows":          "draws row indices from a count and a seed; nil (every row) for any n it cannot subset, no error result",
	"loo.SelectScales.CheckDescentRows":     "its only error is the refusal it exists for (the rows drawn hold one value); its tests cover it",
	"regress.CenterOrder":                   "a seeded permutation of 0…n−1; an empty one for n ≤ 0, no error result",
	"regress.FirstDistinct":                 "picks row indices of x; nil for a nil x, no numbers compared but for equality, no error result",
	"classify.CountClasses":                 "counts the caller's labels: any values, NaN counted as it sorts; no error result",
	"classify.DescribeMissing":              "formats MissingClasses for a warning: " + indexes,
	"classify.DescribeMissingOf":            "formats classes and counts for a warning; no error result",
	"classify.MissingClasses":               "counts labels at rows a program drew: " + indexes,
	"classify.CheckClasses":                 "compares counts: its only error is the refusal it exists for",
	"regress.Intercept.String":              stringer,
	"regress.StopReason.String":             stringer,
	"optimize.StopReason.String":            stringer,
	"regress.TikhonovFilter.String":         stringer,
	"regress.TruncatedSVDFilter.String":     stringer,
	"regress.IteratedTikhonovFilter.String": stringer,
	"regress.LandweberFilter.String":        stringer,
	"regress.NuFilter.String":               stringer,
	"regress.LinearPath.Intercept":          accessor,
	"regress.Spectral.Kernel":               accessor,
	"regress.Spectral.N":                    accessor,
	"regress.Spectral.Values":               accessor,
	"regress.Spectral.RoundingLevel":        accessor,
	"regress.Spectral.RoundingMiss":         "a bound computed from the spectrum and λ, no error to return: 0 for a nil or zero Spectral or λ that is not positive (NaN included), as documented",
	"regress.NystromStats.Kernel":           accessor,
	"regress.NystromStats.Centers":          accessor,
	"regress.NystromStats.Rows":             accessor,
	"regress.NystromStats.Outputs":          accessor,
	"regress.NystromStats.Reset":            "no argument and no error result: empties the statistics, keeping kernel and centres",
	"loo.DefaultLambdas":                    "a constant grid: no arguments",
	"loo.DefaultSigmaRatios":                "a constant grid: no arguments",
	"loo.DefaultSigmas":                     formula,
	"loo.DefaultSubset":                     formula,
	"loo.MedianRows":                        indexes,
	"loo.Complement":                        indexes,
	"loo.MinDescentRows":                    formula,
	"loo.Geometric":                         indexes,
	"loo.KFold":                             indexes,
	"loo.Split":                             indexes,
	"loo.Table.Facts":                       "compares the choice with the ends of the grids and the spread of the scores: no error result, a choice outside them is on no edge",
	"loo.Table.Best":                        "chooses among the caller's scores: no finite score is ok = false, not an error; a Scores shorter than its grids panics, as indexing does",
	"loo.Table.BestAt":                      "chooses among the caller's scores: no finite score is ok = false, not an error; a Scores shorter than its grids panics, as indexing does",
	"loo.Table.Format":                      stringer,
	"loo.Criterion.String":                  stringer,
	"loo.NystromPath.Rows":                  accessor,
	"loo.ScaleStats.Rows":                   accessor,
	"loo.ScaleLOO.Rows":                     accessor,
	"loo.ScaleAdjoint.Rows":                 accessor,
	"loo.ScaleObjective.SubsetRows":         indexes,
	"loo.ScaleSelection.Ranking":            "sorts the result's scales: no error result, a nil selection gives nil",
	"loo.NystromPath.Fit":                   "index into the path: out of range panics, as a slice index does; reads what NewNystromPath computed, no data to check",
	"regress.FalkonFit.StoppedShort":        accessor,
	"classify.FalkonFit.StoppedShort":       accessor,
	"regress.FalkonFit.StoppedShortOf":      accessor,
	"classify.FalkonFit.StoppedShortOf":     accessor,
	"dataset.CSVInfo.Names":                 accessor,
	"dataset.CSVInfo.NotPositional":         "reads the layout ReadCSVInfo reported: no error result, a nil info (LIBSVM) is positional",
	"dataset.CSVLines.Width":                accessor,
	"dataset.CSVLines.Info":                 accessor,
	"loo.Path.Len":                          accessor,
	"loo.Path.Best":                         accessor,
	"loo.Path.Predictions":                  "index into the path: out of range panics, as a slice index does",
	"loo.Path.Score":                        "no error result: applies the caller's metric to the path's predictions",
	"kernels.Linear.Eval":                   evalLoop,
	"kernels.Polynomial.Eval":               evalLoop,
	"kernels.Gaussian.Eval":                 evalLoop,
	"kernels.Laplacian.Eval":                evalLoop,
	"kernels.Rows.Dims":                     accessor,
	"kernels.SharesWidths":                  "a predicate on the kernels' types: no error result, nil is false",
	"kernels.Widths.Dims":                   accessor,
	"kernels.Widths.Len":                    accessor,
	"kernels.Widths.SharedTo":               rowsOp,
	"kernels.Widths.KernelTo":               rowsOp,
	"kernels.Moments.Constant":              "reads the moments and checks nothing: the columns Moments.Standardization refuses, for a caller to name",
	"kernels.Moments.NearlyConstant":        "reads the moments and checks nothing: the columns whose spread is below a threshold, for a caller's warning",
	"loo.Norm.String":                       stringer,
	"interval.Jackknife.Model":              accessor,
	"interval.Jackknife.Residuals":          accessor,
	"interval.Path.Lambdas":                 accessor,
	"interval.CV.Model":                     accessor,
	"interval.CV.Models":                    accessor,
	"interval.CV.Choices":                   accessor,
	"interval.CVPass.Rows":                  accessor,
	"interval.FoldStats.Rows":               accessor,
	"interval.StreamFold":                   "a hash of two integers, total for k ≥ 1 (k < 1 is a programming error and panics, as documented)",
	"interval.CV.Rows":                      accessor,
	"interval.Classes.Model":                accessor,
	"interval.Fitted.Model":                 accessor,
	"interval.Fitted.Classifier":            accessor,
	"interval.Fitted.CV":                    accessor,
	"interval.DefaultMethod":                "a choice between two constants by a bool: no error result, nothing to refuse",
	"interval.MaxLevel":                     "a formula on the number of rows: no error result, n < 1 gives 0",
	"interval.Intervals.Coverage":           "scores the package's own result against targets: no error result, a nil, mismatched or empty y gives NaN, NaN",
	"interval.LabelSets.Coverage":           "scores the package's own result against labels: no error result, a mismatched or empty labels gives NaN, NaN",
	"kernels.Rows.BlockTo":                  rowsOp,
	"kernels.Rows.EachBlock":                rowsOp,
	"kernels.Rows.MulTo":                    rowsOp,
	"kernels.Rows.MulVecTo":                 rowsOp,
	"kernels.Rows.MulTransTo":               rowsOp,
	"kernels.Rows.NormalMulTo":              rowsOp,
	"kernels.Rows.Blocks":                   rowsOp,
	"kernels.Widths.Blocks":                 rowsOp,
	"kernels.WidthsBlock.Kernel":            rowsOp,
	"kernels.BlockRows":                     indexes,
	"kernels.Scaled.Kernel":                 accessor,
	"kernels.Scaled.Sigma":                  accessor,
	"kernels.Scaled.Centers":                accessor,
	"kernels.Scaled.Blocks":                 scaledOp,
	"kernels.Scaled.AddGradient":            scaledOp,
	"kernels.Scaled.EndGradient":            scaledOp,
	"kernels.NewWidthsBlock":                indexes,
	"regress.NystromWorkLen":                indexes,
	"dataset.Data.Split":                    indexes,
	"dataset.FormatOf":                      "a rule on a file's name: no error result, any name has a format",
	"dataset.Data.Subset":                   indexes,
	"dataset.DataError.Error":               errorType,
	"dataset.DataError.Unwrap":              errorType,
	"dataset.ParseError.Error":              errorType,
	"dataset.ParseError.Unwrap":             errorType,
	"linalg.InputError.Error":               errorType,
	"linalg.InputError.Unwrap":              errorType,
	"linalg.MemoryError.Error":              errorType,
	"linalg.MemoryError.Unwrap":             errorType,
	"linalg.NotFiniteError.Error":           errorType,
	"linalg.NotFiniteError.Unwrap":          errorType,
	"linalg.PivotError.Error":               errorType,
	"linalg.PivotError.Unwrap":              errorType,
	"linalg.ConvergenceError.Error":         errorType,
	"linalg.ConvergenceError.Unwrap":        errorType,
	"linalg.Uplo.String":                    stringer,
	"kernels.Degeneracy.String":             stringer,
	"kernels.DegenerateError.Error":         errorType,
	"kernels.DegenerateError.Unwrap":        errorType,
	"linalg.FormatBytes":                    "formats a byte count for MemoryError's message: no error result",
	"linalg.NewDense":                       blas,
	"linalg.Dense.At":                       blas,
	"linalg.Dense.Set":                      blas,
	"linalg.Dense.Row":                      blas,
	"linalg.Dense.Dims":                     accessor,
	"linalg.Dense.IsEmpty":                  accessor,
	"linalg.Dense.Clone":                    blas,
	"linalg.Dense.Copy":                     blas,
	"linalg.Dense.Slice":                    blas,
	"linalg.Dense.Zero":                     blas,
	"linalg.Dense.Reuse":                    blas,
	"linalg.Dense.TransposeInPlace":         blas,
	"linalg.Dot":                            blas,
	"linalg.Nrm2":                           blas,
	"linalg.Gemm":                           blas,
	"linalg.Syrk":                           blas,
	"linalg.Lauum":                          blas,
	"linalg.Trtrs":                          blas,
	"linalg.Trsm":                           blas,
	"linalg.Trsv":                           blas,
	"linalg.Cholesky.Size":                  accessor,
	"linalg.Cholesky.LTo":                   factored,
	"linalg.Cholesky.LogDet":                factored,
	"linalg.Cholesky.SolveTo":               factored,
	"linalg.Cholesky.SolveVecTo":            factored,
	"linalg.Cholesky.InverseDiagTo":         factored,
	"linalg.EigenSym.Size":                  accessor,
	"linalg.EigenSym.Values":                factored,
	"linalg.EigenSym.VectorsTo":             factored,
	"linalg.EigenSymJacobi.Size":            accessor,
	"linalg.EigenSymJacobi.Values":          factored,
	"linalg.EigenSymJacobi.VectorsTo":       factored,
	"linalg.QR.QTo":                         factored,
	"linalg.QR.RTo":                         factored,
	"linalg.SVD.Values":                     factored,
	"linalg.SVD.UTo":                        factored,
	"linalg.SVD.VTo":                        factored,
	"linalg.SVD.Rank":                       factored,
	"linalg.SVD.SolveTo":                    factored,
}

// exportedAPI returns the exported functions and methods of the packages
// in dirs, as pkg.Func and pkg.Type.Method, from the files the current
// build would compile (no test files), in sorted order.
func exportedAPI(t *testing.T, dirs []string) []string {
	t.Helper()
	var names []string
	for _, dir := range dirs {
		bp, err := build.Default.ImportDir(dir, 0)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		fset := token.NewFileSet()
		var files []*ast.File
		for _, name := range bp.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		p, err := doc.NewFromFiles(fset, files, "rkhs/"+dir)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		for _, f := range p.Funcs {
			names = append(names, p.Name+"."+f.Name)
		}
		for _, typ := range p.Types {
			for _, f := range typ.Funcs {
				names = append(names, p.Name+"."+f.Name)
			}
			for _, m := range typ.Methods {
				names = append(names, p.Name+"."+typ.Name+"."+m.Name)
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// TestEveryEntryPointHasARow: each exported function and method of
// apiPackages has a row in a convention table (notFiniteRows,
// noPanicRows, tooLargeRows) or a line in exempt; every row and every
// exemption names an entry point that exists; nothing is both. A renamed or
// removed entry point is a one-line edit: its rows' api strings or its
// exemption.
func TestEveryEntryPointHasARow(t *testing.T) {
	api := exportedAPI(t, apiPackages)
	if len(api) < 100 {
		t.Fatalf("found only %d exported functions and methods in %v: is the test run from the module root?", len(api), apiPackages)
	}
	tables := map[string][]apiRow{
		"notFiniteRows (vocabulary_test.go)": notFiniteRows(t),
		"noPanicRows (vocabulary_test.go)":   noPanicRows(t),
		"tooLargeRows (memory_test.go)":      tooLargeRows(t),
	}
	rowed := map[string]bool{}
	for table, rows := range tables {
		for _, r := range rows {
			rowed[r.api] = true
			if _, ok := slices.BinarySearch(api, r.api); !ok {
				t.Errorf("%s: the row %s names %q, which is not an exported function or method of %v: correct its api or delete the row",
					table, r, r.api, apiPackages)
			}
		}
	}
	for _, name := range api {
		_, ex := exempt[name]
		switch {
		case !rowed[name] && !ex:
			t.Errorf("%s is exported but has no row in a convention table and no exemption. Add a row"+
				" {%q, \"<what is wrong with the arguments>\", func() error { … }} to the table of each convention it keeps:"+
				" notFiniteRows in vocabulary_test.go (it takes numbers: NaN or ±Inf must wrap linalg.ErrNotFinite),"+
				" noPanicRows in vocabulary_test.go (nil, zero-value or malformed arguments must be errors, not panics),"+
				" tooLargeRows in memory_test.go (it forms an n×n, n×m or m×m matrix: too large must be a *linalg.MemoryError);"+
				" or, if none applies, a line to exempt in api_test.go: %q: \"<why no convention applies>\",",
				name, name, name)
		case rowed[name] && ex:
			t.Errorf("%s has a row in a convention table and an exemption: delete its line from exempt in api_test.go", name)
		}
	}
	for name := range exempt {
		if _, ok := slices.BinarySearch(api, name); !ok {
			t.Errorf("exempt in api_test.go lists %q, which is not an exported function or method of %v: delete its line (or correct the name)", name, apiPackages)
		}
	}
}
