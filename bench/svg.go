package bench

import (
	"fmt"
	"math"
	"strings"
)

// BarChart is a grouped bar chart: one group of bars per label on the x axis, one bar
// per series in each group.
type BarChart struct {
	Title  string
	YLabel string
	Groups []string // x axis labels
	Series []BarSeries
	// YMax is the top of the y axis; 0 takes the largest value, rounded up to a nice
	// number (1 when every value is 0).
	YMax float64
	// Format renders a bar's value above it; default "%.2f" ("%.0f" for counts).
	Format string
}

// BarSeries is one series: a value per group, in the order of BarChart.Groups (missing
// values are 0).
type BarSeries struct {
	Name   string
	Values []float64
}

// seriesColors are distinguishable on white and in grey print (ColorBrewer Set2, darkened).
var seriesColors = []string{"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666"}

// BarChartSVG renders c as a standalone SVG document (no scripts, no external
// resources), each bar a <rect class="bar"> carrying its series and value, so that
// a report's charts can be checked as well as looked at.
func BarChartSVG(c BarChart) string {
	const (
		barW, gap, right, top, plotH = 18.0, 22.0, 20.0, 56.0, 220.0
		charW                        = 6.2 // mean glyph width at font-size 11
	)
	format := c.Format
	if format == "" {
		format = "%.2f"
	}
	nSeries := max(len(c.Series), 1)
	groupW := float64(nSeries)*barW + gap
	// Room for the x labels, rotated by 30°: they reach left of the first group and below.
	longest := 0.0
	for _, g := range c.Groups {
		longest = math.Max(longest, charW*float64(len([]rune(g))))
	}
	left := math.Max(64, longest*math.Cos(math.Pi/6)-groupW/2+8)
	bottom := math.Max(72, longest*math.Sin(math.Pi/6)+36)
	plotW := math.Max(float64(len(c.Groups))*groupW, 160)
	legendW := 0.0
	for _, s := range c.Series {
		legendW = math.Max(legendW, 24+7*float64(len([]rune(s.Name))))
	}
	width := left + plotW + right + legendW
	height := top + plotH + bottom
	ymax := c.YMax
	if ymax <= 0 {
		for _, s := range c.Series {
			for _, v := range s.Values {
				ymax = math.Max(ymax, v)
			}
		}
		ymax = niceCeil(ymax)
	}
	y := func(v float64) float64 { return top + plotH - plotH*math.Min(math.Max(v, 0), ymax)/ymax }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="11">`+"\n",
		width, height, width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="22" font-size="14" font-weight="bold">%s</text>`+"\n", left, xmlText(c.Title))
	// Y axis: 5 ticks with grid lines.
	for i := 0; i <= 5; i++ {
		v := ymax * float64(i) / 5
		fmt.Fprintf(&b, `<line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="#ddd"/>`+"\n", left, y(v), left+plotW, y(v))
		fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" text-anchor="end">%s</text>`+"\n", left-6, y(v)+4, xmlText(trimZeros(v)))
	}
	fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="black"/>`+"\n", left, top, left, top+plotH)
	fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="black"/>`+"\n", left, top+plotH, left+plotW, top+plotH)
	if c.YLabel != "" {
		fmt.Fprintf(&b, `<text transform="translate(16 %.0f) rotate(-90)" text-anchor="middle">%s</text>`+"\n", top+plotH/2, xmlText(c.YLabel))
	}
	for g, label := range c.Groups {
		x0 := left + gap/2 + float64(g)*groupW
		for si, s := range c.Series {
			v := 0.0
			if g < len(s.Values) {
				v = s.Values[g]
			}
			x := x0 + float64(si)*barW
			fmt.Fprintf(&b, `<rect class="bar" data-series="%s" data-group="%s" data-value="%g" x="%.1f" y="%.1f" width="%.0f" height="%.1f" fill="%s"><title>%s, %s: %s</title></rect>`+"\n",
				xmlText(s.Name), xmlText(label), v, x, y(v), barW-2, top+plotH-y(v), seriesColors[si%len(seriesColors)],
				xmlText(s.Name), xmlText(label), xmlText(fmt.Sprintf(format, v)))
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" font-size="9">%s</text>`+"\n", x+(barW-2)/2, y(v)-3, xmlText(fmt.Sprintf(format, v)))
		}
		cx := x0 + float64(nSeries)*barW/2
		fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" text-anchor="end" transform="rotate(-30 %.1f %.0f)">%s</text>`+"\n", cx, top+plotH+16, cx, top+plotH+16, xmlText(label))
	}
	for si, s := range c.Series {
		lx, ly := left+plotW+right, top+float64(si)*18
		fmt.Fprintf(&b, `<rect x="%.0f" y="%.0f" width="12" height="12" fill="%s"/><text x="%.0f" y="%.0f">%s</text>`+"\n",
			lx, ly, seriesColors[si%len(seriesColors)], lx+18, ly+10, xmlText(s.Name))
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// niceCeil rounds v up to 1, 2, 2.5 or 5 times a power of ten; 1 for v ≤ 0.
func niceCeil(v float64) float64 {
	if v <= 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if v <= m*p*(1+1e-9) {
			return m * p
		}
	}
	return 10 * p
}

