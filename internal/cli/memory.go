package cli

import (
	"errors"

	"rkhs/linalg"
	"rkhs/report"
)

// TooLarge rewrites a *linalg.MemoryError, the library's refusal of a
// problem too large for the memory there is, as report.TooLarge's line
// with the advice that advice gives for it (report.LOOAdvice, …). Other
// errors are returned as they are.
func TooLarge(err error, what string, n int, advice func(me *linalg.MemoryError) string) error {
	var me *linalg.MemoryError
	if !errors.As(err, &me) {
		return err
	}
	return Explained{Msg: report.TooLarge(what, n, me, advice(me)), Err: err}
}
