package loo

import (
	"fmt"
	"slices"

	"rkhs/internal/check"
	"rkhs/kernels"
	"rkhs/linalg"
)

// Evaluate returns the objective at θ (len d + 1, see ScaleObjective) on
// the rows x (n×d) with the outputs y (n×q), with its gradient: the three
// passes on rows in memory — pass 0 over every row, NewScalePath, pass A
// over the rows of S (SubsetRows(n), copied once), pass B over every row
// with those rows marked. Neither x nor y is modified.
//
// Cost: (6md + 8m²)n + (2md + 3m²)s flops and (2n + s)m exponentials for
// n rows and s rows of S (s = n for every row), and about 14m³ once.
// Memory besides x and y: that of the passes, at most six m×m matrices
// and four blocks of about 2²⁰ values, and the rows of S; a
// *linalg.MemoryError (linalg.ErrTooLarge) before allocating when they do
// not fit. Bit-identical for any GOMAXPROCS.
//
// Errors wrap ErrInput: the fields of o (see NewStats), θ, x or y nil,
// malformed, not finite (also linalg.ErrNotFinite) or of the wrong shape,
// fewer than 2 rows; outputs that are not ±1 codes with LOOErrorRate;
// linalg.ErrNotPositiveDefinite where the fit at θ is numerically
// singular (the objective is +Inf there); and the errors of the passes.
func (o ScaleObjective) Evaluate(x, y *linalg.Dense, theta []float64) (*ScaleEval, error) {
	const op = "ScaleObjective.Evaluate"
	sd, err := newScaleData(op, o, x, y)
	if err != nil {
		return nil, err
	}
	if err := checkTheta(op, theta, x.Cols); err != nil {
		return nil, err
	}
	ev, _, err := sd.eval(op, theta, true)
	return ev, err
}

// scaleData is an objective with its rows in memory, prepared once for
// any number of evaluations: the rows of S drawn and copied.
type scaleData struct {
	obj    ScaleObjective
	x, y   *linalg.Dense
	sIdx   []int         // the rows of S, nil for every row
	sx, sy *linalg.Dense // their copies (x and y for every row)
	es     linalg.EigenSym
	ws     scaleWork // the blocks of every pass, reused
}

// newScaleData validates the objective and the rows and draws S.
func newScaleData(op string, o ScaleObjective, x, y *linalg.Dense) (*scaleData, error) {
	if err := o.check(op); err != nil {
		return nil, err
	}
	if err := checkXY(op, x, y); err != nil {
		return nil, err
	}
	if x.Cols != o.Centers.Cols {
		return nil, inputError(op, "Centers", "%d columns, X has %d", o.Centers.Cols, x.Cols)
	}
	if o.Criterion == LOOErrorRate {
		if err := checkCodes(op, y); err != nil {
			return nil, err
		}
	}
	sd := &scaleData{obj: o, x: x, y: y, sx: x, sy: y, sIdx: o.SubsetRows(x.Rows)}
	if sd.sIdx != nil {
		sd.sx, sd.sy = pickRows(x, y, sd.sIdx)
	}
	return sd, nil
}

// eval runs the passes at θ (checked) and returns the value, with the
// gradient when grad, and the path (whose statistics are spent).
func (sd *scaleData) eval(op string, theta []float64, grad bool) (*ScaleEval, *ScalePath, error) {
	st, err := sd.obj.newStats(op, theta)
	if err != nil {
		return nil, nil, err
	}
	st.ws = &sd.ws
	if err := st.Add(sd.x, sd.y); err != nil {
		return nil, nil, err
	}
	p, err := newScalePath(op, st, &sd.es, true)
	if err != nil {
		return nil, nil, err
	}
	var a *ScaleLOO
	if sd.obj.Criterion != GCV {
		if a, err = p.NewLOO(); err == nil {
			a.ws = sd.ws
			err = a.Add(sd.sx, sd.sy)
			sd.ws = a.ws
		}
		if err != nil {
			return nil, nil, err
		}
		if !grad {
			return a.result(), p, nil
		}
	} else if !grad {
		return &ScaleEval{Value: p.GCV, DF: p.DF}, p, nil
	}
	ad, err := p.NewAdjoint(a)
	if err != nil {
		return nil, nil, err
	}
	ad.ws = sd.ws
	err = ad.add(op, sd.x, sd.y, sd.sIdx, ad.all)
	sd.ws = ad.ws
	if err != nil {
		return nil, nil, err
	}
	ev, err := ad.Result()
	return ev, p, err
}

// ComposeScales returns the standardization that maps a raw row x to the
// scaled features a ScaleObjective's kernel is the kernel of width 1
// on: with the caller's standardization s (Mean μ_j, Scale s_j) applied
// to the rows before the objective, and the length scales σ_j learnt on
// them, z_j = ((x_j − μ_j)/s_j)/σ_j = (x_j − μ_j)/(s_j·σ_j), one
// standardization of Mean μ and Scale s∘σ, which keeps s_j as its
// TrainingScale (so that kernels.Standardization.Outlying counts a row in
// standard deviations of the training rows, as on s); with s nil, Mean 0
// and Scale σ, and no TrainingScale.
// A model of the kernel of width 1 (Gaussian{Sigma: 1}, or Laplacian)
// on the scaled centres, with this Standardization, predicts raw rows,
// and its model file is that of any standardized model (rkhs predict
// reads it). Neither s nor sigmas is modified.
//
// Errors wrap ErrInput: sigmas empty, not positive and finite (also
// linalg.ErrNotFinite) or not of s's width; s invalid (see
// kernels.Standardization.Validate, also kernels.ErrParameter), or a
// composed scale that leaves the float64 range.
func ComposeScales(s *kernels.Standardization, sigmas []float64) (*kernels.Standardization, error) {
	const op = "ComposeScales"
	if len(sigmas) == 0 {
		return nil, inputError(op, "sigmas", "no scales")
	}
	for j, v := range sigmas {
		if err := check.Positive(ErrInput, op, fmt.Sprintf("sigmas[%d]", j), v); err != nil {
			return nil, err
		}
	}
	d := len(sigmas)
	out := &kernels.Standardization{Mean: make([]float64, d), Scale: make([]float64, d)}
	copy(out.Scale, sigmas)
	if s != nil {
		if err := s.Validate(); err != nil {
			return nil, check.Wrap(ErrInput, op, "s", err)
		}
		if len(s.Mean) != d {
			return nil, inputError(op, "sigmas", "%d scales for a standardization of %d features", d, len(s.Mean))
		}
		copy(out.Mean, s.Mean)
		out.Constant = slices.Clone(s.Constant)
		out.TrainingScale = slices.Clone(s.Scale)
		if s.TrainingScale != nil { // s composed already: its training rows' own
			out.TrainingScale = slices.Clone(s.TrainingScale)
		}
		for j := range out.Scale {
			out.Scale[j] *= s.Scale[j]
		}
	}
	if err := out.Validate(); err != nil {
		return nil, check.Wrap(ErrInput, op, "sigmas", err)
	}
	return out, nil
}
