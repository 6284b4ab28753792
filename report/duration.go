package report

import "time"

// RoundDuration rounds d for a message: to the second below an hour, to
// the minute above (an estimate of 1h2m29.6s reads 1h2m0s, one of 17.4s
// reads 17s).
func RoundDuration(d time.Duration) time.Duration {
	if d >= time.Hour {
		return d.Round(time.Minute)
	}
	return d.Round(time.Second)
}
