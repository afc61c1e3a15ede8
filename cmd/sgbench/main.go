// Command sgbench profiles StrataGate's ingest and retrieval on a
// deterministic synthetic conversation, and measures evidence recall on
// the LoCoMo benchmark.
//
//	sgbench synth  -turns N -out FILE [-seed S] [-nosync]
//	sgbench ingest -turns N [-sync] [-writers W]
//	sgbench search -db FILE -queries Q [-channel raw|events|graph] [-k 10] [-seed S]
//	sgbench locomo -data FILE [-k 10] [-rounds R] [-details FILE]
//
// Every command also takes -json (one JSON object on stdout instead of the
// table), -cpuprofile FILE and -memprofile FILE (runtime/pprof; the CPU
// profile covers the measured work, the heap profile is written at the
// end), and -progress DURATION (progress lines on stderr, default 2s, 0
// for none).
//
// synth writes a conversation of N turns through the public API (Open,
// Append, WaitIdle): about 200 recurring people, 20 threads over the
// scopes global, project:NAME and session:ID, dated sessions whose
// messages carry their thread's UTC offset, pseudo-words from a Zipf
// (s = 1.1) vocabulary of 30,000 words mixed with English templates that
// name people, relative times ("yesterday", "two weeks ago", "next
// month"), decisions and preference changes, so that blocks and event
// cards are derived. The same seed gives the same file content.
//
// ingest appends the same conversation into a temporary file and reports
// turns per second including WaitIdle (sealing, L0–L2 derivation and event
// extraction), the latency of all Appends and of the sealing ones (those
// whose TurnRef.SealedBlockID is set). It runs without fsync unless -sync.
//
// search samples a deterministic query set from the file's messages
// (common and rare words, people's names, time phrases, short phrases;
// 1–5 words), runs each query once to warm up, then measures Q queries on
// one channel (-channel raw: SearchRaw, events: SearchEvents, graph:
// SearchGraphNodes): latency percentiles, allocations and bytes per query,
// results per query.
// It opens the file for writing (a writer elsewhere makes it fail with
// ErrLocked), and every search appends an observation to the file's
// retrievals log, as every StrataGate search does (the log writer runs in
// the background and is part of what is measured); -readonly opens the
// file read-only, which records nothing.
//
// locomo reads a LoCoMo JSON file (a list of conversations, e.g.
// ../shared/locomo/locomo-dev.json; its licence is non-commercial, so it
// is read at run time and never copied) and ingests each conversation into
// a fresh temporary file (removed at the end) with NoSync, by the
// internal/locomo protocol: one thread per conversation in scope global,
// one message per dia_id turn at its session's date plus its index in
// seconds, image turns with " [image: caption]", turns of two messages
// that a session boundary always ends, message ids mapped back to
// dia_ids. It waits for the blocks and event cards (WaitIdle), then
// reopens the file read-only, so that Ask records no memory use and no
// question changes the weights the next one sees. Each store's clock is
// fixed at the day after the conversation's last turn, so that time words
// in questions ("camping in June") resolve as if asked after the
// conversation, whatever day sgbench runs.
//
// Every question of categories 1–4 is measured (category 5, adversarial,
// is skipped and counted). Its gold evidence is its evidence ids,
// normalised by locomo.NormalizeEvidence ("D8:6; D9:17" is two ids,
// "D30:05" is D30:5) and kept when they name a turn; the others are
// counted in unresolved_evidence. For each channel the evidence of a
// question is a set of dia_ids:
//
//   - raw: the messages (Hit.MessageID) of the top k SearchRaw hits for
//     the question text (plain BM25, Limit k);
//   - events: the union of the SourceMessageIDs of the top k SearchEvents
//     hits (Limit k);
//   - ask: the union of the MessageIDs of the final Answer.Evidence of Ask
//     (AskOptions.MaxRounds -rounds, 0 = Ask's default); an item with an
//     EventID and no MessageIDs counts its card's source messages
//     (ExpandEvent). It is the evidence the answer used, not cut to k;
//     a not-sufficient answer has none.
//
// recall@k of a question = |gold ∩ evidence| / |gold|, hit@k = 1 when the
// intersection is not empty. A question without gold evidence is not
// scored (questions_no_gold). Figures are means over the scored questions,
// overall and per category ("by_category": "1" multi-hop, "2" temporal,
// "3" open-domain, "4" single-hop, with n the scored questions).
//
// For Ask: verdicts counts Answer.Verdict (Ask gives partial for every
// loop that never reached sufficient, so wrong stays 0 unless it changes);
// mean_rounds is the mean len(Answer.Trace), one step per retrieval
// round; false_sufficient_rate = sufficient answers (to scored questions)
// whose evidence holds no gold turn / sufficient answers to scored
// questions; abstentions counts the answers that are not sufficient (Ask
// then answers "not enough evidence: missing …" with no evidence), and
// abstention_rate divides them by the questions.
//
// temporal scores the answers to category-2 questions whose gold answer
// is a date: locomo.ParseGold with the date of the session holding the
// first gold evidence turn as reference (as locomo.MeasureEventTime).
// Unparsed gold answers (durations, "a few weeks ago") are counted in
// unparsed and left out, as are questions without gold evidence
// (no_evidence). The answer's interval is that of the first item of
// Answer.Evidence with a known happened start and a precision other than
// "unknown" (the item the answer text is dated from); a missing end makes
// it an instant. It is correct when it overlaps the gold interval [start,
// end) and is no longer than it (no coarser: a week for a day is wrong, a
// day within a gold month is right); an answer with no such item is wrong
// (no_interval). accuracy = correct / scored.
//
// -details FILE writes one JSON line per measured question: the gold
// evidence, the dia_ids each channel returned, the recalls, the verdict,
// the answer and the temporal scoring. Rates are fractions in [0, 1]. The
// JSON object holds questions, k, raw, events, ask, temporal,
// unresolved_evidence, then counts (conversations, messages, blocks,
// cards, jobs_failed) and times (ingest_s, measure_s, elapsed_s).
//
// Exit status: 0 success, 1 failure, 2 bad usage.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"time"
)

