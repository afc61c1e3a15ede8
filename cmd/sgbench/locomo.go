package main

import (
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/gate"
	"github.com/stratagate/stratagate/internal/locomo"
	"github.com/stratagate/stratagate/model"
)

var locomoCommand = &command{
	name:     "locomo",
	synopsis: "-data FILE [-k 10] [-rounds R] [-details FILE] [-model SPEC [-offline-gate]]",
	summary:  "LoCoMo evidence recall@k of SearchRaw, SearchEvents and Ask, Ask verdicts, temporal accuracy",
	define: func(fs *flag.FlagSet) func(context.Context, *common) (report, error) {
		data := fs.String("data", "", "LoCoMo JSON `FILE` (required), e.g. ../shared/locomo/locomo-dev.json")
		k := fs.Int("k", 10, "results per search channel (Query.Limit) and the k of recall@k")
		rounds := fs.Int("rounds", 0, fmt.Sprintf("Ask retrieval budget (AskOptions.MaxRounds; 0: Ask's default %d)", gate.DefaultRounds))
		details := fs.String("details", "", "write one JSON line per measured question to `FILE`")
		var mf modelFlags
		mf.register(fs, true)
		return func(ctx context.Context, o *common) (report, error) {
			switch {
			case *data == "":
				return nil, usageError("-data is required")
			case *k < 1 || *k > stratagate.MaxLimit:
				return nil, usageError(fmt.Sprintf("-k must be in 1–%d", stratagate.MaxLimit))
			case *rounds < 0 || *rounds > gate.MaxRounds:
				return nil, usageError(fmt.Sprintf("-rounds must be in 0–%d", gate.MaxRounds))
			}
			m, gateModel, err := mf.open()
			if err != nil {
				return nil, err
			}
			return runLoCoMo(ctx, o, *data, *k, *rounds, *details, m, gateModel)
		}
	},
}

// locomoScope is the scope every conversation is ingested into.
const locomoScope = "global"

// locomoRun is what one locomo invocation measured.
type locomoRun struct {
	eval                  *locomo.Eval
	data                  string
	rounds                int
	blocks, cards, failed int
	ingest, measure       time.Duration
	total                 time.Duration
	coverage              locomo.Coverage // gold turns with an event card
	model                 model.Model
	gateModel             bool                   // Ask judges and answers with model
	usage                 map[string]model.Usage // by job kind, summed over the conversations
	turns                 int
}

