package main

import (
	"flag"
	"maps"
	"slices"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/heuristic"
)

// modelFlags are the model flags of ingest and locomo.
type modelFlags struct {
	spec        string
	offlineGate bool
}

func (f *modelFlags) register(fs *flag.FlagSet, gate bool) {
	fs.StringVar(&f.spec, "model", "", "model `SPEC`: heuristic or openai:NAME, configured by STRATAGATE_MODEL_BASE_URL, "+
		"STRATAGATE_MODEL_API_KEY, ... (default: $STRATAGATE_MODEL, else heuristic)")
	if gate {
		fs.BoolVar(&f.offlineGate, "offline-gate", false, "judge evidence and answer with the offline gate even with a remote -model")
	}
}

// open returns the model and whether Ask should use it for the gate.
func (f *modelFlags) open() (model.Model, bool, error) {
	m, err := stratagate.ModelFromSpec(f.spec, nil)
	if err != nil {
		return nil, false, usageError(err.Error())
	}
	return m, m.Name() != heuristic.Name && !f.offlineGate, nil
}

// usageReport reports model usage by job kind (and by gate task when a
// writable Memory recorded them), and per unit of work: an ingested turn,
// and an asked question (ask sums the Answers' Usage of questions Asks).
func usageReport(name string, by map[string]model.Usage, turns int, ask model.Usage, questions int) report {
	var r report
	r.add("model", "model", name)
	var ingest model.Usage
	for _, kind := range []string{"derive", "extract", "project"} {
		ingest.Add(by[kind])
	}
	per := func(u model.Usage, n int) report {
		var p report
		d := float64(max(n, 1))
		p.add("calls", "model calls", float64(u.Calls)/d)
		p.add("prompt_tokens", "prompt tokens", float64(u.PromptTokens)/d)
		p.add("cached_tokens", "cached prompt tokens", float64(u.CachedTokens)/d)
		p.add("completion_tokens", "completion tokens", float64(u.CompletionTokens)/d)
		p.add("model_ms", "model time (ms)", float64(u.Latency.Microseconds())/1e3/d)
		return p
	}
	r.add("per_turn", "per ingested turn", per(ingest, turns))
	if questions > 0 {
		r.add("per_question", "per question (Ask)", per(ask, questions))
	}
	var kinds report
	for _, k := range slices.Sorted(maps.Keys(by)) {
		u := by[k]
		var kr report
		kr.add("calls", "calls", u.Calls)
		kr.add("prompt_tokens", "prompt tokens", u.PromptTokens)
		kr.add("cached_tokens", "cached prompt tokens", u.CachedTokens)
		kr.add("completion_tokens", "completion tokens", u.CompletionTokens)
		kr.add("model_s", "model time (s)", u.Latency.Seconds())
		if u.Calls > 0 {
			kr.add("mean_call_ms", "mean call (ms)", float64(u.Latency.Microseconds())/1e3/float64(u.Calls))
		}
		kinds.add(k, k, kr)
	}
	r.add("by_step", "by job kind and gate task", kinds)
	return r
}
