// Package heuristic is StrataGate's offline, deterministic default
// model.Model. It needs no network and no weights: it derives a block's
// L0 (title, tags), L1 (summary) and L2 (facts) from the messages with the
// fixed rules described below, and returns them as JSON text so that its
// output goes through the same model.Decode and validation as a remote
// model's.
//
// The same input always yields byte-identical output: there is no
// randomness, no clock, and every ordering is explicit (map iteration
// order never reaches the output). A Model holds no state and is safe for
// concurrent use; the zero value is ready to use.
//
// # Tasks
//
// Two tasks are supported: model.TaskDeriveBlock, whose Input must be a
// *model.DeriveInput or a model.DeriveInput, and model.TaskExtractEvents,
// whose Input must be a *model.ExtractInput or a model.ExtractInput (see
// "Event extraction" below). Any other task, a nil or missing input, or
// an input of another type yields an error wrapping ErrUnsupported. If
// the context is done before or after the work, Complete returns
// ctx.Err() and no output. The sections up to "Limits and fallbacks"
// describe block derivation.
//
// # Which messages are read
//
// A message is conversational when its role, trimmed and compared
// case-insensitively, is "user" or "assistant" and its ToolName is empty.
// Tool results (role "tool"), assistant tool calls (ToolName set) and any
// other role (such as "system") are ignored by every rule below, except
// the date range of the summary, which uses all messages. Invalid UTF-8
// in contents and speaker names is replaced by U+FFFD before anything
// else.
//
// # Sentences
//
// Each conversational message is split into sentences. A sentence ends
// at a line break (LF, CR, NEL, U+2028, U+2029); after ".", "!", "?" or
// "…" — together with any closing quotes or brackets right after it —
// when that is followed by white space or the end of the message; and
// always after "。", "！" or "？" (CJK text puts no space after them).
// Sentences are trimmed and empty ones dropped. Abbreviations such as
// "e.g. " therefore also end a sentence.
//
// # Tokens
//
// A word is a maximal run of letters, digits and combining marks that
// starts with a letter or digit (Unicode classes, so "café" and "straße"
// are words); a single "." or "-" between two such characters stays
// inside the word ("fly.io", "follow-up"), an apostrophe does not
// ("let's" is "let" and "s"). Han characters never belong to a word:
// each maximal run of Han characters is a Han run. A token is
// sentence-initial when it is the first word or Han run of its sentence.
//
// # Keywords
//
// Keyword candidates come from the sentences of conversational messages:
//
//   - A word, lower-cased rune by rune, is a candidate when it has 3 to 32
//     runes, contains at least one letter (so "2024" and "3.14" are not),
//     and is not a stopword. The stopword list (see stopword in words.go)
//     holds about 100 English function words; chat fillers (ok, okay,
//     thanks, yes, yeah, sure, hi, hello, please, sorry, great, good,
//     really, just, also, actually ...); generic verbs and nouns (let,
//     lets, will, would, could, should, think, know, get, got, like, one,
//     want, need, make, use, going, thing, way, time, day ...);
//     contraction stems left by the apostrophe split (don, doesn, didn,
//     isn, won ...); "today", "tomorrow", "yesterday"; weekday and month
//     names; the decision words decide, decided, decides, prefer,
//     prefers, preferred, instead and ago; and "http", "https", "www", "com", "e.g", "i.e", "etc".
//   - A Han run of two or more characters contributes each pair of
//     adjacent characters (bigram) as a candidate: "数据库" gives "数据"
//     and "据库". A bigram is dropped when it contains one of the function
//     characters 的了是在和吗吧呢啊也就都我你他她它这那不有个们么 or is a
//     common function word (可以, 什么, 因为, 所以, 但是, 如果, 还是, 然后,
//     已经, 怎么, 现在, 觉得, 知道, 需要, 应该, 自己, 一下, 一些, 谢谢, 时候,
//     而且, 或者, 好的). A lone Han character is never a candidate.
//
// A keyword's score is its number of occurrences plus its number of
// capitalised occurrences that are not sentence-initial (a word is
// capitalised when its first rune is upper- or title-case). So "Lisbon"
// in "we flew to Lisbon" counts twice, while "Tickets" starting a sentence
// counts once. A keyword with at least one such capitalised occurrence is
// a name; its display spelling is that of its first capitalised
// mid-sentence occurrence ("Fly.io", "PostgreSQL"). Keywords are ranked
// by descending score, ties broken by comparing the lower-case forms as
// UTF-8 byte strings (alphabetical for Latin text).
//
// # Tags (L0)
//
// The tags are the top five ranked keywords in lower case (fewer when
// there are fewer keywords). They are unique, 1–32 runes long and
// lower-case by construction.
//
// # Title (L0)
//
// The title names up to three keywords. First the names among the top
// five keywords are taken in rank order, then the title is filled up with
// the remaining keywords in rank order. A Han bigram that shares a
// character with a Han bigram already taken is skipped, so overlapping
// bigrams do not repeat characters. Names use their display spelling,
// other keywords their lower-case form. One term is shown as is, two as
// "A and B", three as "A, B and C"; when every term is a Han bigram they
// are joined with "、" instead. The first rune is upper-cased. If the
// result exceeds 80 runes the last term is dropped until it fits. For
// example: "Postgres, Atlas and Fly.io".
//
// # Summary (L1)
//
// The summary starts with the block's date range: the smallest and the
// largest calendar date (YYYY-MM-DD) among all messages' non-zero times,
// each date read in the time's own offset, rendered "2024-03-04 to
// 2024-03-05: ", or "2024-03-04: " when both are equal, or nothing when
// no message has a time.
//
// It continues with one excerpt per speaker who said at least one
// sentence, speakers in order of their first conversational message. A speaker is the message's Speaker with
// white space collapsed, or, when that is empty, its role with an
// upper-case initial ("User", "Assistant"); speaker names are cut to 40
// runes. Each speaker's excerpt is their most informative sentence: the
// one whose distinct keywords have the highest total score, ties going to
// the earliest. The excerpt has white space collapsed, is cut to 240
// runes, gets a full stop ("。" after Han text) unless it already ends
// with terminal punctuation, and is rendered "Mia Chen: <sentence>".
// Excerpts are joined with single spaces.
//
// When no conversational sentence exists the date range is followed by
// "N messages with no user or assistant text." ("1 message …" for one),
// N counting all messages. Finally the summary is cut
// to 600 runes.
//
// # Facts (L2)
//
// Facts are sentences of conversational messages that carry a decision,
// preference, plan, change or time cue, taken in message order. A sentence
// has a cue when it contains:
//
//   - any digit (this also covers "in 2025", dates, times and amounts);
//   - one of the words decided, decide, decides, will, we'll, switch,
//     switched, switching, moved, prefer, prefers, preferred, favorite,
//     favourite, started, adopted, plan, plans, planned, planning, launch,
//     launched, launching, deadline, actually, correction, instead,
//     yesterday, tomorrow, ago, a weekday name (monday–sunday) or a month
//     name (january–december), compared case-insensitively with ’ read as
//     an apostrophe — except "May" and "March", which count only with an
//     upper-case initial because "may" and "march" are also verbs;
//   - one of the word pairs "let's use", "lets use", "going to", "no
//     longer", "last week", "next month";
//   - in Han text, one of 决定, 改用, 换成, 切换, 喜欢, 偏好, 计划, 打算,
//     准备, 开始, 上线, 发布, 截止, 明天, 昨天, 下周, 上周, 下个月, 上个月,
//     以前, 之前, 以后, 其实, 更正, 不再, 星期, 周一 … 周日.
//
// Words here may contain apostrophes between letters ("we'll"). A
// sentence must also have at least three tokens (words, with each Han
// character counting as one) and at least one letter, so a bare "1" or
// "Friday." is not a fact.
//
// A fact's text is the sentence with white space collapsed, leading list,
// quote and heading markers ("- ", "* ", "• ", "> ", "## ") removed, and
// cut to 240 runes. Facts whose text is equal ignoring case are kept
// once, at their first occurrence. Each fact cites exactly the id of the
// message it comes from. At most 12 facts are returned.
//
// # Limits and fallbacks
//
// Every cut above happens on a rune boundary and ends the text with "…";
// all texts are trimmed. A block with no messages gets the title "Empty
// block", the tag "empty", the summary "Empty block with no messages."
// and no facts. A block with messages but no keyword gets the title
// "Untitled block" and the tag "untitled". Facts are encoded as [] rather
// than null when there are none. The output therefore always satisfies
// the layers package's limits: title 1–80 runes, 1–8 tags of 1–32 runes,
// summary 1–600 runes, at most 12 facts of 1–240 runes citing 1–8 block
// message ids.
//
// # Event extraction
//
// For model.TaskExtractEvents the output is a model.ExtractOutput: at
// most 12 event cards for the target block, {"events":[]} when there are
// none (always for a block without messages). Each card comes from one
// candidate sentence and cites exactly the one message that contains it.
//
// Sources. Only the conversational messages (as defined above) of the
// target block, ExtractInput.Messages, are ever cited. Before and After
// are context: they, together with the target block, only teach which
// capitalised words are names (see Names). Tool results, assistant tool
// calls and other roles are never read for candidates. Messages are split
// with the sentence rules above, on the raw content, so every sentence is
// a byte-exact substring of its message; a sentence containing invalid
// UTF-8 is skipped (it could not be quoted verbatim), and only the first
// 256 sentences of a message are read.
//
// Quote. A sentence longer than 500 runes is cut to its longest prefix of
// at most 500 runes that ends before a white-space character (or at a
// rune boundary when it has none), trimmed; every rule below reads this
// quote, not the rest of the sentence. The quote is the card's only
// entry in Quotes, verbatim.
//
// Words and cues. A sentence's cue words are maximal runs of letters,
// digits and marks, keeping an apostrophe between letters ("we'll"),
// lower-cased with ’ read as '. The cue lexicon (cueTable in
// extract_lexicon.go) is a table of one- to four-word phrases matched on
// consecutive cue words, the longest phrase first at each word; a matched
// phrase is consumed whole. Each phrase carries an event type (or none)
// and flags: decision, correction, plan, cancel, past, ongoing, identity,
// safety. In outline: decisions (decided, decision, let's use, we'll use,
// agreed, chose …), cancellations (cancelled, called off, not going to
// …), migrations (migrated …), life events (moved, adopted, married,
// graduated, joined, quit, got the job, start at …), completed tasks
// (finished, completed, shipped, launched, deployed, fixed …), incidents
// (outage, bug, crashed, leaked …), preferences (prefer, I like, love,
// hate, favorite, switched to, rather …), meetings (meeting, met,
// interview, appointment …), changes and corrections (correction, no
// longer, instead, used to, anymore, replaced, switched from, and the
// date shifts "moved to", "pushed to", "postponed to", "rescheduled to",
// "changed to", which count only when a temporal expression starts right
// after them, as in "moved to June 3rd"; otherwise "moved" is a life
// event), activities (went, visited, bought, started, set up, picked up
// …), plans (will, I'll, we'll, going to, plan, aim, target, want to,
// tomorrow, next week …), identity facts (live in, work at, freelance)
// and words that only set a status (was, got, yesterday, ago → past;
// currently, still, for now → ongoing) or a criticality (sister, job →
// identity; allergy, medical, security, password, secret, toxic →
// safety). Five rules complete the table: "actually" as the first word
// of a sentence is a correction (a change); "not" followed by "but"
// within the next six words is a correction; "a X person" / "an X person"
// is a preference whose object is X; any other word ending in "'ll" is a
// plan; and I'm/we're/he's/she's/they're followed by a word of five or
// more letters ending in "ing" sets ongoing.
//
// Names. A person is known when they are the person speaker of a user
// message anywhere in the input (Speaker non-empty, without surrounding
// space, valid, at most 64 runes, and not "user" or "assistant"), a
// participant of an existing event, or a capitalised word that follows a
// relation word (sister, brother, friend, neighbor, wife, boss …, as in
// "my sister Ana") anywhere in the input. A word is a known name when it
// appears capitalised, not as the first word of a sentence, anywhere in
// the input and is not a non-name (pronouns, articles, question words,
// weekday and month names and their plurals, today/tomorrow/yesterday/
// tonight, the keyword stopwords and the filler words also, and, so,
// but, well, yes, ok, oh, anyway, actually, now, hi, hello …). Within a
// quote, name words are capitalised words (derive tokenizer) that are not
// non-names, not all-capital spellings of a cue or stopword ("WE
// LAUNCHED"), and — for the sentence's first word — known names. Name
// words separated by exactly one space form a name of up to four words
// ("Cascadia Labs"). A name is a person when the whole name or its first
// word is a known person's full name or first word, or when it follows a
// relation word; other names are entities, as are the lower-case product
// words npm, pnpm, yarn, vite, webpack, git, docker, postgres, sqlite …
//
// Candidates. A user-message sentence is a candidate when it does not end
// with a question mark, has at least two cue words, and either has a
// subject and (a typed cue or a temporal expression), or has a typed cue
// and a temporal expression (the speaker is then the implicit subject).
// It has a subject when it contains a first-person word (I, I'm, I've,
// I'll, I'd, me, my, mine, myself, we, we're, we've, we'll, we'd, us,
// our, ours, ourselves, let's), names a person, or its first word after
// fillers is a known name ("Pixel is eleven …"). Temporal expressions are
// those events/temporal.Find reports in the quote, resolved against the
// message time. An assistant sentence is a candidate only when it
// restates: it begins with a head of one to four words before a colon
// (the colon within the first 48 bytes) that contains recorded, noted,
// decision, decided, correction, corrected, updated, logged or confirmed,
// followed by text ("Decision recorded: Atlas uses Postgres.").
//
// Dropping and capping. Of candidates whose quotes are equal ignoring
// case and white space, the first is kept. An assistant restatement is
// dropped when it shares at least two match keys (below) with an earlier
// kept user candidate of the block: the user's own words are the better
// evidence. When more than 12 candidates remain, each scores 4 for a
// decision or correction cue, 2 for a temporal expression, 1 for a
// typed cue and 1 for a criticality other than routine; the 12 best are
// kept (ties: earlier first) and returned in message order.
//
// Event type. The types of all typed cues compete in the order decision,
// cancellation, migration, life_event, task_completed, incident,
// preference, meeting, change, activity, plan, fact. A restatement whose
// head says decision/decided is a decision, one whose head says
// correction/corrected a change with a correction. Without a typed cue
// the type is plan when the status is planned, activity when completed,
// else fact.
//
// Status. The chosen temporal expression (see Time text) is in the future
// when its resolved start is after the message time, and in the past when
// its resolved end is not after it. Status is cancelled with a cancel
// cue; else planned with a plan cue or a future expression; else
// completed with a past cue; else ongoing with an ongoing cue; else
// completed with a past expression; else unknown.
//
// Time text. The expression right after a date-shift cue when there is
// one; otherwise the first expression that resolves (temporal Known) and
// is not negated (preceded by "not", or "not" plus on/in/at/for/by/until:
// "not on May 20"); otherwise the first expression found; "" when there
// is none. It is the text exactly as written in the quote.
//
// Criticality. safety with a safety cue; else preference for a preference
// event; else identity for a life event or with an identity cue; else
// routine.
//
// Participants and entities. Participants are the message's person
// speaker (exactly as stored) followed by the persons named in the quote,
// as written, skipping any that is the same person as one already listed
// (equal ignoring case, or one is a single word equal to the other's
// first word). Entities are the other names and product words, as
// written, distinct ignoring case. Both lists hold at most 12 names of at
// most 64 runes; an assistant is never a participant.
//
// Title, summary, tags. The title starts from the quote with white space
// collapsed, without a restating head and leading list markers; then,
// repeatedly, a leading filler word with its comma or space (when text
// follows), a leading filler phrase (I know, I mean, I think, I guess,
// you know, to be honest, by the way, fun fact) followed by a comma or
// space, or a leading "Topic:" head of at most three words whose colon is
// followed by a space, is dropped — the latter two only when at least two
// words remain. For a
// person speaker a leading I'm/I've/I'll/I'd/My becomes "<Speaker>
// is/has/will/would/<Speaker>'s" and a leading "I" becomes the speaker's
// name with the next verb (after adverbs such as also, just, finally) in
// the third person (live → lives, go → goes, try → tries, have → has;
// past tenses, modal verbs and non-lower-case words are kept). A final
// "." or "!" is removed, the first letter upper-cased, and the title cut
// to 80 runes at a space with "…". So "I moved last Saturday." by Leo
// Park becomes "Leo Park moved last Saturday". The summary is "<speaker
// label>: <quote with white space collapsed>" cut to 300 runes, the
// speaker label being the one of the block summary, written "Assistant"
// when it is "assistant" in any case. Tags are the first five distinct
// keywords of the quote after any restating head (3–32 runes, a letter,
// not a stopword), lower-cased.
//
// Match keys. The match keys of a text are its derive-tokenizer words,
// lower-cased, that have a digit, or are month or weekday names ("may"
// and "march" only when capitalised), or have at least three runes with
// a letter and are no stopword — minus the restating head words and the
// words of known persons' names (those are compared as participants).
//
// Supersedes. A candidate with a correction cue supersedes the existing
// event (ExtractInput.Existing) that shares the most match keys with it,
// counting the keys of the existing event's title, summary and quotes
// together; at least two shared keys are needed, and ties go to the
// highest id. So "I used to be a tea person." supersedes "I'm a tea
// person, coffee keeps me up all night." (tea, person), and "Actually,
// the launch is not on May 20 — it moved to June 3rd." supersedes the
// event about May 20 (may, 20 and, where present, launch). A single
// shared word, even an entity name such as a project name, is not
// enough: it would let every correction supersede some event of the
// project.
//
// Conflicts. A candidate without a correction cue conflicts with an
// existing event when the candidate is a preference with a preference
// verb (prefer, like, love, hate, switch to, or the "a X person" form)
// and an object (the first match key after the verb; X for "a X
// person"); its subject is the first person named before its first typed
// cue, else the speaker; and the existing event has type preference, a
// participant who is the same person as the subject, and a different
// object for the same verb in the first of its quotes, then its title,
// that has that verb with an object. "I prefer coffee." by Mia Chen thus conflicts with
// an existing "Mia prefers tea" whose participants include Mia Chen.
// Conflict ids are ascending, at most 8. The rule cannot tell attributes
// apart ("I prefer coffee" also conflicts with "I prefer aisle seats"):
// a conflict only marks the pair for review, it hides nothing.
//
// Every field therefore satisfies the events package's limits: title
// 1–80 runes (events allow 120), summary 1–300 (600), at most 5 tags (8),
// one quote of 1–500 runes that occurs verbatim in the one cited target
// message, at most 12 participants and 12 entities of at most 64 runes
// each that are the cited message's speaker or occur in its text, and
// links only to offered existing events.
package heuristic