func runLoCoMo(ctx context.Context, o *common, data string, k, rounds int, details string, mdl model.Model, gateModel bool) (report, error) {
	start := time.Now()
	convs, err := locomo.Load(data)
	if err != nil {
		return nil, err
	}
	if len(convs) == 0 {
		return nil, fmt.Errorf("%s holds no conversation", data)
	}
	var detailsFile *os.File
	if details != "" {
		if detailsFile, err = os.Create(details); err != nil {
			return nil, err
		}
		defer detailsFile.Close()
	}
	dir, err := os.MkdirTemp("", "sgbench-locomo-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)

	run := &locomoRun{eval: locomo.NewEval(k), data: data, rounds: rounds, model: mdl, gateModel: gateModel, usage: map[string]model.Usage{}}
	turns, questions := 0, 0
	for i := range convs {
		turns += len(convs[i].TurnDiaIDs())
		for _, q := range convs[i].QA {
			if locomo.Measured(q.Category) {
				questions++
			}
		}
	}
	if err := o.startProfile(); err != nil {
		return nil, err
	}
	defer o.stopProfile()

	// Ingest every conversation into its own file.
	paths := make([]string, len(convs))
	maps := make([]locomo.Mapping, len(convs))
	clocks := make([]func() time.Time, len(convs))
	t0 := time.Now()
	p := startProgress(o.stderr, o.progress, "locomo ingest", "turns", turns)
	for i := range convs {
		c := &convs[i]
		paths[i] = filepath.Join(dir, fmt.Sprintf("conv-%d.sg", i+1))
		clocks[i] = askClock(c)
		if maps[i], err = locomoIngest(ctx, o, run, c, paths[i], clocks[i]); err != nil {
			p.stop()
			return nil, err
		}
		p.add(len(c.TurnDiaIDs()))
	}
	p.stop()
	run.ingest = time.Since(t0)

	// Measure each conversation's questions on its file, read-only: Ask
	// then records no memory use, so no question changes the weights (and
	// rankings) that later questions see.
	t1 := time.Now()
	p = startProgress(o.stderr, o.progress, "locomo questions", "questions", questions)
	for i := range convs {
		if err := locomoMeasure(ctx, run, &convs[i], maps[i], paths[i], clocks[i], func() { p.add(1) }); err != nil {
			p.stop()
			return nil, err
		}
	}
	p.stop()
	run.measure = time.Since(t1)
	if err := o.stopProfile(); err != nil {
		return nil, err
	}
	run.total = time.Since(start)

	if detailsFile != nil {
		enc := json.NewEncoder(detailsFile)
		for _, it := range run.eval.Items {
			if err := enc.Encode(it); err != nil {
				return nil, fmt.Errorf("%s: %w", details, err)
			}
		}
		if err := detailsFile.Close(); err != nil {
			return nil, fmt.Errorf("%s: %w", details, err)
		}
	}
	o.table = run.table
	return run.report(), nil
}

// askClock is the fixed clock of a conversation's store: the questions are
// asked the day after its last turn, whatever day sgbench runs (time words
// in a question, "in June", resolve against it).
func askClock(c *locomo.Conversation) func() time.Time {
	now := c.LastMessageAt()
	if now.IsZero() {
		now = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	now = now.Add(24 * time.Hour)
	return func() time.Time { return now }
}

// locomoIngest appends c to a new store at path as one thread and waits
// for its blocks and cards.
func locomoIngest(ctx context.Context, o *common, run *locomoRun, c *locomo.Conversation, path string, clock func() time.Time) (locomo.Mapping, error) {
	mem, err := stratagate.Open(path, &stratagate.Options{NoSync: true, Clock: clock, Model: run.model})
	if err != nil {
		return locomo.Mapping{}, err
	}
	defer mem.Close()
	m, err := locomo.Ingest(ctx, mem, c, c.ID, locomoScope)
	if err != nil {
		return m, err
	}
	if err := waitIdle(ctx, mem, o.stderr, o.progress, "locomo "+c.ID); err != nil {
		return m, err
	}
	st, err := mem.Stats(ctx)
	if err != nil {
		return m, err
	}
	run.eval.Conversations++
	run.eval.Messages += st.Messages
	run.blocks += st.Blocks
	run.cards += st.Buckets["events"]
	run.failed += st.JobsFailed
	run.turns += len(c.TurnDiaIDs())
	for k, u := range st.Usage {
		t := run.usage[k]
		t.Add(u)
		run.usage[k] = t
	}
	return m, mem.Close()
}

// locomoMeasure runs c's questions on the store at path, opened read-only.
func locomoMeasure(ctx context.Context, run *locomoRun, c *locomo.Conversation, m locomo.Mapping, path string, clock func() time.Time, done func()) error {
	mem, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true, Clock: clock, Model: run.model, GateModel: run.gateModel})
	if err != nil {
		return err
	}
	defer mem.Close()
	if err := run.coverage.Measure(ctx, mem, c, m); err != nil {
		return err
	}
	opts := stratagate.AskOptions{Scopes: []string{locomoScope}, MaxRounds: run.rounds}
	if err := run.eval.Run(ctx, mem, c, m, opts.Scopes, opts, done); err != nil {
		return err
	}
	if err := mem.Close(); err != nil {
		return err
	}
	return os.Remove(path)
}

// categoryNames are the LoCoMo question categories measured, in order.
var categoryNames = []struct {
	n    int
	name string
}{
	{locomo.CategoryMultiHop, "multi-hop"},
	{locomo.CategoryTemporal, "temporal"},
	{locomo.CategoryOpenDomain, "open-domain"},
	{locomo.CategorySingleHop, "single-hop"},
}

func channelReport(c *locomo.Channel) report {
	var r report
	r.add("recall_at_k", "recall@k", c.All.RecallAtK())
	r.add("hit_at_k", "hit@k", c.All.HitAtK())
	r.add("n", "questions scored", c.All.N)
	var by report
	for _, cat := range categoryNames {
		s := c.ByCategory[cat.n]
		var cr report
		cr.add("recall_at_k", "recall@k", s.RecallAtK())
		cr.add("hit_at_k", "hit@k", s.HitAtK())
		cr.add("n", "questions scored", s.N)
		by.add(strconv.Itoa(cat.n), cat.name, cr)
	}
	r.add("by_category", "by category", by)
	return r
}

