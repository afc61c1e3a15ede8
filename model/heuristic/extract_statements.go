package heuristic

import "strings"

// ---- statements ------------------------------------------------------------

// A statement is a user sentence that says something about a person — a
// fact, an event, a plan or a preference — in words the cue lexicon need
// not know: "I adopted a puppy", "My sister lives in Lisbon", "We're
// painting the kitchen this weekend", "I love hiking". It needs a person
// as its subject (a first-person word, a named person, or he/she) and at
// least one topic word; questions are never statements. A sentence whose
// only content words react to what the other person said ("I love that!",
// "I'm so proud of you", "I can't wait to see it") acknowledges rather than
// states, and yields no card, whatever its cues.

// maxStatementsPerMessage bounds the cards a message yields from
// statements that carry no cue, so that one long message cannot crowd a
// block's other messages out of its cards.
const maxStatementsPerMessage = 3

// topicWords counts the cue words of the current sentence (x.cues) that
// can name what it is about: match keys that are not reaction words.
func (x *extractor) topicWords() int {
	n := 0
	for i := range x.cues {
		w := x.cues[i].lower
		if isMatchKey(w) && !reactionWord(w) {
			n++
		}
	}
	return n
}

// thirdPersonSubject reports whether a cue word of the current sentence is
// a singular third-person pronoun: the sentence is then about a person the
// conversation already named ("She loves painting").
func (x *extractor) thirdPersonSubject() bool {
	for i := range x.cues {
		if thirdPersonWord(x.cues[i].lower) {
			return true
		}
	}
	return false
}

// elidedSubject reports whether the current sentence drops its subject
// the way chat does, so that it is the speaker's ("Finally finished the
// quilt!", "Just got back from Peru", "Been swamped at work"): its first
// word, after fillers and adverbs, is a past-tense verb or "been".
func (x *extractor) elidedSubject() bool {
	for i := range x.cues {
		w := x.cues[i].lower
		if fillerWord(w) || adverbWord(w) {
			continue
		}
		return w == "been" || pastVerb(w) || (len(w) >= 5 && strings.HasSuffix(w, "ed") && !notPastWord(w))
	}
	return false
}

// notPastWord reports whether the lower-case word w ends in "ed" without
// being a past tense, as a sentence's first word ("Indeed, …").
func notPastWord(w string) bool {
	switch w {
	case "indeed", "speed", "breed", "proceed", "exceed", "succeed":
		return true
	}
	return false
}

// thirdPersonWord reports whether the lower-case cue word w is a singular
// third-person pronoun, the subject of statements about someone already
// named ("She plays the cello", "His dog is blind"). "They" is not listed:
// in chat it names things as often as people.
func thirdPersonWord(w string) bool {
	switch w {
	case "he", "she", "he's", "she's", "his", "her", "him":
		return true
	}
	return false
}

// reactionWord reports whether the lower-case word w is one of the words a
// sentence uses to react to what the other person said, to thank, greet,
// agree or wish them well: a sentence whose content words are all
// reaction words (or stopwords) is an acknowledgement. Words that carry a
// fact even in a reaction ("moved", "adopted") are not listed.
func reactionWord(w string) bool {
	switch w {
	// Praise and delight.
	case "amazing", "wonderful", "fantastic", "incredible", "lovely",
		"beautiful", "gorgeous", "adorable", "cute", "sweet", "brilliant",
		"excellent", "terrific", "super", "neat", "impressive", "exciting",
		"excited", "interesting", "inspiring", "inspired", "inspire",
		"inspires", "inspiration", "proud", "thrilled", "stoked", "blessed",
		"grateful", "thankful", "touched", "fun", "yay", "omg", "aww",
		"awww", "ooh", "xoxo", "hugs", "hug", "cheers",
		// Thanks, wishes, sympathy and agreement.
		"congrats", "congratulations", "welcome", "appreciate",
		"appreciated", "support", "supportive", "hope", "hopefully", "wish",
		"wishes", "luck", "lucky", "agree", "totally", "absolutely",
		"exactly", "true", "bet", "care", "means", "course", "miss",
		// Verbs of perceiving and feeling what the other shared.
		"love", "loved", "liked", "enjoy", "enjoyed", "feel", "feeling",
		"felt", "hear", "heard", "hearing", "look", "looks", "looked",
		"seems", "share", "shared", "sharing", "wait", "wonder",
		// Greetings and leave-taking.
		"morning", "afternoon", "evening", "night", "talk", "talking",
		"chat", "chatting", "sometime":
		return true
	}
	return false
}
