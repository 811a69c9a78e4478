package bench_test

import (
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/realm-memory/realm/bench"
)

// svgBar is one <rect class="bar"> of a chart.
type svgBar struct {
	Series, Group string
	Value, Height float64
}

// svgElements checks that doc is well-formed XML with an <svg> root and returns the
// attributes of its elements of the given name and class.
func svgElements(t *testing.T, doc, name, class string) []map[string]string {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(doc))
	var out []map[string]string
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, doc)
		}
		el, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		if root == "" {
			root = el.Name.Local
		}
		attr := map[string]string{}
		for _, a := range el.Attr {
			attr[a.Name.Local] = a.Value
		}
		if el.Name.Local == name && attr["class"] == class {
			out = append(out, attr)
		}
	}
	if root != "svg" {
		t.Fatalf("root element %q, want svg", root)
	}
	return out
}

// parseBars returns the bars of a bar chart.
func parseBars(t *testing.T, doc string) []svgBar {
	t.Helper()
	var bars []svgBar
	for _, attr := range svgElements(t, doc, "rect", "bar") {
		v, _ := strconv.ParseFloat(attr["data-value"], 64)
		h, _ := strconv.ParseFloat(attr["height"], 64)
		bars = append(bars, svgBar{attr["data-series"], attr["data-group"], v, h})
	}
	return bars
}

// parsePoints returns the (x, y) data of a line chart's points, line by line.
func parsePoints(t *testing.T, doc string) [][2]float64 {
	t.Helper()
	var pts [][2]float64
	for _, attr := range svgElements(t, doc, "circle", "point") {
		x, _ := strconv.ParseFloat(attr["data-x"], 64)
		y, _ := strconv.ParseFloat(attr["data-y"], 64)
		pts = append(pts, [2]float64{x, y})
	}
	return pts
}

// TestLineChartSVG: points are placed in proportion to their values on both axes, in the
// order of their lines.
func TestLineChartSVG(t *testing.T) {
	doc := bench.LineChartSVG(bench.LineChart{Title: "recall & context", XLabel: "tokens", YLabel: "recall", YMax: 1, Lines: []bench.Line{
		{Name: "REALM", Bold: true, Points: []bench.LinePoint{{X: 250, Y: 0.5, Label: "k=5"}, {X: 500, Y: 1, Label: "k=10"}}},
		{Name: "flat", Dashed: true, Points: []bench.LinePoint{{X: 1000, Y: 0.25}}},
	}})
	points := svgElements(t, doc, "circle", "point")
	if len(points) != 3 || points[0]["data-line"] != "REALM" || points[2]["data-line"] != "flat" {
		t.Fatalf("points %v:\n%s", points, doc)
	}
	at := func(i int, attr string) float64 {
		v, _ := strconv.ParseFloat(points[i][attr], 64)
		return v
	}
	// x runs from 0 to 1000 (the largest x, already a nice number), y from 0 to 1.
	x0, dx := at(0, "cx"), at(1, "cx")-at(0, "cx")
	if got := at(2, "cx") - x0; got < 3*dx-0.5 || got > 3*dx+0.5 {
		t.Errorf("x: 250 → %.1f, 500 → %.1f, 1000 → %.1f: not proportional", x0, at(1, "cx"), at(2, "cx"))
	}
	bottom := at(0, "cy") + (at(0, "cy") - at(1, "cy")) // y(0) = y(0.5) + (y(0.5) − y(1))
	if got := bottom - at(2, "cy"); got < (bottom-at(1, "cy"))/4-0.5 || got > (bottom-at(1, "cy"))/4+0.5 {
		t.Errorf("y: 0.25 drawn %.1f above the axis, 1 drawn %.1f above", got, bottom-at(1, "cy"))
	}
	if !strings.Contains(doc, "recall &amp; context") || !strings.Contains(doc, `stroke-dasharray`) {
		t.Errorf("title or dashes missing:\n%s", doc)
	}
}

func TestBarChartSVG(t *testing.T) {
	for _, tt := range []struct {
		name  string
		chart bench.BarChart
		bars  int
		// heights of the bars in order, relative to the first non-zero one
		ratios []float64
	}{
		{"GroupedSeries", bench.BarChart{Title: "Accuracy <by> category & run", YLabel: "accuracy", Groups: []string{"multi-hop", "temporal"},
			Series: []bench.BarSeries{{Name: "on", Values: []float64{0.5, 1}}, {Name: "off \"x\"", Values: []float64{0.25, 0}}}, YMax: 1},
			4, []float64{1, 0.5, 2, 0}},
		{"AutoScale", bench.BarChart{Groups: []string{"0", "1", "none"}, Series: []bench.BarSeries{{Name: "questions", Values: []float64{30, 7}}}, Format: "%.0f"},
			3, []float64{1, 7.0 / 30, 0}},
		{"AllZero", bench.BarChart{Groups: []string{"a"}, Series: []bench.BarSeries{{Name: "s", Values: []float64{0}}}}, 1, []float64{0}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			doc := bench.BarChartSVG(tt.chart)
			bars := parseBars(t, doc)
			if len(bars) != tt.bars {
				t.Fatalf("%d bars, want %d:\n%s", len(bars), tt.bars, doc)
			}
			// Bars go group by group, series by series within a group.
			var unit float64
			for _, b := range bars {
				if b.Height > 0 {
					unit = b.Height
					break
				}
			}
			for i, b := range bars {
				want := tt.ratios[i] * unit
				if diff := b.Height - want; diff > 0.2 || diff < -0.2 {
					t.Errorf("bar %d (%s, %s, value %g) height %.1f, want %.1f", i, b.Series, b.Group, b.Value, b.Height, want)
				}
			}
			if tt.chart.Title != "" && !strings.Contains(doc, "Accuracy &lt;by&gt; category &amp; run") {
				t.Errorf("title not escaped:\n%s", doc)
			}
		})
	}
	// A value above YMax is clipped to the plot.
	bars := parseBars(t, bench.BarChartSVG(bench.BarChart{Groups: []string{"a", "b"}, YMax: 1,
		Series: []bench.BarSeries{{Name: "s", Values: []float64{2, 1}}}}))
	if bars[0].Height != bars[1].Height || bars[0].Value != 2 {
		t.Errorf("clipping: %+v", bars)
	}
}