// verdictNames lists the three verdicts, then any other value Ask gave.
func verdictNames(v map[string]int) []string {
	names := []string{locomo.VerdictSufficient, locomo.VerdictPartial, locomo.VerdictWrong}
	var other []string
	for name := range v {
		if !slices.Contains(names, name) {
			other = append(other, name)
		}
	}
	slices.Sort(other)
	return append(names, other...)
}

func (run *locomoRun) report() report {
	e := run.eval
	a := &e.Ask
	ask := channelReport(&a.Channel)
	ask.add("false_sufficient_rate", "false sufficient rate", a.FalseSufficientRate())
	ask.add("mean_rounds", "mean retrieval rounds", a.MeanRounds())
	var verdicts report
	for _, name := range verdictNames(a.Verdicts) {
		verdicts.add(name, name, a.Verdicts[name])
	}
	ask.add("verdicts", "verdicts", verdicts)
	ask.add("sufficient_scored", "sufficient answers with gold evidence", a.SufficientScored)
	ask.add("false_sufficient", "... citing no gold evidence turn", a.FalseSufficient)
	ask.add("abstentions", "abstentions (not sufficient)", a.Abstentions)
	ask.add("abstention_rate", "abstention rate", frac(a.Abstentions, a.Questions))
	ask.add("max_rounds", "retrieval budget (rounds)", cmp.Or(run.rounds, gate.DefaultRounds))
	ask.add("mean_evidence_turns_sufficient", "mean evidence turns per sufficient answer", e.MeanSufficientTurns())
	ask.add("sufficient_recall", "evidence recall of sufficient answers", e.MeanSufficientRecall())

	t := e.Temporal
	var temporal report
	temporal.add("scored", "scored", t.Scored)
	temporal.add("unparsed", "gold answer not a date", t.Unparsed)
	temporal.add("accuracy", "accuracy", t.Accuracy())
	temporal.add("correct", "correct", t.Correct)
	temporal.add("no_interval", "answers without a resolved interval", t.NoInterval)
	temporal.add("no_evidence", "no gold evidence (no reference date)", t.NoEvidence)
	temporal.add("questions", "category-2 questions", t.Questions)

	var r report
	r.add("questions", "questions (categories 1–4)", e.Questions)
	r.add("k", "k", e.K)
	r.add("raw", "SearchRaw", channelReport(&e.Raw))
	r.add("raw_context", "SearchRaw with ±1 neighbours", channelReport(&e.RawContext))
	r.add("events", "SearchEvents", channelReport(&e.Events))
	r.add("ask", "Ask", ask)
	r.add("ask_seen", "every message Ask retrieved", channelReport(&e.AskSeen))
	r.add("temporal", "temporal", temporal)
	var convs report
	for _, id := range e.Order {
		convs.add(id, id, conversationReport(e.ByConversation[id]))
	}
	r.add("by_conversation", "by conversation", convs)
	r.add("duration", "duration answers", report{{"scored", "scored", e.Duration.Scored}, {"correct", "correct", e.Duration.Correct}, {"accuracy", "accuracy", e.Duration.Accuracy()}})
	r.add("unresolved_evidence", "unresolved evidence ids", e.Unresolved)
	r.add("questions_no_gold", "questions without gold evidence (not scored)", e.Raw.NoGold)
	r.add("adversarial_skipped", "category-5 questions skipped", e.Adversarial)
	r.add("conversations", "conversations", e.Conversations)
	r.add("messages", "messages", e.Messages)
	r.add("blocks", "blocks", run.blocks)
	r.add("cards", "event cards", run.cards)
	r.add("card_coverage", "gold turns with an event card", run.coverage.Fraction())
	r.add("jobs_failed", "jobs failed", run.failed)
	r.add("ingest_s", "ingest incl. WaitIdle (s)", run.ingest.Seconds())
	r.add("measure_s", "questions (s)", run.measure.Seconds())
	r.add("ms_per_question", "ms per question (3 channels)", 1e3*run.measure.Seconds()/float64(max(1, e.Questions)))
	r.add("elapsed_s", "total (s)", run.total.Seconds())
	gateName := "offline"
	if run.gateModel {
		gateName = run.model.Name()
	}
	r.add("gate", "gate (assessor and answerer)", gateName)
	r.add("model", "model use", usageReport(run.model.Name(), run.usage, run.turns, e.AskUsage, e.Questions))
	return r
}

