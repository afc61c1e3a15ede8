package heuristic

import "github.com/stratagate/stratagate/model"

// Extraction limits. They are at or below the events package's limits, so
// no input can push a card past them.
const (
	maxEvents            = 48  // cards per block
	maxEventTitleRunes   = 80  // events allow 120
	maxEventSummaryRunes = 300 // events allow 600
	maxQuoteRunes        = 500
	maxEventTags         = 5 // events allow 8
	maxNames             = 12
	maxNameRunes         = 64
	maxLinks             = 8   // conflicts_with ids
	maxMsgSentences      = 256 // sentences read per message
	maxGroupTokens       = 4   // words in one capitalised name
	minSupersedeShared   = 2   // shared match keys a supersede needs
	notButWindow         = 6   // "not X but Y": "but" within this many words
	defaultEventTitle    = "Event"
)

// Ranking weights when a block has more than maxEvents candidates.
const (
	weightDecision = 4 // decision or correction cue
	weightTime     = 2 // a temporal expression
	weightTyped    = 1 // a cue with an event type
	weightCritical = 1 // criticality other than routine
)

// cueTok is one word of a sentence as the cue matcher sees it: letters,
// digits and marks, with apostrophes between letters kept ("we'll").
type cueTok struct {
	lower      string // lower-cased, ’ read as '
	start, end int    // byte span in the sentence
}

// nameTok is one word of the derive tokenizer with its byte span.
type nameTok struct {
	text       string
	start, end int
}

// analysis is what the cue matcher found in one sentence.
type analysis struct {
	typ       string  // winning event type, "" if no typed cue
	typePos   int     // cue token index of the first typed cue, -1 if none
	flags     cueFlag // union of all cue flags
	lemma     string  // preference verb of the first lemma cue
	object    string  // first match key after that cue
	firstPers bool    // a first-person word occurs
	shiftEnd  int     // byte offset after a matched date-shift cue, -1 if none
}

// candidate is one sentence that becomes an event card.
type candidate struct {
	msg      int    // index into ExtractInput.Messages
	order    int    // position among all candidates, for stable output
	quote    string // verbatim sentence (prefix), trimmed
	head     int    // bytes of a restating head ("Decision recorded: ")
	restate  bool   // an assistant restatement
	plain    bool   // a statement without a cue (see extract_statements.go)
	an       analysis
	timeText string
	status   string
	subject  string // person the statement is about, "" if unknown
	people   []string
	entities []string
	keys     []string // sorted distinct match keys
	hasTime  bool
	fold     string // dedupe key
	score    int
}

// extractor holds the working state of one extraction; it lives on the
// stack of extract, so concurrent calls share nothing.
type extractor struct {
	in          *model.ExtractInput
	personWords map[string]bool // lower-case words of known person names
	personFirst map[string]bool // lower-case full names and first words
	known       map[string]bool // lower-case words seen capitalised mid-sentence
	cues        []cueTok
	words       []nameTok
	times       []timeSpan
	lower       []byte
	exKeys      [][]string // match keys of existing events, by index
}

// extract applies the extraction rules to in. It never fails.
func extract(in *model.ExtractInput) model.ExtractOutput {
	out := model.ExtractOutput{Events: []model.ExtractedEvent{}}
	if len(in.Messages) == 0 {
		return out
	}
	x := &extractor{
		in:          in,
		personWords: make(map[string]bool),
		personFirst: make(map[string]bool),
		known:       make(map[string]bool),
	}
	x.learnNames()
	cands := x.candidates()
	cands = x.dedupe(cands)
	cands = capCandidates(cands)
	for i := range cands {
		out.Events = append(out.Events, x.event(&cands[i]))
	}
	return out
}