const (
	exitOK    = 0
	exitFail  = 1
	exitUsage = 2
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// command is one sgbench subcommand.
type command struct {
	name     string
	synopsis string
	summary  string
	// define registers the command's flags on fs and returns the function
	// that runs it once they are parsed.
	define func(fs *flag.FlagSet) func(ctx context.Context, o *common) (report, error)
}

func commands() []*command {
	return []*command{synthCommand, ingestCommand, searchCommand, locomoCommand}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: sgbench COMMAND [flags]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-7s %s\n          %s\n", c.name, c.synopsis, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Every command takes -json, -cpuprofile FILE, -memprofile FILE and -progress DURATION.")
	fmt.Fprintln(w, "Run 'sgbench COMMAND -h' for its flags.")
}

// run executes one sgbench invocation and returns its exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		usage(stdout)
		return exitOK
	}
	var cmd *command
	for _, c := range commands() {
		if c.name == args[0] {
			cmd = c
		}
	}
	if cmd == nil {
		fmt.Fprintf(stderr, "sgbench: unknown command %q\n\n", args[0])
		usage(stderr)
		return exitUsage
	}
	fs := flag.NewFlagSet("sgbench "+cmd.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: sgbench %s %s\n  %s\n\nflags:\n", cmd.name, cmd.synopsis, cmd.summary)
		fs.PrintDefaults()
	}
	o := &common{stderr: stderr}
	o.register(fs)
	exec := cmd.define(fs)
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "sgbench %s: unexpected argument %q\n", cmd.name, fs.Arg(0))
		fs.Usage()
		return exitUsage
	}
	rep, err := exec(ctx, o)
	if err != nil {
		fmt.Fprintf(stderr, "sgbench %s: %v\n", cmd.name, err)
		var ue usageError
		if errors.As(err, &ue) {
			fs.Usage()
			return exitUsage
		}
		return exitFail
	}
	write := func(w io.Writer) error { return rep.write(w, o.json) }
	if o.table != nil && !o.json {
		write = o.table
	}
	if err := write(stdout); err != nil {
		fmt.Fprintf(stderr, "sgbench %s: %v\n", cmd.name, err)
		return exitFail
	}
	return exitOK
}

// usageError is a flag combination the command refuses (exit 2).
type usageError string

func (e usageError) Error() string { return string(e) }

// common holds the flags every command takes.
type common struct {
	json       bool
	cpuprofile string
	memprofile string
	progress   time.Duration
	stderr     io.Writer
	// table, if a command sets it, prints the readable result instead of
	// the report's two-column table.
	table func(io.Writer) error

	cpuFile *os.File
}

func (o *common) register(fs *flag.FlagSet) {
	fs.BoolVar(&o.json, "json", false, "print the result as one JSON object")
	fs.StringVar(&o.cpuprofile, "cpuprofile", "", "write a CPU profile of the measured work to `FILE`")
	fs.StringVar(&o.memprofile, "memprofile", "", "write a heap profile to `FILE` at the end")
	fs.DurationVar(&o.progress, "progress", 2*time.Second, "interval of progress lines on stderr (0: none)")
}

// startProfile starts the CPU profile, if asked for.
func (o *common) startProfile() error {
	if o.cpuprofile == "" {
		return nil
	}
	f, err := os.Create(o.cpuprofile)
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return err
	}
	o.cpuFile = f
	return nil
}

// stopProfile stops the CPU profile and writes the heap profile, if asked
// for. It is safe to call more than once.
func (o *common) stopProfile() error {
	var errs []error
	if o.cpuFile != nil {
		pprof.StopCPUProfile()
		errs = append(errs, o.cpuFile.Close())
		o.cpuFile = nil
	}
	if o.memprofile != "" {
		f, err := os.Create(o.memprofile)
		if err != nil {
			errs = append(errs, err)
		} else {
			runtime.GC()
			errs = append(errs, pprof.WriteHeapProfile(f), f.Close())
		}
		o.memprofile = ""
	}
	return errors.Join(errs...)
}

// fileSize is the size of path, or 0 if it cannot be read.
func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}
