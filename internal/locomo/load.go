package locomo

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Conversation is one LoCoMo conversation: two speakers, dated sessions of
// turns, and questions with gold answers.
type Conversation struct {
	ID       string // sample_id, e.g. "conv-26"
	SpeakerA string
	SpeakerB string
	Sessions []Session // by N, ascending
	QA       []QA
}

// Session is one dated session. Sessions with a date but no turns are kept.
type Session struct {
	N     int
	Date  time.Time // UTC: the data carries no zone
	Turns []Turn
}

// Turn is one dia_id turn: one StrataGate message.
type Turn struct {
	DiaID       string
	Speaker     string
	Text        string
	BlipCaption string    // non-empty for image turns
	At          time.Time // the session's Date + the turn's index in seconds
}

// QA is one question with its gold answer.
type QA struct {
	Question string
	// Answer is the gold answer as text; a numeric answer is its decimal
	// text, a missing or null one "".
	Answer string
	// AdversarialAnswer is set on some category-5 questions.
	AdversarialAnswer string
	// Evidence is the normalised evidence dia_ids that name turns of the
	// conversation (NormalizeEvidence); RawEvidence is the list as written;
	// Unresolved holds what did not normalise to a known dia_id.
	Evidence    []string
	RawEvidence []string
	// Category: 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop,
	// 5 adversarial.
	Category   int
	Unresolved []string
}

// Question categories.
const (
	CategoryMultiHop    = 1
	CategoryTemporal    = 2
	CategoryOpenDomain  = 3
	CategorySingleHop   = 4
	CategoryAdversarial = 5
)

type rawConversation struct {
	SampleID     string                     `json:"sample_id"`
	Conversation map[string]json.RawMessage `json:"conversation"`
	QA           []rawQA                    `json:"qa"`
}

type rawTurn struct {
	Speaker     string `json:"speaker"`
	DiaID       string `json:"dia_id"`
	Text        string `json:"text"`
	BlipCaption string `json:"blip_caption"`
}

type rawQA struct {
	Question          string          `json:"question"`
	Answer            json.RawMessage `json:"answer"`
	AdversarialAnswer json.RawMessage `json:"adversarial_answer"`
	Evidence          []string        `json:"evidence"`
	Category          int             `json:"category"`
}

var (
	sessionKey = regexp.MustCompile(`^session_(\d+)$`)
	dateKey    = regexp.MustCompile(`^session_(\d+)_date_time$`)
)

// Load reads the LoCoMo JSON file at path: a list of conversations.
func Load(path string) ([]Conversation, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("locomo: %w", err)
	}
	convs, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("locomo: %s: %w", path, err)
	}
	return convs, nil
}

