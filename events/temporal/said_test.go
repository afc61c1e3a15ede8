package temporal_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/events/temporal"
)

// ref3May is Wednesday 3 May 2023, 18:20 UTC.
var ref3May = hm(2023, 5, 3, 18, 20)

// TestFindMessageDated: a report with a cue of immediacy is dated by the
// message itself. "just" + a past verb gives the message's day with Basis
// said; the deictic words (today, right now, this week) are relative.
func TestFindMessageDated(t *testing.T) {
	may3, may4 := d(2023, 5, 3), d(2023, 5, 4)
	bS := temporal.BasisSaid
	for _, tc := range []struct {
		text       string
		match      string
		start, end time.Time
		prec       temporal.Precision
		basis      temporal.Basis
	}{
		// "just" + regular past.
		{"I just opened my bakery!", "just opened", may3, may4, pD, bS},
		{"We've just finished painting the kitchen.", "just finished", may3, may4, pD, bS},
		{"Just adopted a kitten from the shelter", "Just adopted", may3, may4, pD, bS},
		{"I just started a pottery class and I love it.", "just started", may3, may4, pD, bS},
		{"She has just signed the lease.", "just signed", may3, may4, pD, bS},
		{"My brother's just moved to the coast.", "just moved", may3, may4, pD, bS}, // 's = has
		{"JUST FINISHED MY FIRST MARATHON", "JUST FINISHED", may3, may4, pD, bS},
		// "just" + irregular past or participle.
		{"I just got back from the lake.", "just got", may3, may4, pD, bS},
		{"We just went to the new museum downtown.", "just went", may3, may4, pD, bS},
		{"I've just been promoted to team lead.", "just been", may3, may4, pD, bS},
		{"They just won the regional final.", "just won", may3, may4, pD, bS},
		{"I just had my first driving lesson.", "just had", may3, may4, pD, bS},
		{"I just did my first open mic.", "just did", may3, may4, pD, bS},
		{"I just made a cake for the neighbours.", "just made", may3, may4, pD, bS},
		{"She just showed me her new studio.", "just showed", may3, may4, pD, bS},
		// Deictic words: the message's day or week, relative.
		{"I baked bread today.", "today", may3, may4, pD, bR},
		{"We're going out tonight.", "tonight", may3, may4, pD, bR},
		{"I ran five miles this morning.", "this morning", may3, may4, pD, bR},
		{"I'm at the vet right now with my dog.", "right now", may3, may4, pD, bR},
		{"I saw your note just now.", "just now", may3, may4, pD, bR},
		{"My sister called a moment ago.", "a moment ago", may3, may4, pD, bR},
		{"So far today I have written two pages.", "So far today", may3, may4, pD, bR},
		{"I've read three books so far this month.", "so far this month", d(2023, 5, 1), may4, pR, bR},
		{"I joined a choir this week.", "this week", d(2023, 5, 1), d(2023, 5, 8), pW, bR},
	} {
		t.Run(tc.text, func(t *testing.T) {
			got := temporal.Find(tc.text, ref3May)
			require.Len(t, got, 1, "%+v", got)
			m := got[0]
			assert.Equal(t, tc.match, m.Text)
			assert.Equal(t, tc.start, m.Start)
			assert.Equal(t, tc.end, m.End)
			assert.Equal(t, tc.prec, m.Precision)
			assert.Equal(t, tc.basis, m.Basis)
			assert.True(t, m.Known())
			checkFind(t, tc.text, ref3May, got)
		})
	}
}

// TestFindJustNotATime: "just" that is no adverb of time before a past
// verb dates nothing, and neither does a bare past tense.
func TestFindJustNotATime(t *testing.T) {
	for _, text := range []string{
		"I opened a bakery.",                             // bare past: unknown, as designed
		"He's just a friend from work.",                  // just + noun phrase
		"It looks just like the old one.",                // just like
		"Bring a jacket just in case.",                   // just in case
		"It's just that I miss the city.",                // it's just that
		"They want justice for the workers.",             // justice is another word
		"I just wanted to say thank you.",                // emphatic: wanting
		"It just felt right to leave.",                   // emphatic: feeling
		"I just loved the ending of that film.",          // emphatic: liking
		"I just had to share this photo.",                // had to: obligation
		"I just need a nap.",                             // -eed is no past
		"Just tired after the long drive.",               // -ed state adjective
		"I'm just tired.",                                // copula + state
		"I was just promoted when the company folded.",   // passive after be
		"I had just moved there when we met.",            // past perfect: story time
		"I'd just finished school at the time.",          // 'd = had
		"You should have just asked me.",                 // counterfactual
		"I should've just listened.",                     // counterfactual, contracted
		"It was not just painted but carved.",            // not just = not only
		"We were just a hundred people.",                 // -ed word that is no verb
		"I met just Alfred and his sister.",              // a name after just
		"I just read books on the train.",                // base form = present
		"I just did not know what to say.",               // emphatic negation
		"We just used to chat about music.",              // used to: habit
		"Have you just moved?",                           // a question is no report
		"You just moved in, right?",                      // a question, too
		"I bought a just-baked loaf.",                    // hyphenated adjective
		"They just kept talking through the whole film.", // emphatic continuation
		"The store is fine, just been keeping busy.",     // been + -ing: an activity going on
		"That song just made me smile.",                  // causative made
		"The trip just showed me how kind people are.",   // a realisation
	} {
		t.Run(text, func(t *testing.T) {
			for _, m := range temporal.Find(text, ref3May) {
				assert.False(t, m.Known(), "%q dated by %q: %+v", text, m.Text, m.Resolution)
			}
		})
	}
}

