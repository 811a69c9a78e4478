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

// parseBars checks that doc is well-formed XML with an <svg> root and returns its bars.
func parseBars(t *testing.T, doc string) []svgBar {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(doc))
	var bars []svgBar
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
		if el.Name.Local == "rect" && attr["class"] == "bar" {
			v, _ := strconv.ParseFloat(attr["data-value"], 64)
			h, _ := strconv.ParseFloat(attr["height"], 64)
			bars = append(bars, svgBar{attr["data-series"], attr["data-group"], v, h})
		}
	}
	if root != "svg" {
		t.Fatalf("root element %q, want svg", root)
	}
	return bars
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