// conversationReport is the summary of one conversation's measurement.
func conversationReport(e *locomo.Eval) report {
	var r report
	r.add("questions", "questions", e.Questions)
	r.add("raw_recall", "SearchRaw recall@k", e.Raw.All.RecallAtK())
	r.add("raw_context_recall", "SearchRaw ±1 recall@k", e.RawContext.All.RecallAtK())
	r.add("events_recall", "SearchEvents recall@k", e.Events.All.RecallAtK())
	r.add("ask_recall", "Ask recall", e.Ask.All.RecallAtK())
	r.add("ask_seen_recall", "Ask seen recall", e.AskSeen.All.RecallAtK())
	r.add("false_sufficient_rate", "false sufficient rate", e.Ask.FalseSufficientRate())
	r.add("abstention_rate", "abstention rate", frac(e.Ask.Abstentions, e.Ask.Questions))
	r.add("temporal_accuracy", "temporal accuracy", e.Temporal.Accuracy())
	r.add("temporal_scored", "temporal scored", e.Temporal.Scored)
	r.add("mean_evidence_turns_sufficient", "mean evidence turns per sufficient answer", e.MeanSufficientTurns())
	return r
}

func frac(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}

// table prints the readable report.
func (run *locomoRun) table(w io.Writer) error {
	e := run.eval
	a := &e.Ask
	rounds := run.rounds
	if rounds == 0 {
		rounds = gate.DefaultRounds
	}
	fmt.Fprintf(w, "LoCoMo %s: %d conversation(s), %d messages, %d blocks, %d event cards, %d jobs failed\n",
		filepath.Base(run.data), e.Conversations, e.Messages, run.blocks, run.cards, run.failed)
	fmt.Fprintf(w, "%d questions in categories 1–4 (%d without gold evidence, not scored; %d category-5 skipped), %d unresolved evidence ids\n\n",
		e.Questions, e.Raw.NoGold, e.Adversarial, e.Unresolved)

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "evidence\trecall@%d\thit@%d", e.K, e.K)
	for _, cat := range categoryNames {
		fmt.Fprintf(tw, "\t%d %s (n=%d)", cat.n, cat.name, e.Raw.ByCategory[cat.n].N)
	}
	fmt.Fprintln(tw, "\t")
	row := func(name string, c *locomo.Channel) {
		fmt.Fprintf(tw, "%s\t%.3f\t%.3f", name, c.All.RecallAtK(), c.All.HitAtK())
		for _, cat := range categoryNames {
			s := c.ByCategory[cat.n]
			fmt.Fprintf(tw, "\t%.3f / %.3f", s.RecallAtK(), s.HitAtK())
		}
		fmt.Fprintln(tw, "\t")
	}
	row("SearchRaw", &e.Raw)
	row("SearchRaw ±1 neighbours", &e.RawContext)
	row("SearchEvents", &e.Events)
	row("Ask (answer evidence)", &a.Channel)
	row("Ask seen (all rounds)", &e.AskSeen)
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "(per category: recall / hit; Ask's evidence is the answer's, not cut to k; Ask seen is every message it retrieved)\n")
	fmt.Fprintf(w, "card coverage: %s have an event card\n\n", run.coverage)

	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "conversation\tquestions\tSearchRaw\tRaw ±1\tSearchEvents\tAsk\tAsk seen\tfalse suff.\tabstain\ttemporal\tturns/suff.\t\n")
	for _, id := range e.Order {
		c := e.ByConversation[id]
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f (%d/%d)\t%.2f\t\n", id, c.Questions,
			c.Raw.All.RecallAtK(), c.RawContext.All.RecallAtK(), c.Events.All.RecallAtK(), c.Ask.All.RecallAtK(), c.AskSeen.All.RecallAtK(),
			c.Ask.FalseSufficientRate(), frac(c.Ask.Abstentions, c.Ask.Questions), c.Temporal.Accuracy(), c.Temporal.Correct, c.Temporal.Scored,
			c.MeanSufficientTurns())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w)

	fmt.Fprintf(w, "Ask (budget %d rounds, read-only)\n", rounds)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	var vs []string
	for _, name := range verdictNames(a.Verdicts) {
		vs = append(vs, fmt.Sprintf("%s %d", name, a.Verdicts[name]))
	}
	fmt.Fprintf(tw, "  verdicts\t%s\n", strings.Join(vs, ", "))
	fmt.Fprintf(tw, "  mean retrieval rounds\t%.2f\n", a.MeanRounds())
	fmt.Fprintf(tw, "  false sufficient\t%d of %d sufficient answers with gold evidence (%.3f)\n", a.FalseSufficient, a.SufficientScored, a.FalseSufficientRate())
	fmt.Fprintf(tw, "  abstentions\t%d of %d (%.3f)\n", a.Abstentions, a.Questions, frac(a.Abstentions, a.Questions))
	fmt.Fprintf(tw, "  evidence turns\t%.2f per sufficient answer\n", e.MeanSufficientTurns())
	fmt.Fprintf(tw, "  sufficient answers' recall\t%.3f\n", e.MeanSufficientRecall())
	if err := tw.Flush(); err != nil {
		return err
	}
	t := e.Temporal
	fmt.Fprintf(w, "\nTemporal (category 2, answer interval vs gold)\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  accuracy\t%.3f (%d of %d scored)\n", t.Accuracy(), t.Correct, t.Scored)
	fmt.Fprintf(tw, "  no resolved interval\t%d (counted wrong)\n", t.NoInterval)
	fmt.Fprintf(tw, "  gold not a date\t%d (excluded)\n", t.Unparsed)
	fmt.Fprintf(tw, "  no gold evidence\t%d (excluded)\n", t.NoEvidence)
	fmt.Fprintf(tw, "  duration answers\t%.3f (%d of %d scored; gold a length of time, any category)\n", e.Duration.Accuracy(), e.Duration.Correct, e.Duration.Scored)
	if err := tw.Flush(); err != nil {
		return err
	}
	if _, err := fmt.Fprintf(w, "\ningest %.2fs (incl. WaitIdle), questions %.2fs (%.1f ms each, 3 channels), total %.2fs\n",
		run.ingest.Seconds(), run.measure.Seconds(), 1e3*run.measure.Seconds()/float64(max(1, e.Questions)), run.total.Seconds()); err != nil {
		return err
	}
	return run.modelTable(w)
}

