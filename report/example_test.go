package report_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"rkhs/dataset"
	"rkhs/kernels"
	"rkhs/linalg"
	"rkhs/loo"
	"rkhs/optimize"
	"rkhs/report"
)

// table is a leave-one-out table of 3 σ × 3 λ whose least score is at
// σ = 2, λ = 0.01.
func table() (*loo.Table, loo.Choice) {
	t := &loo.Table{Criterion: loo.LOOMSE, Sigmas: []float64{1, 2, 4}, Lambdas: []float64{1e-4, 1e-2, 1},
		Scores: [][]float64{{0.30, 0.25, 0.40}, {0.20, 0.12, 0.35}, {0.3, 0.2, 0.4}}}
	return t, loo.Choice{Sigma: 2, Lambda: 1e-2, Score: 0.12}
}

// ExampleSelection_PrintTable prints the table, the choice starred, and
// the choice in a line: its σ as a multiple of the median distance the
// grid was built around, and the rows its leave-one-out mean is over.
func ExampleSelection_PrintTable() {
	t, c := table()
	s := report.NewSelection(t, c, 4, 100)
	s.LOOMSE, s.LOORows = 0.12, 100
	s.PrintTable(os.Stdout)
	// Output:
	// loo_mse     σ=1           σ=2           σ=4
	// λ=0.0001    0.3           0.2           0.3
	// λ=0.01      0.25          0.12*         0.2
	// λ=1         0.4           0.35          0.4
	// chosen σ = 2 (median distance 4 × 0.5), λ = 0.01: loo_mse 0.12 over 100 rows
}

// ExampleNewSelection: a selection whose choice is at the smallest λ of
// its grid, on three rows, is warned about twice.
func ExampleNewSelection() {
	t, _ := table()
	s := report.NewSelection(t, loo.Choice{Sigma: 2, Lambda: 1e-4, Score: 0.2}, 0, 3)
	s.WarnFacts(os.Stdout, "example")
	// Output:
	// example: warning: only 3 training rows: leave-one-out fits each row from the 2 others, which says little about σ and λ, and the scores are no estimate of the error on new rows; give more rows
	// example: warning: the chosen λ = 0.0001 is the smallest of its grid (0.0001 to 1, 3 values): the best λ may lie below it; widen -lambdas MIN:MAX:COUNT
}

// ExampleFromNystrom reports loo.SelectNystrom's result: its table, its
// choice, and the leave-one-out MSE at the chosen pair.
func ExampleFromNystrom() {
	t, c := table()
	r := &loo.NystromSelection{Scores: t, Choice: c, LOO: [][]float64{nil, {0.2, 0.12, 0.35}, nil},
		StdErr: [][]float64{nil, {0, 0.01, 0}, nil}, LOORows: 50}
	s := report.FromNystrom(r, 0, 100)
	fmt.Println(s.LOOMSE, s.LOORows, s.StdErr)
	// Output:
	// 0.12 50 0.01
}

// ExampleSelection_WarnFacts: a choice inside both grids on enough rows
// has nothing to warn of.
func ExampleSelection_WarnFacts() {
	t, c := table()
	report.NewSelection(t, c, 0, 100).WarnFacts(os.Stdout, "example")
	fmt.Println("no warning")
	// Output:
	// no warning
}

// ExampleWarnFacts: the choice at the smallest λ of its grid.
func ExampleWarnFacts() {
	t, _ := table()
	report.WarnFacts(os.Stdout, "example", t, loo.Choice{Sigma: 2, Lambda: 1e-4, Score: 0.2})
	// Output:
	// example: warning: the chosen λ = 0.0001 is the smallest of its grid (0.0001 to 1, 3 values): the best λ may lie below it; widen -lambdas MIN:MAX:COUNT
}

