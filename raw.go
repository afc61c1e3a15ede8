package stratagate

import (
	"context"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/layers"
)

// Query is a search request, shared by every search channel.
type Query struct {
	// Text is the query; terms are tokenized like stored text, with
	// Chinese–English synonyms added.
	Text string
	// Scopes a result may come from; empty means "global" only. A record
	// of any other scope is never returned.
	Scopes []string
	// Thread, if set, restricts results to that thread.
	Thread string
	// Limit is the number of results; 0 means the channel's default (10),
	// at most MaxLimit.
	Limit int
	// From and To bound the time of results (message time for SearchRaw);
	// zero values are unbounded.
	From, To time.Time
}

// Search limits.
const (
	DefaultLimit      = 10
	MaxLimit          = 200
	MaxQueryBytes     = 4096
	snippetRunes      = 160
	neighbourRunes    = 80
	keywordThread     = "thread:"
	keywordRole       = "role:"
	keywordSpeaker    = "speaker:"
	rawIndexName      = "raw"
	observationRawTag = "raw"
)

// Hit is one SearchRaw result: a compact view of an original message.
type Hit struct {
	MessageID uint64
	// BlockID is the block the message was sealed into; 0 while it is in
	// its thread's open tail.
	BlockID uint64
	Thread  string
	Speaker string
	Role    string
	// Snippet is a short window of the message around its best match.
	Snippet string
	At      time.Time
	Score   float64
	// Prev and Next are the neighbouring messages of the same thread.
	Prev, Next *Neighbour
}

// Neighbour is a message next to a hit, shortened.
type Neighbour struct {
	MessageID uint64
	Speaker   string
	Role      string
	Snippet   string
	At        time.Time
}

// Raw index scoring, measured on LoCoMo dev conversations (see
// docs/ARCHITECTURE.md, "SearchRaw ranking"). Conversational messages are
// short and their length says little about topicality, so the text field
// normalises length weakly (b 0.3 rather than BM25's customary 0.75: recall
// is better on every conversation measured, and flat from 0.2 to 0.4). The
// speaker's name is a field of its own, without length normalisation (a
// name's length says nothing), at half weight: a match on the speaker alone
// scores at most about two thirds of a topic word of the same rarity, so a
// question that names a person ranks that person's topical turns first and
// still ranks another person's topical turn above the person's off-topic
// ones, even in a group chat where the person is as rare as the topic.
const (
	rawTextB         = 0.3
	rawSpeakerWeight = 0.5
)

// Fields of the raw index, in Doc.Fields order. Field 0 stays the message
// text (Ask weighs question words by their document frequency there).
const (
	rawFieldText = iota
	rawFieldSpeaker
)

// rawFields are the raw index's fields.
func rawFields() []index.Field {
	return []index.Field{
		rawFieldText:    {Name: "text", B: rawTextB},
		rawFieldSpeaker: {Name: "speaker", Weight: rawSpeakerWeight, B: -1},
	}
}

func newRawIndex() *index.Index {
	return index.New(rawIndexName, rawFields(), index.Options{})
}

// messageTerms tokenizes a message's text for the raw index.
func messageTerms(m *Message) []string { return bm25.AppendTerms(nil, m.Content) }

// rawDoc is the raw index document of m: its text terms, its speaker's name
// tokenized like text (so that "what did Ana say" matches Ana's turns), and
// keywords for the thread, role and speaker filters.
func rawDoc(m *Message, scope string, terms []string) index.Doc {
	kws := []string{keywordThread + m.Thread, keywordRole + m.Role}
	var speaker []string
	if m.Speaker != "" {
		kws = append(kws, keywordSpeaker+strings.ToLower(m.Speaker))
		speaker = bm25.AppendTerms(nil, m.Speaker)
	}
	fields := make([][]string, 2)
	fields[rawFieldText], fields[rawFieldSpeaker] = terms, speaker
	return index.Doc{ID: m.ID, Scope: scope, Fields: fields, Keywords: kws, Start: m.At}
}

// checkQuery validates q and fills defaults.
func checkQuery(q *Query) error {
	if strings.TrimSpace(q.Text) == "" {
		return invalid(ErrEmpty, "query text is empty")
	}
	if len(q.Text) > MaxQueryBytes {
		return invalid(ErrTooLarge, "query is %d bytes, limit %d", len(q.Text), MaxQueryBytes)
	}
	if !utf8.ValidString(q.Text) {
		return invalid(ErrInvalidUTF8, "query text")
	}
	switch {
	case q.Limit == 0:
		q.Limit = DefaultLimit
	case q.Limit < 0 || q.Limit > MaxLimit:
		return invalid(ErrInvalidInput, "limit %d not in 1–%d", q.Limit, MaxLimit)
	}
	if len(q.Scopes) == 0 {
		q.Scopes = []string{layers.ScopeGlobal}
	}
	for _, s := range q.Scopes {
		if err := layers.ValidateScope(s); err != nil {
			return err
		}
	}
	if q.Thread != "" {
		if err := checkName("thread", q.Thread, true); err != nil {
			return err
		}
	}
	if !q.From.IsZero() && !q.To.IsZero() && q.To.Before(q.From) {
		return invalid(ErrInvalidInput, "time bounds: To %v before From %v", q.To, q.From)
	}
	return nil
}

