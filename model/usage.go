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
// job attempt, one Ask), in total and by task, and the prompts they used.
// It is safe for concurrent use; a nil *Meter ignores everything.
type Meter struct {
	mu      sync.Mutex
	usage   Usage
	prompt  string
	byTask  map[Task]Usage
	prompts map[Task]string
}

// Add records u (the model client's tokens of one call).
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

// ByTask returns the usage of the calls made through Call, by task.
func (mt *Meter) ByTask() map[Task]Usage {
	out := map[Task]Usage{}
	if mt == nil {
		return out
	}
	mt.mu.Lock()
	defer mt.mu.Unlock()
	for t, u := range mt.byTask {
		out[t] = u
	}
	return out
}

// PromptOf returns the PromptID of the last call for task made through
// Call, or "".
func (mt *Meter) PromptOf(task Task) string {
	if mt == nil {
		return ""
	}
	mt.mu.Lock()
	defer mt.mu.Unlock()
	return mt.prompts[task]
}

// addCall records one call made through Call.
func (mt *Meter) addCall(task Task, prompt string, u Usage) {
	if mt == nil {
		return
	}
	mt.mu.Lock()
	defer mt.mu.Unlock()
	mt.usage.Add(u)
	if mt.byTask == nil {
		mt.byTask, mt.prompts = map[Task]Usage{}, map[Task]string{}
	}
	t := mt.byTask[task]
	t.Add(u)
	mt.byTask[task] = t
	if prompt != "" {
		mt.prompt, mt.prompts[task] = prompt, prompt
	}
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

// Call runs m.Complete(ctx, req), counting the call, its latency, the
// tokens the client reports and its prompt in the Meter of ctx, by task.
// Every caller in StrataGate goes through it.
func Call(ctx context.Context, m Model, req Request) (string, error) {
	parent := MeterOf(ctx)
	if parent == nil {
		return m.Complete(ctx, req)
	}
	call := &Meter{}
	start := time.Now()
	raw, err := m.Complete(WithMeter(ctx, call), req)
	u := call.Usage()
	u.Calls++
	u.Latency += time.Since(start)
	parent.addCall(req.Task, req.PromptID, u)
	return raw, err
}