// ExampleWarnTiny: five rows or fewer are warned about, whatever the
// table says.
func ExampleWarnTiny() {
	report.WarnTiny(os.Stdout, "example", 4)
	report.WarnTiny(os.Stdout, "example", report.TinyRows+1) // nothing
	// Output:
	// example: warning: only 4 training rows: leave-one-out fits each row from the 3 others, which says little about σ and λ, and the scores are no estimate of the error on new rows; give more rows
}

// ExampleSelection_Plot draws the criterion against λ, one curve per σ,
// the chosen point circled.
func ExampleSelection_Plot() {
	t, c := table()
	svg := string(report.NewSelection(t, c, 0, 100).Plot("example"))
	fmt.Println(strings.Count(svg, "<polyline"), strings.Count(svg, "<circle"))
	// Output: 3 1
}

// scales is a descent of two length scales from σ = 2, λ = 0.01.
func scales() *report.Scales {
	return &report.Scales{Sel: &loo.ScaleSelection{Sigmas: []float64{8, 1.5}, Lambda: 0.01, Objective: 0.1,
		LOORows: 100, Start: 0.12, History: []float64{0.11, 0.1}, Iterations: 2, Evaluations: 3,
		Stop: optimize.StopGradTol, FitRows: 100},
		Criterion: loo.LOOMSE, Sigma: 2, Lambda: 0.01, Names: []string{"age", "income"}, Rows: 100, Standardized: true}
}

// ExampleScales_PrintTable ranks the features by their length scale, the
// most relevant (the shortest scale) first.
func ExampleScales_PrintTable() {
	scales().PrintTable(os.Stdout)
	// Output:
	// ard from σ = 2, λ = 0.01: loo_mse 0.12 → 0.1 on 100 rows in 2 iterations (3 evaluations); stopped: converged (the projected gradient below the tolerance)
	// rank  feature          σ_j (standard deviations)
	//    1  income           1.5
	//    2  age              8
	// chosen λ = 0.01 with these scales: loo_mse 0.1 over 100 rows
}

// ExampleScales_Plot draws the objective against the iteration, the last
// point circled.
func ExampleScales_Plot() {
	svg := string(scales().Plot("example"))
	fmt.Println(strings.Count(svg, "<polyline"), strings.Count(svg, "<circle"), strings.Contains(svg, "L-BFGS iteration"))
	// Output: 1 1 true
}

// ExampleScales_WorseWarning says why the grid's model is kept when the
// scales do worse on every row than the grid's pair.
func ExampleScales_WorseWarning() {
	s := scales()
	if s.Sel.Worse(0.09) {
		fmt.Println(s.WorseWarning(0.09))
	}
	// Output:
	// the length scales do worse on every row than the grid's σ = 2, λ = 0.01 (loo_mse 0.1 against 0.09): the model saved is the grid's; raise -ard-rows, or give -sigma auto
}

// ExampleObjectiveName names the objective a descent reduces.
func ExampleObjectiveName() {
	fmt.Println(report.ObjectiveName(loo.LOOMSE), report.ObjectiveName(loo.LOOErrorRate), report.ObjectiveName(loo.GCV))
	// Output: loo_mse loo_mse gcv
}

// ExampleCount writes a count and its noun.
func ExampleCount() {
	fmt.Println(report.Count(1, "row"), report.Count(3, "row"), report.Count(2, "class"))
	// Output: 1 row 3 rows 2 classes
}

// ExampleSVG draws an interval's calibration: the coverage on a test file
// against the nominal level, beside the diagonal.
func ExampleSVG() {
	levels := []float64{0.5, 0.7, 0.9}
	svg := report.SVG(report.Panel{Title: "calibration", XLabel: "nominal level", YLabel: "coverage", Series: []report.Series{
		{Name: "nominal", Color: "#7f7f7f", X: levels, Y: levels, Marker: -1},
		{Name: "empirical", Color: "#1f77b4", X: levels, Y: []float64{0.52, 0.69, 0.91}, Marker: -1},
	}})
	fmt.Println(strings.HasPrefix(svg, "<svg"), strings.Count(svg, "<polyline"))
	// Output: true 2
}

