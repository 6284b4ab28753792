package report

import "rkhs/interval"

// IntervalFields are the -json fields of -interval LEVEL, spelt the same
// by rkhs fit|classify and rkhs-beam select: the level, the method
// (jackknife+, cv+ or cv+fold), the number of folds K of a CV+ (absent for
// the jackknife+), and whether σ or λ were chosen on the same rows
// beforehand, which the guarantee of Barber, Candès, Ramdas and
// Tibshirani ("Predictive inference with the jackknife+", 2021) does not
// cover (false, absent, for cv+fold, whose folds choose their own). All
// are absent without -interval.
type IntervalFields struct {
	IntervalLevel       float64 `json:"interval_level,omitempty"`
	IntervalMethod      string  `json:"interval_method,omitempty"`
	IntervalFolds       int     `json:"interval_folds,omitempty"`
	IntervalAfterChoice bool    `json:"interval_after_choice,omitempty"`
}

// IntervalJSON returns the fields of intervals at level by method with
// folds folds (ignored for the jackknife+), after a choice of σ or λ on
// the same rows when chosen; the zero IntervalFields for level 0 (no
// -interval).
func IntervalJSON(level float64, method string, folds int, chosen bool) IntervalFields {
	if level == 0 {
		return IntervalFields{}
	}
	f := IntervalFields{IntervalLevel: level, IntervalMethod: method, IntervalAfterChoice: chosen && method != string(interval.CVPlusFold)}
	if method != string(interval.JackknifePlus) {
		f.IntervalFolds = folds
	}
	return f
}