// modelTable prints the model use: per ingested turn, per question and by
// step.
func (run *locomoRun) modelTable(w io.Writer) error {
	gateName := "offline gate"
	if run.gateModel {
		gateName = "gate by " + run.model.Name()
	}
	fmt.Fprintf(w, "\nModel %s, %s\n", run.model.Name(), gateName)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  step\tcalls\tprompt tok\tcached\tcompletion tok\tmodel time\tper call\n")
	row := func(name string, u model.Usage) {
		per := time.Duration(0)
		if u.Calls > 0 {
			per = u.Latency / time.Duration(u.Calls)
		}
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%d\t%d\t%s\t%s\n", name, u.Calls, u.PromptTokens, u.CachedTokens, u.CompletionTokens,
			u.Latency.Round(time.Millisecond), per.Round(time.Microsecond))
	}
	var ingest model.Usage
	for _, k := range slices.Sorted(maps.Keys(run.usage)) {
		row(k, run.usage[k])
		ingest.Add(run.usage[k])
	}
	row("ask (all rounds)", run.eval.AskUsage)
	if err := tw.Flush(); err != nil {
		return err
	}
	turns, qs := float64(max(run.turns, 1)), float64(max(run.eval.Questions, 1))
	_, err := fmt.Fprintf(w, "  per ingested turn: %.2f calls, %.0f prompt + %.0f completion tokens; per question: %.2f calls, %.0f prompt + %.0f completion tokens\n",
		float64(ingest.Calls)/turns, float64(ingest.PromptTokens)/turns, float64(ingest.CompletionTokens)/turns,
		float64(run.eval.AskUsage.Calls)/qs, float64(run.eval.AskUsage.PromptTokens)/qs, float64(run.eval.AskUsage.CompletionTokens)/qs)
	return err
}
