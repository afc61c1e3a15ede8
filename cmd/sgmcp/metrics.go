package main

import (
	"slices"
	"sync"
	"time"
)

// latencyWindow is how many recent calls per tool the percentiles cover.
const latencyWindow = 1024

// metrics counts tool calls and gate outcomes since the server started.
// Safe for concurrent use.
type metrics struct {
	start time.Time
	mu    struct {
		sync.Mutex
		tools    map[string]*toolStats
		verdicts map[string]int
		refs     int // evidence refs submitted to memory_assess
		rejected int // of those, rejected by gate.Validate
	}
}

type toolStats struct {
	calls, errors int
	lat           []time.Duration // ring of the latest latencyWindow
	next          int
}

func newMetrics() *metrics {
	m := &metrics{start: time.Now()}
	m.mu.tools = map[string]*toolStats{}
	m.mu.verdicts = map[string]int{}
	return m
}

func (m *metrics) observe(tool string, d time.Duration, isErr bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.mu.tools[tool]
	if t == nil {
		t = &toolStats{}
		m.mu.tools[tool] = t
	}
	t.calls++
	if isErr {
		t.errors++
	}
	if len(t.lat) < latencyWindow {
		t.lat = append(t.lat, d)
	} else {
		t.lat[t.next] = d
		t.next = (t.next + 1) % latencyWindow
	}
}

// verdict counts one gate verdict, with the refs submitted and rejected.
func (m *metrics) verdict(v string, refs, rejected int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.mu.verdicts[v]++
	m.mu.refs += refs
	m.mu.rejected += rejected
}

// toolReport is one tool's line in memory_status.
type toolReport struct {
	Name   string  `json:"name"`
	Calls  int     `json:"calls"`
	Errors int     `json:"errors"`
	P50ms  float64 `json:"p50_ms"`
	P95ms  float64 `json:"p95_ms"`
}

// gateReport is memory_status's gate section.
type gateReport struct {
	Assessments    int     `json:"assessments"`
	Sufficient     int     `json:"sufficient"`
	Partial        int     `json:"partial"`
	Wrong          int     `json:"wrong"`
	SufficientRate float64 `json:"sufficient_rate"`
	RefsSubmitted  int     `json:"refs_submitted"`
	RefsRejected   int     `json:"refs_rejected"`
	RejectionRate  float64 `json:"rejection_rate"`
}

func (m *metrics) report(names []string) ([]toolReport, gateReport) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var tools []toolReport
	for _, n := range names {
		r := toolReport{Name: n}
		if t := m.mu.tools[n]; t != nil {
			r.Calls, r.Errors = t.calls, t.errors
			r.P50ms, r.P95ms = percentile(t.lat, 50), percentile(t.lat, 95)
		}
		tools = append(tools, r)
	}
	g := gateReport{Sufficient: m.mu.verdicts["sufficient"], Partial: m.mu.verdicts["partial"], Wrong: m.mu.verdicts["wrong"],
		RefsSubmitted: m.mu.refs, RefsRejected: m.mu.rejected}
	g.Assessments = g.Sufficient + g.Partial + g.Wrong
	if g.Assessments > 0 {
		g.SufficientRate = float64(g.Sufficient) / float64(g.Assessments)
	}
	if g.RefsSubmitted > 0 {
		g.RejectionRate = float64(g.RefsRejected) / float64(g.RefsSubmitted)
	}
	return tools, g
}

// percentile returns the p-th percentile of ds in milliseconds (nearest
// rank), 0 for none.
func percentile(ds []time.Duration, p int) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (p*len(s)+99)/100 - 1
	i = max(0, min(i, len(s)-1))
	return float64(s[i].Microseconds()) / 1000
}
