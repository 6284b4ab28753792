package cli

import "rkhs/report"

// The -json fields of a selection and of a descent are package report's
// (report.Selection.Fields, report.Scales.Fields); the commands name them
// here, as they did before the report moved into the library.
type (
	JSONFloat       = report.JSONFloat
	SelectionFields = report.SelectionFields
	ScalesFields    = report.ScalesFields
)

// The conversions to JSONFloat, and the fields of a selection and of a
// descent as functions.
var (
	JSONFloats    = report.JSONFloats
	JSONPtr       = report.JSONPtr
	SelectionJSON = (*report.Selection).Fields
	ScalesJSON    = (*report.Scales).Fields
)
