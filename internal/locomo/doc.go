// Package locomo loads LoCoMo benchmark conversations (snap-research/LoCoMo,
// data/locomo10.json and subsets of it such as ../shared/locomo/locomo-dev.json),
// maps them onto StrataGate turns by the project's sgbench protocol, and
// measures how well extracted event cards date the events that temporal
// (category 2) questions ask about.
//
// The data is licensed CC BY-NC 4.0: it is read from outside the repository
// at run time and never copied into it. Every string in this package's tests
// is written for the tests.
//
// # Loading
//
// Load decodes a JSON list of conversations. Unknown fields are ignored
// (the data is external and carries extra fields: observations, summaries,
// image urls); malformed JSON, a non-list top level, a turn without a
// dia_id, a session with turns but no date, an unparseable date, and an
// answer that is neither a string, a number nor null are errors naming the
// conversation and the place.
//
// A session's "session_N_date_time" ("1:56 pm on 8 May, 2023") carries no
// time zone; it is parsed as UTC, so every time in this package is UTC. A
// session with a date but no turns is kept with zero turns. Turn i (from 0)
// of a session is timestamped Date + i seconds. A conversation without a
// "sample_id" is named "conv-<k>" by its 1-based position in the file.
//
// Turn dia_ids are normalised like evidence ids ("D3:05" → "D3:5"; see
// NormalizeEvidence). A dia_id repeated within a conversation is kept on
// both turns; the maps of MessageMap name the first. Evidence ids are
// normalised (NormalizeEvidence) against the dia_ids of the
// conversation; the raw list is kept in QA.RawEvidence and the ids that do
// not name a turn in QA.Unresolved. A numeric answer (2022) becomes its
// decimal text ("2022"); a missing or null answer becomes "".
//
// # Message mapping (the sgbench protocol)
//
// Each dia_id turn is one StrataGate message: role "user", Speaker the
// speaker's name, At its turn time, Content its text, plus
// " [image: <blip_caption>]" for an image turn (one with a caption); a turn
// with neither text nor caption gets the content "[no text]" so that its
// dia_id still maps to a message. Consecutive messages of a session are
// grouped two by two into stratagate.Turns; a session boundary always ends a
// turn, so an odd last message of a session is a turn of one. A turn's
// ReceiptID is "<conversation id>-<dia_id of its first message>".
//
// Conversation.Turns gives the turns to append, in order;
// Conversation.MessageMap turns the TurnRefs that Append returned (same
// order) into the message id ↔ dia_id maps; Ingest does both.
//
// # Gold answer dates (ParseGold)
//
// ParseGold reads the gold answer of a temporal question as an interval
// [start, end) in ref's location (UTC for session dates). ref is the date of the session holding the question's
// first evidence turn: relative answers ("last year", "12 years ago") are
// resolved against it. The rules, in order:
//
//  1. The answer is trimmed of spaces, quotes and a final period; an empty
//     answer is not a date. A period between a month and its year
//     ("April.2023") is read as a space. A word of four letters or more
//     that is one edit (a letter inserted, left out or changed, or two
//     neighbours swapped) from a month name of five letters or more is
//     read as that month ("Feburary", "Novmber", "Septmber"), unless it
//     is an English word ("arch", "match", "marsh"); May, June and July
//     are not corrected, their one-edit neighbours being mostly words
//     ("jane", "tune", "jury"). A stray mark inside a date ("3` July")
//     is not repaired: it may stand for a lost digit, so the answer stays
//     unparsed.
//  2. Vague counts are not dates: an answer with "few", "several", or "some"
//     before a unit word ("a few days before 10 August 2023", "some weeks
//     ago") gives ok=false, never a guessed interval.
//  3. "since X" gives the interval of X: gold answers of this shape say when
//     something began ("Since 2017" → the year 2017), not the open range
//     up to ref.
//  4. Otherwise the whole answer is resolved with temporal.Resolve at ref.
//     That covers absolute dates ("7 May 2023", "May 7, 2023", "7th May
//     2023", "On 7 May, 2023" → day), a day without a year ("12 August" →
//     the occurrence nearest ref), months ("May 2023", "June, 2023",
//     "in June 2023" → month), years ("2022", "in 2022" → year), seasons
//     ("summer 2022"), parts of months and years (thirds: "early June
//     2023" → 1–10 June, "mid June" → 11–20, "late June" → 21 to the
//     month's end, range), weeks and weekends of a month ("the first week
//     of May 2023" → 1–7 May, "the second weekend of June 2023" → its
//     second Saturday and Sunday; the article may be left out: "first
//     weekend of August 2023"), relative answers ("last year", "12 years ago"),
//     and anchored forms: "the <weekday> before|after <date>" (the nearest
//     such weekday strictly before|after the date), "the day before <date>",
//     "the week before|after|of <date>" (ISO weeks, Monday to Monday). A
//     duration ("6 years") or an answer the resolver does not understand is
//     not a date.
//  5. Anchored forms the resolver lacks are rewritten as the relative
//     expression they paraphrase, resolved with the anchor day as the
//     reference — LoCoMo writes "the weekend before 17 July 2023" for "last
//     weekend" said on 17 July 2023:
//     "the weekend before|after D" = "last|next weekend" at D (Saturday and
//     Sunday of the ISO week before|after D's week); "N weekends before D" =
//     "N weekends ago" at D; "N days|weeks|months|years before D" = "N units
//     ago" at D and "... after D" = "in N units" at D (calendar units as in
//     temporal: "two weeks before D" is the ISO week holding D − 14 days);
//     "the month|year before|after D" = "last|next month|year" at D. The
//     anchor D must resolve to a single day.
//  6. Ranges "[from|between] X sep Y", sep a hyphen, a dash, "to",
//     "and", "until", "till" or "through", give [start of X, end of Y),
//     precision range. An end that leaves out what the other says borrows
//     it: "5–6 November 2022" and "November 5-6, 2022" are 5–6 November
//     2022, "between 19 and 24 October 2023" is 19–24 October, "from May
//     3 to May 7, 2023" takes the year of its right end. Both ends must
//     resolve, X starting before Y ends.
//  7. Anything else gives ok=false: callers count it and leave it out.
//
// precision is the temporal.Precision of the result ("day", "week",
// "month", "season", "year", "range", "instant"); weekends are "range".
//
// # Event-time measurement (MeasureEventTime)
//
// For every category-2 question whose gold answer parses, the cards citing a
// gold evidence message are collected (forgotten cards and cards outside the
// given scopes are ignored). The question is covered when one of them has a
// known happened interval [HappenedStart, HappenedEnd) that contains the gold
// interval for a day (or finer) gold answer, or overlaps it for a coarser one.
// Exact counts the covered questions where some such card's interval equals
// the gold interval, and Unsealed the questions without a card whose
// evidence messages all sit in a thread's open tail (never sealed into a
// block, so never extracted: with BlockTurns 12 the last turns of a
// conversation stay there).
//
// # Evidence recall and answers (Eval, for sgbench locomo)
//
// Eval measures the category 1–4 questions (category 5, adversarial, is
// skipped). A question's gold is its resolvable evidence dia_ids
// (QA.Evidence); a channel's evidence is the set of dia_ids of the
// messages it returned (Result, mapped by Mapping.Dias): the top K
// SearchRaw hits' messages, the union of the top K SearchEvents hits'
// source messages, and the messages of Ask's final evidence
// (AnswerMessages: an event-only item counts its card's sources), not cut
// to K. recall = |gold ∩ evidence| / |gold| and hit = gold ∩ evidence ≠ ∅
// (Recall); questions without gold are not scored (Channel.NoGold); the
// figures are means over scored questions, overall and per category.
//
// AskTally counts verdicts, retrieval rounds (len(Answer.Trace)),
// abstentions (answers not sufficient) and false sufficient answers
// (sufficient, to a scored question, with no gold dia_id in the evidence).
// TemporalTally scores the answers to category-2 questions whose gold
// parses (TemporalGold: ParseGold at the date of the session holding the
// first gold turn): the interval a sufficient answer states
// (Answer.TimeStart…, else AnswerTime: the first evidence item with a
// known happened start and precision) must overlap the gold interval and
// be no longer than it (TemporalCorrect); an answer without one, or one
// that is not sufficient, is wrong.
//
// DurationTally scores, in every measured category, the questions whose
// gold answer is a length of time (GoldDuration: the whole answer is one
// duration, hedges aside — "4 years", "about two weeks" — or the question
// asks "how long"/"how many days…years" and the answer holds one). The
// first duration of the Ask answer's text (ParseDuration: a count and a
// unit, in days; a month is 30.44 days, a year 365.25; vague counts,
// frequencies such as "once a week", dates such as "3 years ago" and ages
// such as "5 years old" are skipped) is correct when |answer − gold| ≤
// max(0.5 day, 15% of gold) (DurationCorrect): "3.5 years" for "4 years"
// is right, "3 years" wrong, and below a week the day count must match.
// An answer without a duration is wrong.
package locomo