// ExampleSelection_Fields writes the fields of a selection in the JSON of
// the commands' -json: the chosen pair's figures, the median distance, the
// criterion and the whole table.
func ExampleSelection_Fields() {
	t, c := table()
	s := report.NewSelection(t, c, 4, 100)
	s.LOOMSE, s.LOORows = 0.12, 100
	b, _ := json.Marshal(s.Fields(nil))
	fmt.Println(string(b))
	// Output: {"sigma":2,"loo_mse":0.12,"loo_rows":100,"median_distance":4,"criterion":"loo_mse","table":{"criterion":"loo_mse","sigmas":[1,2,4],"lambdas":[0.0001,0.01,1],"scores":[[0.3,0.25,0.4],[0.2,0.12,0.35],[0.3,0.2,0.4]]}}
}

// ExampleScales_Fields writes the fields of a descent in the JSON of the
// commands' -json: the scales in the order of the columns, the features
// ranked, and the descent.
func ExampleScales_Fields() {
	b, _ := json.Marshal(scales().Fields())
	fmt.Println(string(b))
	// Output: {"sigmas":[8,1.5],"feature_names":["age","income"],"ard_ranking":[1,0],"ard_criterion":"loo_mse","ard_objective":0.1,"ard_loo_rows":100,"ard_rows":100,"ard_start":0.12,"ard_history":[0.11,0.1],"ard_iterations":2,"ard_evaluations":3,"ard_stop":"gradient tolerance"}
}

// ExampleJSONFloat: JSON has no NaN nor ±Inf; they are written null.
func ExampleJSONFloat() {
	b, _ := json.Marshal(report.JSONFloats([]float64{0.5, math.NaN(), math.Inf(1)}))
	fmt.Println(string(b), *report.JSONPtr(2))
	// Output: [0.5,null,null] 2
}

// IntervalJSON gives the -json fields of CV+ intervals at 0.9 from 10
// folds after σ and λ were chosen on the same rows.
func ExampleIntervalJSON() {
	b, _ := json.Marshal(report.IntervalJSON(0.9, "cv+", 10, true))
	fmt.Println(string(b))
	b, _ = json.Marshal(report.IntervalJSON(0.9, "jackknife+", 10, false))
	fmt.Println(string(b))
	// Output:
	// {"interval_level":0.9,"interval_method":"cv+","interval_folds":10,"interval_after_choice":true}
	// {"interval_level":0.9,"interval_method":"jackknife+"}
}

func ExampleWarnWidth() {
	c := &loo.WidthCheck{Degenerate: &kernels.DegenerateError{Kind: kernels.NearIdentity, Alike: 6}, Checked: 4, Of: 4, Median: 10}
	report.WarnWidth(os.Stdout, "rkhs fit", 0.01, c)
	report.WarnWidth(os.Stdout, "rkhs fit", 1, nil) // not degenerate: nothing
	// Output:
	// rkhs fit: warning: -sigma 0.01 is far below the median distance between rows, 10: the kernel matrix of 4 rows is numerically the identity (6 of them with every off-diagonal entry below 1e-06); try -sigma auto or -standardize
}

func ExampleStandardizeNotes() {
	var m kernels.Moments
	m.Add(linalg.NewDense(3, 2, []float64{1, 5, 2, 5, 3, 5}))
	s, _ := m.Standardization()
	notes, warnings := report.StandardizeNotes(&m, s, []string{"a", "b"}, 3)
	fmt.Println(notes, len(warnings))
	// Output:
	// [feature b (every value 5) is constant in the 3 training rows: kept at its value, it adds nothing to the distances between them (a test row that differs there is warned about)] 0
}

func ExampleOutlyingLine() {
	o := kernels.Outliers{Rows: 2, Row: 1, Feature: 0, Z: 1.4e7}
	fmt.Println(report.OutlyingLine("-test", o, 10, []string{"a"}))
	fmt.Println(report.OutlyingWorst(o, nil))
	// Output:
	// 2 of the 10 rows of -test lie more than 1000 standard deviations of the training rows out on some feature (the worst: row 2, feature a, z = 1.4e+07): the kernel is 0 there, and the model predicts its intercept alone
	// row 2, feature 1, z = 1.4e+07
}