// TestFindJustYields: another dated expression in the sentence states the
// time itself; "just" dates only its own sentence.
func TestFindJustYields(t *testing.T) {
	for _, tc := range []struct {
		text  string
		want  []string
		basis []temporal.Basis
	}{
		{"I just finished the race on Sunday.", []string{"on Sunday"}, []temporal.Basis{bI}},
		{"I just booked a trip for next month.", []string{"next month"}, []temporal.Basis{bR}},
		{"We just got back today.", []string{"today"}, []temporal.Basis{bR}},
		{"I just adopted a puppy! Last week I went hiking.", []string{"just adopted", "Last week"},
			[]temporal.Basis{temporal.BasisSaid, bR}},
		{"I just moved, a while ago I lived downtown.", []string{"just moved", "a while ago"},
			[]temporal.Basis{temporal.BasisSaid, bU}}, // a vague expression dates nothing: "just" stays
	} {
		t.Run(tc.text, func(t *testing.T) {
			got := temporal.Find(tc.text, ref3May)
			var texts []string
			var bases []temporal.Basis
			for _, m := range got {
				texts, bases = append(texts, m.Text), append(bases, m.Basis)
			}
			assert.Equal(t, tc.want, texts)
			assert.Equal(t, tc.basis, bases)
			checkFind(t, tc.text, ref3May, got)
		})
	}
}

// TestResolveJust: the match text alone resolves the same way (Find's
// contract), and "just" alone is no expression.
func TestResolveJust(t *testing.T) {
	r := temporal.Resolve("just opened", ref3May)
	assert.Equal(t, temporal.Resolution{Text: "just opened", Start: d(2023, 5, 3), End: d(2023, 5, 4),
		Precision: pD, Basis: temporal.BasisSaid}, r)
	r = temporal.Resolve("Just got.", ref3May)
	assert.Equal(t, temporal.BasisSaid, r.Basis)
	for _, text := range []string{"just", "just wanted", "just like", "just need", "just now later", "far this week"} {
		assert.False(t, temporal.Resolve(text, ref3May).Known(), text)
	}
	// The message's own location: 23:30 at UTC−5 is still 3 May there.
	east := time.FixedZone("", -5*3600)
	r = temporal.Resolve("just arrived", time.Date(2023, 5, 3, 23, 30, 0, 0, east))
	assert.Equal(t, time.Date(2023, 5, 3, 0, 0, 0, 0, east), r.Start)
}

// TestFindWeekdayAbbreviations: an abbreviated weekday counts after
// last/this/next; "sat", "sun" and "wed" only when capitalised.
func TestFindWeekdayAbbreviations(t *testing.T) {
	for _, tc := range []struct {
		text, match string
		start       time.Time
	}{
		{"I joined a new choir last Tues.", "last Tues", d(2023, 5, 2)}, // ref3May is a Wednesday
		{"We fly out next fri", "next fri", d(2023, 5, 5)},
		{"The party was last Sat, it rained.", "last Sat", d(2023, 4, 29)},
		{"I just joined a new choir last Tues.", "last Tues", d(2023, 5, 2)}, // the day given wins over "just"
		{"This sun is too hot for a walk.", "", time.Time{}},
		{"The last sat down after a while.", "", time.Time{}},
		{"Tues is my busy day.", "", time.Time{}}, // a bare abbreviation is not read
	} {
		t.Run(tc.text, func(t *testing.T) {
			got := temporal.Find(tc.text, ref3May)
			if tc.match == "" {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, 1)
			assert.Equal(t, tc.match, got[0].Text)
			assert.Equal(t, tc.start, got[0].Start)
			assert.Equal(t, pD, got[0].Precision)
			checkFind(t, tc.text, ref3May, got)
		})
	}
}