// queryTerms tokenizes a query and adds synonym terms.
func queryTerms(text string) []string {
	base := bm25.AppendTerms(nil, text)
	var out []string
	for _, group := range bm25.ExpandQuery(base) {
		out = append(out, group...)
	}
	return out
}

// SearchRaw ranks original (L5) messages by BM25F over their text and
// their speaker's name (at a lower weight than the text), within
// the query's scopes and optional thread and time bounds. Every message is
// searchable from the moment Append returns, including the open tail. A
// query without lexical matches returns no hits. Each search is recorded
// as an Observation; it changes no weight.
func (m *Memory) SearchRaw(ctx context.Context, q Query) ([]Hit, error) {
	release, err := m.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	if err := checkQuery(&q); err != nil {
		return nil, err
	}
	terms := queryTerms(q.Text)
	var hits []Hit
	err = m.db.View(func(tx *bolt.Tx) error {
		iq := index.Query{Terms: terms, Scopes: q.Scopes, K: q.Limit, From: q.From, To: q.To}
		if iq.Pending, iq.PendingEnd, err = m.rawPending(tx); err != nil {
			return err
		}
		if q.Thread != "" {
			if _, ok, err := layers.GetThread(tx, q.Thread); err != nil {
				return err
			} else if !ok {
				return notFound("thread", fmt.Sprintf("%q", q.Thread))
			}
			iq.Keywords = []string{keywordThread + q.Thread}
		}
		res, err := m.raw.Search(tx, iq)
		if err != nil {
			return err
		}
		hits = make([]Hit, 0, len(res))
		match := termSet(terms)
		for _, r := range res {
			msg, err := layers.GetMessage(tx, r.ID)
			if err != nil {
				return danglingRef("raw index", "message", r.ID, err)
			}
			if msg.ID != r.ID {
				return misfiled("message", r.ID, msg.ID)
			}
			block, prev, next := layers.Locate(tx, msg.Thread, msg.ID)
			h := Hit{
				MessageID: msg.ID, BlockID: block, Thread: msg.Thread,
				Speaker: msg.Speaker, Role: msg.Role, At: msg.At, Score: r.Score,
				Snippet: snippet(msg.Content, match, snippetRunes),
			}
			if h.Prev, err = neighbour(tx, prev); err != nil {
				return err
			}
			if h.Next, err = neighbour(tx, next); err != nil {
				return err
			}
			hits = append(hits, h)
		}
		return nil
	})
	if err != nil {
		return nil, searchErr(err, q.Thread)
	}
	ids := make([]uint64, len(hits))
	for i, h := range hits {
		ids[i] = h.MessageID
	}
	m.observe(Observation{At: m.opts.Clock().UTC(), Channel: observationRawTag, Text: q.Text, Scopes: q.Scopes, Thread: q.Thread, Returned: ids})
	return hits, nil
}

func neighbour(tx *bolt.Tx, id uint64) (*Neighbour, error) {
	if id == 0 {
		return nil, nil
	}
	msg, err := layers.GetMessage(tx, id)
	if err != nil {
		return nil, err
	}
	return &Neighbour{MessageID: id, Speaker: msg.Speaker, Role: msg.Role, At: msg.At, Snippet: snippet(msg.Content, nil, neighbourRunes)}, nil
}

func termSet(terms []string) map[string]bool {
	s := make(map[string]bool, len(terms))
	for _, t := range terms {
		s[t] = true
	}
	return s
}

// snippet returns about maxRunes runes of content around the first word
// whose terms match, with "…" where it was cut; whitespace is collapsed.
func snippet(content string, match map[string]bool, maxRunes int) string {
	start := 0
	if len(match) > 0 {
		var buf []string
		i := 0
		for i < len(content) {
			r, n := utf8.DecodeRuneInString(content[i:])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				i += n
				continue
			}
			j := i
			for j < len(content) {
				r, n := utf8.DecodeRuneInString(content[j:])
				if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '.' {
					break
				}
				j += n
			}
			buf = bm25.AppendTerms(buf[:0], content[i:j])
			found := false
			for _, t := range buf {
				if match[t] {
					found = true
					break
				}
			}
			if found {
				start = i
				break
			}
			i = j
		}
	}
	// Back up about a quarter of the window for context.
	back := maxRunes / 4
	for back > 0 && start > 0 {
		_, n := utf8.DecodeLastRuneInString(content[:start])
		start -= n
		back--
	}
	// Collapse whitespace while copying at most maxRunes runes (what
	// strings.Join(strings.Fields(content[start:]), " ") cut to maxRunes
	// runes would give, without touching the rest of a long message).
	var b strings.Builder
	b.Grow(min(len(content)-start, 4*maxRunes) + 2*len("…"))
	if start > 0 {
		b.WriteString("…")
	}
	n, space := 0, false
	for _, r := range content[start:] {
		if unicode.IsSpace(r) {
			space = n > 0
			continue
		}
		if space {
			if n == maxRunes {
				b.WriteString("…")
				return b.String()
			}
			b.WriteByte(' ')
			n++
			space = false
		}
		if n == maxRunes {
			b.WriteString("…")
			return b.String()
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}
