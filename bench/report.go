package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
)

// Chart is one chart of a report, a bar chart or, with Line set, a line chart; Name
// makes its file name (report-<name>.svg).
type Chart struct {
	Name string
	BarChart
	Line *LineChart
}

// title is the chart's title, whichever kind it is.
func (c Chart) title() string {
	if c.Line != nil {
		return c.Line.Title
	}
	return c.Title
}

// SVG renders the chart.
func (c Chart) SVG() string {
	if c.Line != nil {
		return LineChartSVG(*c.Line)
	}
	return BarChartSVG(c.BarChart)
}

// ChartPath is where the chart name of the report at out (x.json) is written: beside
// it, as x-name.svg.
func ChartPath(out, name string) string {
	return strings.TrimSuffix(out, filepath.Ext(out)) + "-" + name + ".svg"
}

// MarkdownPath is where the Markdown of the report at out (x.json) is written: x.md.
func MarkdownPath(out string) string {
	return strings.TrimSuffix(out, filepath.Ext(out)) + ".md"
}

// ChartsMarkdown is a "Charts" section showing the charts of the report at out, linked
// by relative paths so that the Markdown renders beside its SVG files.
func ChartsMarkdown(out string, charts []Chart) string {
	if len(charts) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("## Charts\n\n")
	for _, c := range charts {
		fmt.Fprintf(&b, "![%s](%s)\n\n", strings.ReplaceAll(c.title(), "]", ")"), filepath.Base(ChartPath(out, c.Name)))
	}
	return b.String()
}

// WriteReport writes report as indented JSON to out, markdown beside it (MarkdownPath)
// and every chart as an SVG file (ChartPath); it returns the paths written.
func WriteReport(out string, report any, markdown string, charts []Chart) ([]string, error) {
	b, err := json.MarshalIndent(report, "", "  ")
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{out: append(b, '\n'), MarkdownPath(out): []byte(markdown)}
	paths := []string{out, MarkdownPath(out)}
	for _, c := range charts {
		p := ChartPath(out, c.Name)
		files[p] = []byte(c.SVG())
		paths = append(paths, p)
	}
	if dir := filepath.Dir(out); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	for _, p := range paths {
		if err := os.WriteFile(p, files[p], 0o644); err != nil {
			return nil, err
		}
	}
	return paths, nil
}

// BuildInfo describes the build that runs a benchmark, for its report: the Go version,
// the module version and the VCS revision stamped at build time; when the binary has no
// VCS stamp (go run, go test), the commit of the git checkout in the working directory,
// if any, with "-dirty" when it has uncommitted changes.
func BuildInfo() map[string]string {
	info := map[string]string{"go": runtime.Version(), "os_arch": runtime.GOOS + "/" + runtime.GOARCH}
	if bi, ok := debug.ReadBuildInfo(); ok {
		info["module_version"] = bi.Main.Version
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				info["commit"] = s.Value
			case "vcs.modified":
				if s.Value == "true" {
					info["dirty"] = "true"
				}
			case "vcs.time":
				info["commit_time"] = s.Value
			}
		}
	}
	if info["commit"] == "" {
		if out, err := exec.Command("git", "rev-parse", "HEAD").Output(); err == nil {
			info["commit"] = strings.TrimSpace(string(out))
			info["commit_source"] = "git rev-parse HEAD in the working directory"
			if st, err := exec.Command("git", "status", "--porcelain", "--untracked-files=no").Output(); err == nil && len(strings.TrimSpace(string(st))) > 0 {
				info["dirty"] = "true"
			}
		}
	}
	return info
}

// WeightHistogram counts weights in HistogramBins equal bins over [0, 1], as
// cypher.Store.EdgeWeightHistogram does: bin i holds [i/bins, (i+1)/bins), the last bin
// is closed; weights outside [0, 1] go to the nearest end.
func WeightHistogram(weights map[string]float64) []int64 {
	out := make([]int64, HistogramBins)
	for _, w := range weights {
		out[min(max(int(w*HistogramBins), 0), HistogramBins-1)]++
	}
	return out
}

// addWeightHistogram adds the histogram of weights to h (nil: a new one).
func addWeightHistogram(h []int64, weights map[string]float64) []int64 {
	if h == nil {
		h = make([]int64, HistogramBins)
	}
	addHistogram(h, WeightHistogram(weights))
	return h
}
