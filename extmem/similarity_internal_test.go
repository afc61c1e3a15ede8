package extmem

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestMarkers(t *testing.T) {
	tests := []struct {
		text                     string
		change, ending, negation bool
	}{
		{"I use Vim for everything.", false, false, false},
		{"I now use Helix.", true, false, false},
		{"She switched to tea instead of coffee.", true, false, false},
		{"We moved the review to Friday.", true, false, false},
		{"I no longer drink coffee.", true, true, false},
		{"I don't play chess anymore.", true, true, true},
		{"He used to live by the sea.", true, true, false},
		{"They stopped the subscription.", true, true, false},
		{"I do not eat mushrooms.", false, false, true},
		{"I never fly.", false, false, true},
		{"She doesn’t like loud bars.", false, false, true},     // typographic apostrophe
		{"Nowhere is the knowledge lost.", false, false, false}, // whole words only
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			change, ending, negated := markers(words(tt.text))
			assert.Equal(t, tt.change, change, "change")
			assert.Equal(t, tt.ending, ending, "ending")
			assert.Equal(t, tt.negation, negated, "negation")
		})
	}
}

func TestTermSetDropsNarration(t *testing.T) {
	// An exporter writes "the user" everywhere: two memories that share
	// only that share no subject.
	a := termSet("The user is allergic to peanuts.")
	b := termSet("The user moved the planning call to Thursday.")
	assert.Zero(t, shared(a, b))
	assert.True(t, a["peanut"], "stemmed like the index")
}

func TestPrivateSkipsMarkers(t *testing.T) {
	// "no longer" is not a new value: what the candidate holds beyond the
	// card is only the marker.
	c := termSet("I no longer eat meat.")
	e := termSet("I eat meat.")
	assert.Zero(t, private(c, e))
	assert.Equal(t, 1, private(termSet("I eat meat and fish."), e))
}

func TestTypeAgreement(t *testing.T) {
	tests := []struct {
		name string
		kind Kind
		ct   string
		et   string
		want int
	}{
		{"same type", KindEvent, "plan", "plan", agree},
		{"preference and preference event", KindPreference, "", "preference", agree},
		{"preference and a one-off meeting", KindPreference, "", "meeting", disagree},
		{"preference and a decision", KindPreference, "", "decision", neutral},
		{"event and a plain fact", KindEvent, "", "fact", disagree},
		{"event and another event type", KindEvent, "change", "plan", agree},
		{"event and a preference", KindEvent, "", "preference", neutral},
		{"fact and fact", KindFact, "", "fact", agree},
		{"instruction says nothing", KindInstruction, "", "decision", neutral},
		{"untyped existing", KindPreference, "", "", neutral},
		{"other says nothing", KindEvent, "", "other", neutral},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &Candidate{Kind: tt.kind, Temporal: Temporal{EventType: tt.ct}}
			assert.Equal(t, tt.want, typeAgreement(c, &Existing{EventType: tt.et}))
		})
	}
}

func TestPeopleAgreement(t *testing.T) {
	assert.Equal(t, agree, peopleAgreement([]string{"Noor", "ilse"}, []string{" ILSE "}), "case-folded, trimmed")
	assert.Equal(t, disagree, peopleAgreement([]string{"Noor"}, []string{"Ilse"}))
	assert.Equal(t, neutral, peopleAgreement(nil, []string{"Ilse"}))
	assert.Equal(t, neutral, peopleAgreement([]string{"Noor"}, nil))
}

func TestTimeAgreementAndOrder(t *testing.T) {
	d := func(m time.Month, day int) time.Time { return time.Date(2024, m, day, 0, 0, 0, 0, time.UTC) }
	may, mok := happenedInterval(d(5, 1), d(6, 1))
	may10, dok := happenedInterval(d(5, 10), time.Time{}) // an instant
	june, jok := happenedInterval(d(6, 1), d(7, 1))
	_, none := happenedInterval(time.Time{}, d(7, 1))
	assert.False(t, none, "no start, no interval")
	assert.Equal(t, agree, timeAgreement(may, may10, mok, dok), "an instant inside the month")
	assert.Equal(t, disagree, timeAgreement(may, june, mok, jok), "[start, end): May ends where June starts")
	assert.Equal(t, neutral, timeAgreement(may, june, mok, false))

	c := &Candidate{Temporal: Temporal{MentionedAt: d(6, 2)}}
	e := &Existing{MentionedAt: d(6, 1)}
	assert.True(t, newer(c, e, june, may, jok, mok), "mentioned later")
	e.MentionedAt = d(6, 3)
	assert.False(t, newer(c, e, june, may, jok, mok), "mention order wins over happened order")
	e.MentionedAt = time.Time{}
	assert.True(t, newer(c, e, june, may, jok, mok), "no mention order: happening after")
	assert.False(t, newer(c, e, may, june, mok, jok), "happening before")
	assert.False(t, newer(c, e, may, may10, mok, dok), "overlapping")
}

func TestOneLine(t *testing.T) {
	assert.Equal(t, "two lines become one", reasonLine("  two lines\n\tbecome   one \n"))
	assert.Equal(t, "bad \uFFFD byte", reasonLine("bad \xff byte"))
	assert.Equal(t, "nocontrol", reasonLine("no\x00control"))
	long := reasonLine(strings.Repeat("ab ", 150))
	assert.LessOrEqual(t, len([]rune(long)), MaxReasonRunes)
	assert.NotEqual(t, ' ', rune(long[len(long)-1]), "no trailing space")
}
