package report

import (
	"regexp"
	"slices"
	"testing"
)

// xLabels returns the tick labels of the x axis of an SVG of one panel
// (the text elements anchored in the middle below the frame).
func xLabels(svg string) []string {
	var got []string
	for _, m := range regexp.MustCompile(`<text x="[0-9.]+" y="268" text-anchor="middle">([^<]*)</text>`).FindAllStringSubmatch(svg, -1) {
		got = append(got, m[1])
	}
	return got
}

// TestSVGTicks: a linear axis's ticks are written in their shortest form
// (0.6, not a sum of steps 0.6000000000000001); an axis of counts has
// whole ticks only, however short its range, a one-point one too.
func TestSVGTicks(t *testing.T) {
	for _, c := range []struct {
		name   string
		x      []float64
		counts bool
		want   []string
	}{
		{"linear 0 to 1", []float64{0, 1}, false, []string{"0", "0.2", "0.4", "0.6", "0.8", "1"}},
		{"linear 0 to 0.7", []float64{0, 0.7}, false, []string{"0", "0.2", "0.4", "0.6"}},
		{"counts 0 to 1", []float64{0, 1}, true, []string{"0", "1"}},
		{"counts 0 only", []float64{0}, true, []string{"0", "1"}},
		{"counts 0 to 3", []float64{0, 1, 2, 3}, true, []string{"0", "1", "2", "3"}},
		{"counts 0 to 50", []float64{0, 50}, true, []string{"0", "10", "20", "30", "40", "50"}},
	} {
		y := make([]float64, len(c.x))
		for i := range y {
			y[i] = float64(i + 1)
		}
		svg := SVG(Panel{XLabel: "x", CountX: c.counts, Series: []Series{{X: c.x, Y: y, Marker: -1}}})
		if got := xLabels(svg); !slices.Equal(got, c.want) {
			t.Errorf("%s: ticks %q, want %q", c.name, got, c.want)
		}
	}
}
