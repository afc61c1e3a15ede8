package gate

import (
	"strings"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/events/temporal"
)

// An answer says something the question does not. Evidence that only
// restates the question's premise ("Why did Sam run again?" — "I decided
// to run again!") is relevant and not sufficient: the slot the question
// asks to fill is empty. Three checks, by the shape of the question:
//
//   - why-questions and questions asking what caused something (inspire,
//     motivate, cause, lead, reason): the answering sentence holds a
//     cause cue (because, since, so, after, inspired, thanks to…);
//   - questions about a feeling (feel, felt): it holds a feeling word;
//   - other what/which/how questions: it holds a content
//     word that is not the question's (its terms and their expansions,
//     entities, the speaker's name, time expressions, generic verbs).

// causeQuestionTerms in a what-question ask for a cause ("What inspired
// Sam to…", "What motivated…", "What led Sam to…").
var causeQuestionTerms = termSet("inspire", "inspired", "motivate", "motivated", "cause", "caused", "lead", "led",
	"reason", "prompted", "prompt", "drove", "drive")

// causeCues mark a reason in the answer.
var causeCues = wordSet("because", "cause", "since", "so", "after", "reason", "reasons", "inspired", "inspiring",
	"inspiration", "inspires", "motivated", "motivation", "motivates", "thanks", "due", "realized", "realised",
	"influenced", "passion", "passionate", "wanted", "respect", "why")

// fillerWords carry no content in chat ("Yeah, we had a picnic"): they
// are no new word of an answer.
var fillerWords = termSet("yeah", "yes", "yep", "yup", "nope", "oh", "wow", "hey", "hi", "hello", "thanks",
	"thank", "lol", "haha", "ok", "okay", "sure", "really", "totally", "definitely", "actually", "just",
	"well", "guess", "anyway", "btw", "omg", "aw", "aww", "cool", "nice", "great", "awesome", "amazing")

// feelingTerms in a question ask for a feeling.
var feelingTerms = termSet("feel", "felt", "feeling", "feelings")

// feelingWords name feelings.
var feelingWords = wordSet("happy", "happier", "glad", "excited", "exciting", "thrilled", "stoked", "proud",
	"grateful", "thankful", "blessed", "nervous", "anxious", "scared", "afraid", "worried", "sad", "upset",
	"angry", "frustrated", "awe", "amazed", "amazing", "inspired", "relieved", "calm", "peaceful", "relaxed",
	"overwhelmed", "lonely", "hopeful", "confident", "emotional", "joy", "joyful", "fulfilled", "rewarding",
	"free", "freedom", "tiny", "alive", "great", "awesome", "fantastic", "wonderful", "incredible", "terrible",
	"awful", "good", "bad", "connected", "empowered", "empowering", "powerful", "special", "love", "loved",
	"appreciated", "appreciate", "supported", "comfortable", "uncomfortable", "stressed", "stressful",
	"content", "satisfied", "satisfying", "moved", "touched", "humbled", "humbling", "nostalgic", "bittersweet")

// answersQuestion reports whether some member of a window fills the
// question's slot (see above). Time, list, yes/no, who, where and count
// questions have their own checks and pass here.
func answersQuestion(q *Question, members []*Item) bool {
	switch q.WH {
	case WhWhat, WhWhich, WhWhy, WhOther:
	default:
		return true
	}
	if q.WantsTime || q.WantsList || len(q.Terms) == 0 {
		return true
	}
	qterms := mentionSet(q)
	cause := q.WH == WhWhy
	feeling := false
	for _, t := range q.Terms {
		cause = cause || causeQuestionTerms[t]
		feeling = feeling || feelingTerms[t]
	}
	for _, m := range members {
		for _, sent := range answerSentences(q, m) {
			terms := sentenceTerms(sent)
			switch {
			case cause:
				if anyWord(sent, causeCues) {
					return true
				}
			case feeling:
				if anyWord(sent, feelingWords) {
					return true
				}
			default:
				speaker := termSetOf(m.Speaker)
				novel := 0
				for _, t := range terms {
					if !qterms[t] && !speaker[t] && !weakTerms[t] && !fillerWords[t] {
						novel++
					}
				}
				if novel >= 1 {
					return true
				}
			}
		}
	}
	return false
}

// answerSentences are the sentences of a member that cover a question
// term (all of its text when none does): where its answer would be.
func answerSentences(q *Question, m *Item) []string {
	text := m.Text
	if !isMessageLike(m) && m.Quote != "" {
		text = m.Quote
	}
	if text == "" {
		text = m.Title
	}
	var out []string
	for _, u := range splitUnits(text, isDateUnitEnd) {
		if itemCover(q, &Item{Text: u}) > 0 || entityCover(q, &Item{Text: u}) > 0 {
			out = append(out, u)
		}
	}
	if len(out) == 0 {
		out = []string{text}
	}
	return out
}

// sentenceTerms are the canonical terms of a sentence without its time
// expressions and vocatives.
func sentenceTerms(s string) []string {
	b := []byte(stripVocatives(s))
	for _, m := range temporal.Find(string(b), timeZero) {
		for i := m.Offset; i < m.Offset+m.Length && i < len(b); i++ {
			b[i] = ' '
		}
	}
	var out []string
	for _, t := range bm25.AppendTerms(nil, string(b)) {
		out = append(out, canon(t))
	}
	return out
}

func termSetOf(s string) map[string]bool {
	m := map[string]bool{}
	for _, t := range bm25.AppendTerms(nil, strings.TrimSpace(s)) {
		m[canon(t)] = true
	}
	return m
}

// anyWord reports whether a word of text (its lower-case key) is in set.
func anyWord(text string, set map[string]bool) bool {
	for _, w := range scanWords(text) {
		if set[w.key] {
			return true
		}
	}
	return false
}