func trimZeros(v float64) string {
	s := fmt.Sprintf("%.3f", v)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		return "0"
	}
	return s
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")

func xmlText(s string) string { return xmlEscaper.Replace(s) }

// LineChart is a chart of lines through (x, y) points, each with a marker per point.
type LineChart struct {
	Title          string
	XLabel, YLabel string
	Lines          []Line
	// XMax and YMax are the tops of the axes; 0 takes the largest value rounded up to a
	// nice number.
	XMax, YMax float64
}

// Line is one series of a LineChart; Dashed draws it dashed (a second family of lines in
// the same colours).
type Line struct {
	Name   string
	Points []LinePoint
	Dashed bool
	// Bold draws the line thicker, with larger markers (the series the chart is about).
	Bold bool
	// Color is the line's colour; "" takes the next of the palette.
	Color string
}

// LinePoint is one point of a Line; Label names it in its tooltip ("k=10").
type LinePoint struct {
	X, Y  float64
	Label string
}

// LineChartSVG renders c as a standalone SVG document, like BarChartSVG: each point a
// <circle class="point"> carrying its line and coordinates.
func LineChartSVG(c LineChart) string {
	const left, right, top, bottom, plotW, plotH = 64.0, 20.0, 44.0, 52.0, 520.0, 300.0
	legendW := 0.0
	for _, l := range c.Lines {
		legendW = math.Max(legendW, 36+7*float64(len([]rune(l.Name))))
	}
	width, height := left+plotW+right+legendW, top+plotH+bottom
	xmax, ymax := c.XMax, c.YMax
	for _, l := range c.Lines {
		for _, p := range l.Points {
			if c.XMax <= 0 {
				xmax = math.Max(xmax, p.X)
			}
			if c.YMax <= 0 {
				ymax = math.Max(ymax, p.Y)
			}
		}
	}
	if c.XMax <= 0 {
		xmax = niceCeil(xmax)
	}
	if c.YMax <= 0 {
		ymax = niceCeil(ymax)
	}
	x := func(v float64) float64 { return left + plotW*math.Min(math.Max(v, 0), xmax)/xmax }
	y := func(v float64) float64 { return top + plotH - plotH*math.Min(math.Max(v, 0), ymax)/ymax }

	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="11">`+"\n",
		width, height, width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="22" font-size="14" font-weight="bold">%s</text>`+"\n", left, xmlText(c.Title))
	for i := 0; i <= 5; i++ {
		vy, vx := ymax*float64(i)/5, xmax*float64(i)/5
		fmt.Fprintf(&b, `<line x1="%.0f" y1="%.1f" x2="%.0f" y2="%.1f" stroke="#ddd"/>`+"\n", left, y(vy), left+plotW, y(vy))
		fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" text-anchor="end">%s</text>`+"\n", left-6, y(vy)+4, xmlText(trimZeros(vy)))
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#ddd"/>`+"\n", x(vx), top, x(vx), top+plotH)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" text-anchor="middle">%s</text>`+"\n", x(vx), top+plotH+16, xmlText(trimZeros(vx)))
	}
	fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="black"/>`+"\n", left, top, left, top+plotH)
	fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="black"/>`+"\n", left, top+plotH, left+plotW, top+plotH)
	if c.YLabel != "" {
		fmt.Fprintf(&b, `<text transform="translate(16 %.0f) rotate(-90)" text-anchor="middle">%s</text>`+"\n", top+plotH/2, xmlText(c.YLabel))
	}
	if c.XLabel != "" {
		fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" text-anchor="middle">%s</text>`+"\n", left+plotW/2, top+plotH+38, xmlText(c.XLabel))
	}
	style := func(l Line) (dash string, stroke, radius float64) {
		dash, stroke, radius = "", 1.5, 3
		if l.Dashed {
			dash = ` stroke-dasharray="6 3"`
		}
		if l.Bold {
			stroke, radius = 3, 4.5
		}
		return dash, stroke, radius
	}
	for i, l := range c.Lines {
		color := l.Color
		if color == "" {
			color = seriesColors[i%len(seriesColors)]
		}
		dash, stroke, radius := style(l)
		var pts []string
		for _, p := range l.Points {
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(p.X), y(p.Y)))
		}
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="%.1f"%s points="%s"/>`+"\n", color, stroke, dash, strings.Join(pts, " "))
		for _, p := range l.Points {
			fmt.Fprintf(&b, `<circle class="point" data-line="%s" data-x="%g" data-y="%g" cx="%.1f" cy="%.1f" r="%.1f" fill="%s"><title>%s %s: %s at %s</title></circle>`+"\n",
				xmlText(l.Name), p.X, p.Y, x(p.X), y(p.Y), radius, color, xmlText(l.Name), xmlText(p.Label), xmlText(trimZeros(p.Y)), xmlText(trimZeros(p.X)))
		}
		lx, ly := left+plotW+right, top+float64(i)*18
		fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="%s" stroke-width="%.1f"%s/><text x="%.0f" y="%.0f">%s</text>`+"\n",
			lx, ly+6, lx+24, ly+6, color, stroke, dash, lx+30, ly+10, xmlText(l.Name))
	}
	b.WriteString("</svg>\n")
	return b.String()
}
