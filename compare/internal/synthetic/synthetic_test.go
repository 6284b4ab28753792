package synthetic

import (
	"math"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// TestCPUSeconds checks CPUSeconds against getrusage's user + system time
// of the process, before and after some work: the two must agree to a few
// clock ticks, and the work must show.
func TestCPUSeconds(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("CPUSeconds reads /proc/self/stat")
	}
	rusage := func() float64 {
		var r syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
			t.Fatal(err)
		}
		return float64(r.Utime.Nano()+r.Stime.Nano()) / 1e9
	}
	p0, r0 := CPUSeconds(), rusage()
	x := 0.0
	for start := time.Now(); time.Since(start) < 300*time.Millisecond; {
		for i := range 10000 {
			x += math.Sqrt(float64(i))
		}
	}
	p1, r1 := CPUSeconds(), rusage()
	if x == 0 {
		t.Fatal("no work done")
	}
	for _, c := range []struct {
		name     string
		got, ref float64
	}{{"before", p0, r0}, {"after", p1, r1}} {
		if math.IsNaN(c.got) || math.Abs(c.got-c.ref) > 0.05 {
			t.Errorf("%s: CPUSeconds %.3f s, getrusage %.3f s", c.name, c.got, c.ref)
		}
	}
	if r1-r0 > 0.1 && p1-p0 < 0.05 {
		t.Errorf("the work took %.3f s of CPU by getrusage but %.3f s by CPUSeconds", r1-r0, p1-p0)
	}
}
