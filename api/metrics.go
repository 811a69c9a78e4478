package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// httpMetrics are what the API layer sees of each request. Labels are the route
// pattern, never the path, so no space or memory id becomes a label.
type httpMetrics struct {
	duration *prometheus.HistogramVec
	inFlight prometheus.Gauge
	routes   map[string]bool // the patterns of routes.go; filled once the router is built
}

// newHTTPMetrics registers the API's collectors on reg.
func newHTTPMetrics(reg prometheus.Registerer) *httpMetrics {
	m := &httpMetrics{
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "realm_http_request_duration_seconds",
			Help: "HTTP requests by method, route pattern and status: latency in seconds (its _count is the request count).",
			// Up to two minutes: a synchronous ingest of a large batch takes that long.
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120},
		}, []string{"method", "route", "status"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "realm_http_requests_in_flight",
			Help: "HTTP requests being served.",
		}),
		routes: map[string]bool{},
	}
	reg.MustRegister(m.duration, m.inFlight)
	return m
}

// observe records every request's latency under its route pattern ("unmatched" for
// requests no route took, so probes of random paths cannot grow the label set).
func (m *httpMetrics) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		m.inFlight.Inc()
		defer m.inFlight.Dec()
		ww := middleware.NewWrapResponseWriter(w, r.ProtoMajor)
		next.ServeHTTP(ww, r)
		route := chi.RouteContext(r.Context()).RoutePattern()
		if !m.routes[route] {
			route = "unmatched"
		}
		m.duration.WithLabelValues(r.Method, route, strconv.Itoa(ww.Status())).Observe(time.Since(start).Seconds())
	})
}

// learnRoutes records the route patterns of router.
func (m *httpMetrics) learnRoutes(router chi.Routes) {
	_ = chi.Walk(router, func(_, route string, _ http.Handler, _ ...func(http.Handler) http.Handler) error {
		m.routes[route] = true
		return nil
	})
}

// metricsHandler serves the registry in Prometheus' text format.
func metricsHandler(reg *prometheus.Registry) http.Handler {
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})
}