// Decode decodes LoCoMo JSON (see Load).
func Decode(data []byte) ([]Conversation, error) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '[' {
		return nil, errors.New("want a JSON list of conversations")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	var raws []rawConversation
	if err := dec.Decode(&raws); err != nil {
		return nil, fmt.Errorf("malformed JSON: %w", err)
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("malformed JSON: data after the list")
	}
	out := make([]Conversation, 0, len(raws))
	for k, rc := range raws {
		c, err := rc.convert(k)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

func (rc *rawConversation) convert(k int) (Conversation, error) {
	c := Conversation{ID: rc.SampleID}
	if c.ID == "" {
		c.ID = fmt.Sprintf("conv-%d", k+1)
	}
	fail := func(format string, a ...any) (Conversation, error) {
		return Conversation{}, fmt.Errorf("conversation %s: %s", c.ID, fmt.Sprintf(format, a...))
	}
	if rc.Conversation == nil {
		return fail(`no "conversation" object`)
	}
	for key, dst := range map[string]*string{"speaker_a": &c.SpeakerA, "speaker_b": &c.SpeakerB} {
		if v, ok := rc.Conversation[key]; ok {
			if err := json.Unmarshal(v, dst); err != nil {
				return fail("%s: %v", key, err)
			}
		}
	}
	turns := map[int][]rawTurn{}
	dates := map[int]string{}
	for key, v := range rc.Conversation {
		if m := sessionKey.FindStringSubmatch(key); m != nil {
			n, _ := strconv.Atoi(m[1])
			var ts []rawTurn
			if err := json.Unmarshal(v, &ts); err != nil {
				return fail("%s: %v", key, err)
			}
			turns[n] = ts
		} else if m := dateKey.FindStringSubmatch(key); m != nil {
			n, _ := strconv.Atoi(m[1])
			var s string
			if err := json.Unmarshal(v, &s); err != nil {
				return fail("%s: %v", key, err)
			}
			dates[n] = s
		}
	}
	ns := make([]int, 0, len(dates))
	for n := range dates {
		ns = append(ns, n)
	}
	for n, ts := range turns {
		if _, ok := dates[n]; !ok && len(ts) > 0 {
			return fail("session_%d has %d turns but no session_%d_date_time", n, len(ts), n)
		}
	}
	slices.Sort(ns)
	known := map[string]bool{}
	for _, n := range ns {
		date, err := ParseDateTime(dates[n])
		if err != nil {
			return fail("session_%d_date_time: %v", n, err)
		}
		s := Session{N: n, Date: date}
		for i, rt := range turns[n] {
			dia, _ := normalizeID(rt.DiaID)
			if dia == "" {
				return fail("session_%d turn %d has no dia_id", n, i)
			}
			s.Turns = append(s.Turns, Turn{
				DiaID: dia, Speaker: rt.Speaker, Text: rt.Text,
				BlipCaption: rt.BlipCaption, At: date.Add(time.Duration(i) * time.Second),
			})
			known[dia] = true
		}
		c.Sessions = append(c.Sessions, s)
	}
	for i, rq := range rc.QA {
		q := QA{Question: rq.Question, Category: rq.Category, RawEvidence: rq.Evidence}
		var err error
		if q.Answer, err = answerText(rq.Answer); err != nil {
			return fail("qa %d: answer: %v", i, err)
		}
		if q.AdversarialAnswer, err = answerText(rq.AdversarialAnswer); err != nil {
			return fail("qa %d: adversarial_answer: %v", i, err)
		}
		q.Evidence, q.Unresolved = NormalizeEvidence(rq.Evidence, known)
		c.QA = append(c.QA, q)
	}
	return c, nil
}

// answerText returns a string answer as is and a number as its text.
func answerText(v json.RawMessage) (string, error) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || string(v) == "null" {
		return "", nil
	}
	switch v[0] {
	case '"':
		var s string
		err := json.Unmarshal(v, &s)
		return s, err
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		var n json.Number
		if err := json.Unmarshal(v, &n); err != nil {
			return "", err
		}
		return n.String(), nil
	}
	return "", fmt.Errorf("want a string or a number, got %.20s", v)
}

var dateLayouts = []string{
	"3:04 pm on 2 January, 2006",
	"3:04 pm on 2 January 2006",
	"3:04 pm on January 2, 2006",
	"3:04 pm on January 2 2006",
	"3:04pm on 2 January, 2006",
	"3:04pm on January 2, 2006",
}

// ParseDateTime parses a session date such as "1:56 pm on 8 May, 2023"
// (case and spacing are free; "May 8, 2023" is accepted too). The data
// carries no zone: the result is UTC.
func ParseDateTime(s string) (time.Time, error) {
	norm := strings.ToLower(strings.Join(strings.Fields(s), " "))
	for _, l := range dateLayouts {
		if t, err := time.ParseInLocation(l, norm, time.UTC); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("cannot parse date %q (want like \"1:56 pm on 8 May, 2023\")", s)
}

// DiaIDs returns the set of the conversation's dia_ids.
func (c *Conversation) DiaIDs() map[string]bool {
	known := map[string]bool{}
	for _, s := range c.Sessions {
		for _, t := range s.Turns {
			known[t.DiaID] = true
		}
	}
	return known
}

// Locate returns the session and turn holding dia_id.
func (c *Conversation) Locate(diaID string) (*Session, *Turn, bool) {
	for i := range c.Sessions {
		s := &c.Sessions[i]
		for j := range s.Turns {
			if s.Turns[j].DiaID == diaID {
				return s, &s.Turns[j], true
			}
		}
	}
	return nil, nil, false
}

// TurnCount returns the number of dia_id turns over all sessions.
func (c *Conversation) TurnCount() int {
	n := 0
	for _, s := range c.Sessions {
		n += len(s.Turns)
	}
	return n
}
