package report

import (
	"math"
	"strconv"

	"rkhs/loo"
)

// JSONFloat is a float64 that encodes NaN and ±Inf as null (JSON has no
// such numbers), as the -json output of both commands writes them.
type JSONFloat float64

func (f JSONFloat) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return []byte("null"), nil
	}
	return []byte(strconv.FormatFloat(v, 'g', -1, 64)), nil
}

// JSONFloats converts v.
func JSONFloats(v []float64) []JSONFloat {
	out := make([]JSONFloat, len(v))
	for i, x := range v {
		out[i] = JSONFloat(x)
	}
	return out
}

// SelectionFields are the fields of a selection in the JSON of rkhs fit
// and classify and of rkhs-beam select. The top level describes the model
// saved (PairFields): the grid's pair, or, when a descent of one length
// scale per feature (-sigma ard) went on from it and its model is the one
// saved, the scales' figures, with no single sigma (the scales are the
// sigmas of ScalesFields) and the grid's pair under grid_ (GridFields).
// Beside them: the median distance (a σ grid around it), the criterion of
// the table, and the whole table.
type SelectionFields struct {
	PairFields
	MedianDistance *JSONFloat `json:"median_distance,omitempty"`
	Criterion      string     `json:"criterion,omitempty"`
	*GridFields
	Table *TableJSON `json:"table,omitempty"`
}

// PairFields are the figures of the model saved: its σ (none for one σ
// per feature), the leave-one-out MSE, the leave-one-out error rate when
// it is the criterion (classes), GCV with the GCV criterion, the rows the
// leave-one-out mean is over, and the standard error of the leave-one-out
// score (of loo_mse, or of the error rate for classes) as an estimate of
// its value over every row when a subset was drawn.
type PairFields struct {
	Sigma     *JSONFloat `json:"sigma,omitempty"`
	LooMSE    *JSONFloat `json:"loo_mse,omitempty"`
	LOOError  *JSONFloat `json:"loo_error,omitempty"`
	GCV       *JSONFloat `json:"gcv,omitempty"`
	LOORows   int        `json:"loo_rows,omitempty"`
	LOOStdErr *JSONFloat `json:"loo_stderr,omitempty"`
}

// GridFields are, when a descent's model is saved, the grid's pair where
// it started and that pair's figures, as PairFields has them.
type GridFields struct {
	GridSigma     JSONFloat  `json:"grid_sigma"`
	GridLambda    JSONFloat  `json:"grid_lambda"`
	GridLooMSE    *JSONFloat `json:"grid_loo_mse,omitempty"`
	GridLOOError  *JSONFloat `json:"grid_loo_error,omitempty"`
	GridGCV       *JSONFloat `json:"grid_gcv,omitempty"`
	GridLOORows   int        `json:"grid_loo_rows,omitempty"`
	GridLOOStdErr *JSONFloat `json:"grid_loo_stderr,omitempty"`
}

// TableJSON is the table in -json.
type TableJSON struct {
	Criterion string        `json:"criterion"`
	Sigmas    []JSONFloat   `json:"sigmas"`
	Lambdas   []JSONFloat   `json:"lambdas"`
	Scores    [][]JSONFloat `json:"scores"` // [σ][λ]; null where the system is singular
}

// Fields returns the JSON fields of s, and of the descent sc that went on
// from its choice and whose model is saved (nil: none, or the grid's model
// kept; a Scales without its result Sel counts as none); a nil s, or one
// without a table, gives none.
func (s *Selection) Fields(sc *Scales) SelectionFields {
	if s == nil || s.Table == nil {
		return SelectionFields{}
	}
	r := SelectionFields{PairFields: s.pair(), Criterion: s.Table.Criterion.String()}
	if s.Median > 0 {
		r.MedianDistance = JSONPtr(s.Median)
	}
	if sc != nil && sc.Sel != nil {
		g := r.PairFields
		r.GridFields = &GridFields{GridSigma: *g.Sigma, GridLambda: JSONFloat(s.Choice.Lambda), GridLooMSE: g.LooMSE, GridLOOError: g.LOOError,
			GridGCV: g.GCV, GridLOORows: g.LOORows, GridLOOStdErr: g.LOOStdErr}
		r.PairFields = sc.pair()
	}
	t := &TableJSON{Criterion: s.Table.Criterion.String(), Sigmas: JSONFloats(s.Table.Sigmas), Lambdas: JSONFloats(s.Table.Lambdas)}
	for _, row := range s.Table.Scores {
		t.Scores = append(t.Scores, JSONFloats(row))
	}
	r.Table = t
	return r
}

