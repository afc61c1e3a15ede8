package openai

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// backoff returns the sleep before retry n (0 for the first retry): a
// uniform random duration in [0, min(cap, base·2ⁿ)). Full jitter spreads
// the retries of many clients hit by the same outage.
func backoff(base time.Duration, n int) time.Duration {
	ceil := base
	for i := 0; i < n && ceil < maxBackoff; i++ {
		ceil *= 2
	}
	ceil = min(ceil, maxBackoff)
	if ceil <= 0 {
		return 0
	}
	return rand.N(ceil)
}

// retryAfter reads a Retry-After header, in seconds or as an HTTP date,
// capped at 60s; ok is false when there is none or it does not parse.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	var d time.Duration
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs != secs || secs < 0 { // NaN or negative
			return 0, false
		}
		if secs >= maxRetryAfter.Seconds() {
			return maxRetryAfter, true
		}
		d = time.Duration(secs * float64(time.Second))
	} else if t, err := http.ParseTime(v); err == nil {
		d = max(t.Sub(now), 0)
	} else {
		return 0, false
	}
	return min(d, maxRetryAfter), true
}

// sleepCtx waits d or until ctx ends, returning ctx.Err() in that case.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