func ExampleOffConstantLine() {
	s := &kernels.Standardization{Mean: []float64{0, 5}, Scale: []float64{1, 1}, Constant: []int{1}}
	o := kernels.Outliers{Rows: 1, Row: 0, Feature: 1}
	fmt.Println(report.OffConstantLine("-data", s, o, 1, 7, []string{"a", "b"}))
	// Output:
	// 1 of the 1 row of -data differ from the value feature b held on every training row (the worst: row 1, 7 against 5): the model never saw it vary, so what it predicts there is a guess; fit on rows where it varies, or leave it out (-features)
}

func ExamplePositionNote() {
	info := &dataset.CSVInfo{} // a CSV file read without a header
	fmt.Println(report.PositionNote("new.csv", info, []string{"a", "b"}, "y", false))
	// Output:
	// new.csv has no header: its columns are read by position as a, b, then the label y; a file laid out as a training file read with -target or -features needs its header line
}

// TooLarge says a refusal for memory in one line: an exact fit of 40,000
// rows needs 16 GiB where GOMEMLIMIT allows 4 GiB.
func ExampleTooLarge() {
	me := &linalg.MemoryError{Op: "RLS.Fit", Need: 16 << 30, Limit: 4 << 30, Source: "GOMEMLIMIT"}
	fmt.Println(report.TooLarge("rkhs fit -method cholesky", 40000, me, report.ExactAdvice))
	// Output:
	// rkhs fit -method cholesky on 40000 rows needs 16.0 GiB of memory, more than the 4.00 GiB of GOMEMLIMIT (RLS.Fit): run -method falkon -centers M instead, with M a few thousand centres, which needs O(M² + nd) memory (n rows, d features)
}

// LOOAdvice: the memory of rkhs loo grows as n², so a quarter of the
// memory it needs holds half the rows, √(4/16) of 40,000.
func ExampleLOOAdvice() {
	me := &linalg.MemoryError{Op: "NewSpectral", Need: 16 << 30, Limit: 4 << 30, Source: "GOMEMLIMIT"}
	fmt.Println(report.LOOAdvice(40000, me))
	// Output:
	// leave-one-out decomposes the n×n kernel matrix: run it on a random subset of 20000 rows at most, then rkhs fit -method falkon on all the rows with the λ it finds
}

// SelectionAdvice: a streamed selection holds O(m²) values a σ, so a
// quarter of its memory holds about half of its 2,000 centres.
func ExampleSelectionAdvice() {
	me := &linalg.MemoryError{Op: "SelectNystrom", Need: 16 << 30, Limit: 4 << 30, Source: "GOMEMLIMIT"}
	fmt.Println(report.SelectionAdvice("-centers", 2000, me))
	// Output:
	// the selection streams the rows and holds O(M²) values a σ, whatever the rows: at most about -centers 1000 fits
}

// CentersAdvice names the centres that fit (regress.FalkonMaxCenters),
// or says that none does.
func ExampleCentersAdvice() {
	fmt.Println(report.CentersAdvice(3000, true))
	fmt.Println(report.CentersAdvice(3000, false))
	fmt.Println(report.CentersAdvice(0, false))
	// Output:
	// run -method falkon, at most -centers 3000, which needs O(M² + nd) memory instead of Nyström's O(nM)
	// at most -centers 3000 fits
	// no number of centres fits: the data alone is too large for this memory
}

// RoundDuration rounds an estimate for a message: to the second below an
// hour, to the minute above.
func ExampleRoundDuration() {
	fmt.Println(report.RoundDuration(17400*time.Millisecond), report.RoundDuration(3749600*time.Millisecond))
	// Output: 17s 1h2m0s
}
