package cli

// SigmaRatios are the default σ grid of a selection, as multiples of the
// median distance between rows (or centres, rkhs-beam's sample of them):
// ratios 2 apart, from a quarter to four times the median, where the
// kernel matrix goes from nearly the identity to nearly all ones on
// typical data.
var SigmaRatios = []float64{0.25, 0.5, 1, 2, 4}
