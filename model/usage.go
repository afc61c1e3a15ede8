package model

import (
	"context"
	"sync"
	"time"
)

// Usage is what model calls cost: counted by the model client (tokens, as
// the server reports them) and by Call (calls and latency).
type Usage struct {
	Calls            int64         `json:"calls" msgpack:"c,omitempty"`
	PromptTokens     int64         `json:"prompt_tokens" msgpack:"p,omitempty"`
	CompletionTokens int64         `json:"completion_tokens" msgpack:"o,omitempty"`
	CachedTokens     int64         `json:"cached_tokens" msgpack:"h,omitempty"` // prompt tokens served from the server's cache
	Latency          time.Duration `json:"latency_ns" msgpack:"l,omitempty"`    // wall time inside Complete, retries included
}

// Add adds o to u.
func (u *Usage) Add(o Usage) {
	u.Calls += o.Calls
	u.PromptTokens += o.PromptTokens
	u.CompletionTokens += o.CompletionTokens
	u.CachedTokens += o.CachedTokens
	u.Latency += o.Latency
}

// IsZero reports whether u counts nothing.
func (u Usage) IsZero() bool { return u == Usage{} }

// Meter collects the Usage of the model calls made under one context (one
// job attempt, one Ask) and the prompt they used. It is safe for
// concurrent use; a nil *Meter ignores everything.
type Meter struct {
	mu     sync.Mutex
	usage  Usage
	prompt string
}

// Add records u.
func (mt *Meter) Add(u Usage) {
	if mt == nil {
		return
	}
	mt.mu.Lock()
	mt.usage.Add(u)
	mt.mu.Unlock()
}

// Usage returns what was recorded so far.
func (mt *Meter) Usage() Usage {
	if mt == nil {
		return Usage{}
	}
	mt.mu.Lock()
	defer mt.mu.Unlock()
	return mt.usage
}

// Prompt returns the PromptID of the last call made through Call.
func (mt *Meter) Prompt() string {
	if mt == nil {
		return ""
	}
	mt.mu.Lock()
	defer mt.mu.Unlock()
	return mt.prompt
}

func (mt *Meter) setPrompt(id string) {
	if mt == nil || id == "" {
		return
	}
	mt.mu.Lock()
	mt.prompt = id
	mt.mu.Unlock()
}

type meterKey struct{}

// WithMeter returns a context whose model calls are counted in mt.
func WithMeter(ctx context.Context, mt *Meter) context.Context {
	return context.WithValue(ctx, meterKey{}, mt)
}

// MeterOf returns the Meter of ctx, or nil. Model clients add the tokens
// the server reports to it.
func MeterOf(ctx context.Context) *Meter {
	mt, _ := ctx.Value(meterKey{}).(*Meter)
	return mt
}

// Call runs m.Complete(ctx, req), counting the call, its latency and its
// prompt in the Meter of ctx. Every caller in StrataGate goes through it.
func Call(ctx context.Context, m Model, req Request) (string, error) {
	mt := MeterOf(ctx)
	mt.setPrompt(req.PromptID)
	start := time.Now()
	raw, err := m.Complete(ctx, req)
	mt.Add(Usage{Calls: 1, Latency: time.Since(start)})
	return raw, err
}
