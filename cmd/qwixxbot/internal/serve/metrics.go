package serve

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/qwixxbot/qwixxbot/bot"
	"github.com/qwixxbot/qwixxbot/bot/discordhttp"
	"github.com/qwixxbot/qwixxbot/store"
)

// metrics are the bot's Prometheus metrics, served on the debug listener
// at /metrics. Each Run has its own registry (tests run several bots in
// one process).
type metrics struct {
	reg     *prometheus.Registry
	answers *prometheus.HistogramVec // by kind and ok
	rest    *prometheus.CounterVec   // by route and status
	restDur *prometheus.HistogramVec // by route
	limited *prometheus.CounterVec   // 429s by route and scope
	commits prometheus.Histogram
	// gatewayTaken counts the gateway's interactions discordgw decoded
	// (the others, which discordgo decoded, are not counted).
	gatewayTaken prometheus.Counter
	// ready reports whether the bot can serve: the gateway connected and
	// the store readable (set once both exist).
	ready atomic.Pointer[func() error]
}

// answerBuckets reach past Discord's 3 s deadline for an answer.
var answerBuckets = []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2, 3, 5}

func newMetrics() *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	m.answers = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "qwixxbot_interaction_answer_seconds",
		Help:    "Time from an interaction's arrival to its answer being taken by Discord, by kind (command, component, autocomplete, …) and whether it was taken (ok).",
		Buckets: answerBuckets,
	}, []string{"kind", "ok"})
	m.rest = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "qwixxbot_discord_requests_total",
		Help: "REST requests to Discord by route (IDs and tokens left out) and HTTP status (\"error\" when no answer came).",
	}, []string{"route", "status"})
	m.restDur = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "qwixxbot_discord_request_seconds",
		Help:    "Duration of REST requests to Discord by route.",
		Buckets: answerBuckets,
	}, []string{"route"})
	m.limited = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "qwixxbot_discord_rate_limited_total",
		Help: "REST requests Discord answered with 429 Too Many Requests, by route and X-RateLimit-Scope (user, global, shared).",
	}, []string{"route", "scope"})
	m.commits = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name:    "qwixxbot_store_commit_seconds",
		Help:    "Duration of the database's commits (one fsync each; concurrent writes share one).",
		Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1},
	})
	m.gatewayTaken = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "qwixxbot_gateway_interactions_taken_total",
		Help: "Interactions taken off the gateway connection and decoded in one pass (the others are decoded by discordgo).",
	})
	m.reg.MustRegister(m.answers, m.rest, m.restDur, m.limited, m.commits, m.gatewayTaken,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// observeAnswer is bot.Options.Observe.
func (m *metrics) observeAnswer(kind string, took time.Duration, ok bool) {
	m.answers.WithLabelValues(kind, strconv.FormatBool(ok)).Observe(took.Seconds())
}

// observeCommit is store.WithCommitObserver's function.
func (m *metrics) observeCommit(took time.Duration, _ int) { m.commits.Observe(took.Seconds()) }

// transport counts next's requests by route and status.
func (m *metrics) transport(next http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		route := discordhttp.Route(req.Method, req.URL.Path)
		start := time.Now()
		resp, err := next.RoundTrip(req)
		m.restDur.WithLabelValues(route).Observe(time.Since(start).Seconds())
		if err != nil {
			m.rest.WithLabelValues(route, "error").Inc()
			return resp, err
		}
		m.rest.WithLabelValues(route, strconv.Itoa(resp.StatusCode)).Inc()
		if resp.StatusCode == http.StatusTooManyRequests {
			scope := resp.Header.Get("X-RateLimit-Scope")
			if scope == "" {
				scope = "unknown"
			}
			m.limited.WithLabelValues(route, scope).Inc()
		}
		return resp, nil
	})
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// watch registers the gauges and counters read from the running bot, its
// pictures, its store and its gateway session.
func (m *metrics) watch(b *bot.Bot, pc *bot.PictureCache, st *store.Store, s *discordgo.Session) {
	live := prometheus.NewDesc("qwixxbot_live_tables", "Games in play, by variant.", []string{"variant"}, nil)
	m.reg.MustRegister(collectorFunc{desc: live, collect: func(ch chan<- prometheus.Metric) {
		n := b.LiveTables()
		for _, v := range []string{"dice", "cards", "jokers"} {
			ch <- prometheus.MustNewConstMetric(live, prometheus.GaugeValue, float64(n[v]), v)
		}
	}})
	m.reg.MustRegister(
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "qwixxbot_reconciler_running", Help: "Surfaces (a channel's messages, a player's hand view) being brought up to date now."},
			func() float64 { r, _ := b.Refreshing(); return float64(r) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "qwixxbot_reconciler_pending", Help: "Surfaces waiting for another pass after the one running."},
			func() float64 { _, p := b.Refreshing(); return float64(p) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "qwixxbot_picture_cache_hits_total", Help: "Pictures served from the cache."},
			func() float64 { h, _, _ := pc.Stats(); return float64(h) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "qwixxbot_pictures_drawn_total", Help: "Pictures drawn (cache misses)."},
			func() float64 { _, d, _ := pc.Stats(); return float64(d) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "qwixxbot_picture_cache_bytes", Help: "Bytes of PNG the picture cache holds."},
			func() float64 { _, _, n := pc.Stats(); return float64(n) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "qwixxbot_store_commits_total", Help: "Write transactions committed (one fsync each)."},
			func() float64 { return float64(st.Stats().Commits) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "qwixxbot_store_writes_total", Help: "Writes committed (several share a commit)."},
			func() float64 { return float64(st.Stats().Writes) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "qwixxbot_gateway_connected", Help: "1 while the gateway connection is up and READY, else 0."},
			func() float64 {
				if gatewayUp(s) {
					return 1
				}
				return 0
			}),
	)
	ready := func() error {
		if !gatewayUp(s) {
			return errGatewayDown
		}
		if _, err := st.Version(); err != nil {
			return err
		}
		return nil
	}
	m.ready.Store(&ready)
}

// gatewayUp reports whether s is connected and has had its READY.
func gatewayUp(s *discordgo.Session) bool {
	s.RLock()
	defer s.RUnlock()
	return s.DataReady
}

type readyError string

func (e readyError) Error() string { return string(e) }

const (
	errGatewayDown = readyError("the gateway is not connected")
	errStarting    = readyError("starting")
)

// collectorFunc is a Collector of one Desc whose metrics come from collect.
type collectorFunc struct {
	desc    *prometheus.Desc
	collect func(chan<- prometheus.Metric)
}

func (c collectorFunc) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }
func (c collectorFunc) Collect(ch chan<- prometheus.Metric) { c.collect(ch) }

// handle adds /metrics, /healthz and /readyz to mux.
func (m *metrics) handle(mux *http.ServeMux) {
	mux.Handle("/metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		err := error(errStarting)
		if f := m.ready.Load(); f != nil {
			ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- (*f)() }()
			select {
			case err = <-done:
			case <-ctx.Done():
				err = ctx.Err()
			}
		}
		if err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte("not ready: " + err.Error() + "\n"))
			return
		}
		w.Write([]byte("ready\n"))
	})
}
