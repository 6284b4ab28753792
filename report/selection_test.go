package report

import (
	"bytes"
	"strings"
	"testing"

	"rkhs/loo"
)

// TestNothingToReport: a nil or empty report writes nothing and draws an
// empty page, and a malformed one (scores shorter than the σ grid, a
// series whose Y is shorter than its X, a marker past its points) draws
// what it holds, instead of panicking; the fields of nothing are none.
func TestNothingToReport(t *testing.T) {
	empty := SVG()
	for _, c := range []struct {
		name       string
		print      func(*bytes.Buffer)
		plot       func() []byte
		text, page string
	}{
		{"nil Selection", func(b *bytes.Buffer) { (*Selection)(nil).PrintTable(b); (*Selection)(nil).WarnFacts(b, "x") },
			func() []byte { return (*Selection)(nil).Plot("t") }, "", empty},
		{"Selection without a table", func(b *bytes.Buffer) { (&Selection{}).PrintTable(b); (&Selection{}).WarnFacts(b, "x") },
			func() []byte { return (&Selection{}).Plot("t") }, "", empty},
		{"nil Scales", func(b *bytes.Buffer) { (*Scales)(nil).PrintTable(b); b.WriteString((*Scales)(nil).WorseWarning(1)) },
			func() []byte { return (*Scales)(nil).Plot("t") }, "", empty},
		{"Scales without a result", func(b *bytes.Buffer) { (&Scales{}).PrintTable(b); b.WriteString((&Scales{}).WorseWarning(1)) },
			func() []byte { return (&Scales{}).Plot("t") }, "", empty},
		{"nil table's facts", func(b *bytes.Buffer) { WarnFacts(b, "x", nil, loo.Choice{}) }, func() []byte { return []byte(empty) }, "", empty},
	} {
		var b bytes.Buffer
		c.print(&b)
		if b.String() != c.text {
			t.Errorf("%s: wrote %q, want %q", c.name, b.String(), c.text)
		}
		if got := string(c.plot()); got != c.page {
			t.Errorf("%s: drew\n%s, want\n%s", c.name, got, c.page)
		}
	}
	if (*Selection)(nil).Fields(nil).Table != nil || (&Selection{}).Fields(&Scales{}).Table != nil ||
		(*Scales)(nil).Fields() != nil || (&Scales{}).Fields() != nil {
		t.Error("the fields of nothing: want none")
	}
	t0, _ := table0()
	if f := NewSelection(t0, loo.Choice{Sigma: 1, Lambda: 1, Score: 0.5}, 0, 10).Fields(&Scales{}); f.GridFields != nil || f.Sigma == nil {
		t.Errorf("a Scales without its result: want the grid's fields alone, got %+v", f)
	}
	if FromNystrom(nil, 0, 10) != nil || FromNystrom(&loo.NystromSelection{}, 0, 10) != nil {
		t.Error("FromNystrom of nothing: want nil")
	}
	short := &loo.Table{Sigmas: []float64{1, 2}, Lambdas: []float64{1e-3, 1}, Scores: [][]float64{{0.5, 0.25}}}
	if svg := string(NewSelection(short, loo.Choice{Sigma: 1, Lambda: 1}, 0, 10).Plot("t")); strings.Count(svg, "<polyline") != 1 {
		t.Errorf("scores for one σ of two: want one curve:\n%s", svg)
	}
	svg := SVG(Panel{Series: []Series{{X: []float64{1, 2, 3}, Y: []float64{1, 2}, Marker: 2}}})
	if strings.Count(svg, "<polyline") != 1 || strings.Contains(svg, "<circle") {
		t.Errorf("Y shorter than X, the marker past it: want one curve of two points, no circle:\n%s", svg)
	}
}

// table0 is a table of one σ and one λ.
func table0() (*loo.Table, loo.Choice) {
	return &loo.Table{Criterion: loo.LOOMSE, Sigmas: []float64{1}, Lambdas: []float64{1}, Scores: [][]float64{{0.5}}},
		loo.Choice{Sigma: 1, Lambda: 1, Score: 0.5}
}
