package main

// Percentiles, the report every command prints, and the progress line.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"
)

// percentile returns the p-th percentile (0 < p ≤ 100) of sorted by the
// nearest-rank method: the smallest value such that at least p% of the
// values are ≤ it. It returns 0 for an empty slice; p ≤ 0 gives the
// minimum.
func percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(n)))
	rank = max(1, min(rank, n))
	return sorted[rank-1]
}

// latencies summarises durations in microseconds.
type latencies struct {
	N                             int
	Mean, P50, P95, P99, Max, Min float64
}

func summarize(ds []time.Duration) latencies {
	if len(ds) == 0 {
		return latencies{}
	}
	us := make([]float64, len(ds))
	var sum float64
	for i, d := range ds {
		us[i] = float64(d.Nanoseconds()) / 1e3
		sum += us[i]
	}
	slices.Sort(us)
	return latencies{
		N: len(us), Mean: sum / float64(len(us)), Min: us[0], Max: us[len(us)-1],
		P50: percentile(us, 50), P95: percentile(us, 95), P99: percentile(us, 99),
	}
}

// field is one line of a report: a JSON key, a readable label and a value.
type field struct {
	key   string
	label string
	value any
}

// report is a command's result, printed as an aligned table or as one
// JSON object whose keys keep the report's order.
type report []field

func (r *report) add(key, label string, value any) { *r = append(*r, field{key, label, value}) }

// MarshalJSON writes the fields as one object in report order.
func (r report) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range r {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(f.key)
		b.Write(k)
		b.WriteByte(':')
		v := f.value
		if x, ok := v.(float64); ok {
			v = round3(x)
		}
		enc, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", f.key, err)
		}
		b.Write(enc)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// round3 keeps three decimals (and maps NaN/Inf, which JSON cannot hold,
// to 0).
func round3(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return math.Round(x*1000) / 1000
}

// write prints r to w: as JSON when asJSON, else as a two-column table.
func (r report) write(w io.Writer, asJSON bool) error {
	if asJSON {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(w, "%s\n", b)
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	r.rows(tw, "")
	return tw.Flush()
}

// rows prints r's fields, a nested report's under its label, indented.
func (r report) rows(w io.Writer, indent string) {
	for _, f := range r {
		if sub, ok := f.value.(report); ok {
			fmt.Fprintf(w, "%s%s\t\n", indent, f.label)
			sub.rows(w, indent+"  ")
			continue
		}
		fmt.Fprintf(w, "%s%s\t%s\n", indent, f.label, formatValue(f.value))
	}
}

func formatValue(v any) string {
	switch x := v.(type) {
	case float64:
		switch {
		case x == math.Trunc(x) && math.Abs(x) < 1e15:
			return strconv.FormatFloat(x, 'f', 0, 64)
		case math.Abs(x) >= 100:
			return strconv.FormatFloat(x, 'f', 1, 64)
		default:
			return strconv.FormatFloat(x, 'f', 3, 64)
		}
	case []string:
		b, _ := json.Marshal(x)
		return string(b)
	default:
		return fmt.Sprint(v)
	}
}

// humanBytes renders a byte count readably.
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// progress prints "label: done/total unit (pct), rate/s, ETA" to w every
// interval until stop is called. A zero interval prints nothing.
type progress struct {
	done  atomic.Int64
	stopc chan struct{}
	wg    sync.WaitGroup
}

func startProgress(w io.Writer, every time.Duration, label, unit string, total int) *progress {
	p := &progress{stopc: make(chan struct{})}
	if every <= 0 || w == nil {
		return p
	}
	start := time.Now()
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-p.stopc:
				return
			case <-t.C:
				done := p.done.Load()
				el := time.Since(start).Seconds()
				rate := float64(done) / el
				eta := "?"
				if rate > 0 && total > 0 {
					eta = time.Duration(float64(int64(total)-done) / rate * float64(time.Second)).Round(time.Second).String()
				}
				pct := 0.0
				if total > 0 {
					pct = 100 * float64(done) / float64(total)
				}
				fmt.Fprintf(w, "%s: %d/%d %s (%.1f%%), %.0f %s/s, ETA %s\n", label, done, total, unit, pct, rate, unit, eta)
			}
		}
	}()
	return p
}

func (p *progress) add(n int) { p.done.Add(int64(n)) }

func (p *progress) stop() {
	select {
	case <-p.stopc:
	default:
		close(p.stopc)
	}
	p.wg.Wait()
}
