// Package report writes what a selection chose and why, for people: the
// leave-one-out table of σ × λ with the choice marked and the choice in a
// line (Selection.PrintTable), the length scales of a descent ranked
// (Scales.PrintTable), the facts a user must be warned of — a choice at
// the edge of its grid, a flat table, data of at most TinyRows rows
// (Selection.WarnFacts, WarnFacts, WarnTiny), a problem refused for
// memory with the advice that fits it (TooLarge, LOOAdvice, …) — and SVG pictures: the
// table's criterion against λ, one curve per σ (Selection.Plot), the
// descent's objective against its iteration (Scales.Plot), and any line
// plot of panels with a log or linear x axis and a log y axis (SVG), such
// as an interval's coverage against its level. The same facts for
// programs are the fields of the commands' -json (Selection.Fields,
// Scales.Fields), NaN and ±Inf written null (JSONFloat).
//
// It is built on the values of packages loo and optimize (loo.Table,
// loo.Choice, loo.NystromSelection, loo.ScaleSelection), so that a Go
// program selecting σ and λ prints the tables and draws the pictures that
// rkhs and rkhs-beam do, byte for byte. The warnings name the commands'
// flags that would widen a grid or the rows of a descent (-sigmas,
// -lambdas, -ard-rows); each line starts with a prefix the caller gives.
//
// Nothing here computes beyond formatting: every figure comes from the
// values given (the memory advice's one estimate, a size scaled by the
// square root of the memory there is over the memory asked, included),
// and the cost is that of formatting them, linear in the table's size.
package report