// pair returns the figures of the grid's choice.
func (s *Selection) pair() PairFields {
	p := PairFields{Sigma: JSONPtr(s.Choice.Sigma), LOORows: s.LOORows}
	if !math.IsNaN(s.LOOMSE) {
		p.LooMSE = JSONPtr(s.LOOMSE)
	}
	switch s.Table.Criterion {
	case loo.LOOErrorRate:
		p.LOOError = JSONPtr(s.Choice.Score)
	case loo.GCV:
		p.GCV = JSONPtr(s.Choice.Score)
	}
	if s.StdErr > 0 {
		p.LOOStdErr = JSONPtr(s.StdErr)
	}
	return p
}

// JSONPtr returns a pointer to v as a JSONFloat.
func JSONPtr(v float64) *JSONFloat {
	j := JSONFloat(v)
	return &j
}

// ScalesFields are the fields of a descent in the JSON of rkhs fit and
// classify: the scales σ_j in the order of the columns (in standard
// deviations of the features when standardized) with the features'
// names, the features from the most relevant to the least as 0-based
// columns (loo.ScaleSelection.Ranking) and the constant ones; the
// criterion of the objective (loo_mse, of the ±1 codes for classes, or
// gcv), its value at the scales on every row, its standard error as an
// estimate of every row's value when the leave-one-out mean is over a
// subset of ard_loo_rows rows, the leave-one-out error rate for classes
// and its standard error with a subset; the rows the descent fitted on, the
// objective there at the start and after each iteration, the iterations,
// the evaluations of the objective and its gradient, and why the descent
// stopped (optimize.StopReason).
type ScalesFields struct {
	Sigmas          []JSONFloat `json:"sigmas"`
	FeatureNames    []string    `json:"feature_names,omitempty"`
	Ranking         []int       `json:"ard_ranking"`
	Constant        []int       `json:"ard_constant,omitempty"`
	Criterion       string      `json:"ard_criterion"`
	Objective       JSONFloat   `json:"ard_objective"`
	StdErr          *JSONFloat  `json:"ard_stderr,omitempty"`
	LOORows         int         `json:"ard_loo_rows,omitempty"`
	ErrorRate       *JSONFloat  `json:"ard_loo_error,omitempty"`
	ErrorRateStdErr *JSONFloat  `json:"ard_loo_error_stderr,omitempty"`
	FitRows         int         `json:"ard_rows"`
	Start           JSONFloat   `json:"ard_start"`
	History         []JSONFloat `json:"ard_history"`
	Iterations      int         `json:"ard_iterations"`
	Evaluations     int         `json:"ard_evaluations"`
	Stop            string      `json:"ard_stop"`
}

// Fields returns the JSON fields of s; a nil s, or one without its
// result Sel, gives nil.
func (s *Scales) Fields() *ScalesFields {
	if s == nil || s.Sel == nil {
		return nil
	}
	r := s.Sel
	f := &ScalesFields{Sigmas: JSONFloats(r.Sigmas), FeatureNames: s.Names, Ranking: r.Ranking(), Constant: r.Constant,
		Criterion: ObjectiveName(s.Criterion), Objective: JSONFloat(r.Objective), LOORows: r.LOORows, FitRows: r.FitRows,
		Start: JSONFloat(r.Start), History: JSONFloats(r.History), Iterations: r.Iterations, Evaluations: r.Evaluations, Stop: r.Stop.String()}
	if r.StdErr > 0 {
		f.StdErr = JSONPtr(r.StdErr)
	}
	if s.Criterion == loo.LOOErrorRate {
		f.ErrorRate = JSONPtr(r.ErrorRate)
		if r.ErrorRateStdErr > 0 {
			f.ErrorRateStdErr = JSONPtr(r.ErrorRateStdErr)
		}
	}
	return f
}

// pair returns the figures of the descent's model as the top level of
// -json has them (SelectionFields): no single σ, and the objective on
// every row under the criterion's name, the error rate beside it for
// classes, its standard error that of the error rate then.
func (s *Scales) pair() PairFields {
	r := s.Sel
	p := PairFields{LOORows: r.LOORows}
	stderr := r.StdErr
	switch s.Criterion {
	case loo.GCV:
		p.GCV = JSONPtr(r.Objective)
	case loo.LOOErrorRate:
		p.LooMSE, p.LOOError, stderr = JSONPtr(r.Objective), JSONPtr(r.ErrorRate), r.ErrorRateStdErr
	default:
		p.LooMSE = JSONPtr(r.Objective)
	}
	if stderr > 0 {
		p.LOOStdErr = JSONPtr(stderr)
	}
	return p
}
