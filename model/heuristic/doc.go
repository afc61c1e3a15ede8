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
// Three tasks are supported: model.TaskDeriveBlock, whose Input must be a
// *model.DeriveInput or a model.DeriveInput; model.TaskExtractEvents,
// whose Input must be a *model.ExtractInput or a model.ExtractInput (see
// "Event extraction" below); and model.TaskProjectGraph, whose Input must
// be a *model.ProjectInput or a model.ProjectInput (see "Graph
// projection"). Any other task, a nil or missing input, or
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
// most 48 event cards for the target block, {"events":[]} when there are
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
// with a question mark, has at least two cue words, has at least one
// topic word, and either has a subject and (a typed cue or a temporal
// expression), or has a typed cue and a temporal expression (the speaker
// is then the implicit subject), or is a statement. It has a subject when
// it contains a first-person word (I, I'm, I've, I'll, I'd, me, my, mine,
// myself, we, we're, we've, we'll, we'd, us, our, ours, ourselves,
// let's), names a person, or its first word after fillers is a known name
// ("Pixel is eleven …"). A topic word is a cue word that is a match key
// (below) and not a reaction word: words that react to what the other
// person said, thank, agree, greet or wish well (amazing, proud, love,
// enjoy, hope, wait, agree, appreciate, hear, look, morning, talk …;
// reactionWord in extract_statements.go), so "I love that!", "I'm so
// proud of you" and "I can't wait to see it" are acknowledgements and
// yield nothing. A statement is a sentence with a subject or a singular
// third-person pronoun (he, she, his, her, him) and no cue that makes it a
// candidate otherwise: "My grandmother grew up on a farm", "I collect old
// maps", "She plays the cello". A message yields at most three statement
// cards (its first three); sentences with cues are not counted. Temporal
// expressions are those events/temporal.Find reports in the quote,
// resolved against the message time. An assistant sentence is a candidate only when it
// restates: it begins with a head of one to four words before a colon
// (the colon within the first 48 bytes) that contains recorded, noted,
// decision, decided, correction, corrected, updated, logged or confirmed,
// followed by text ("Decision recorded: Atlas uses Postgres.").
//
// Dropping and capping. Of candidates whose quotes are equal ignoring
// case and white space, the first is kept. An assistant restatement is
// dropped when it shares at least two match keys (below) with an earlier
// kept user candidate of the block: the user's own words are the better
// evidence. When more than 48 candidates remain, each scores 4 for a
// decision or correction cue, 2 for a temporal expression, 1 for a
// typed cue and 1 for a criticality other than routine; the best of each
// message (ties: earlier first) are kept first, so that every message
// that states something keeps a card, then the best of the rest, up to
// 48 (ties: earlier first); they are returned in message order.
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
//
// # Graph projection
//
// model.TaskProjectGraph is a third task: its Input must be a
// *model.ProjectInput or a model.ProjectInput, and the output is a
// model.ProjectOutput, {"ops":[]} when nothing is found (always for a
// batch without events). The rules below are data-driven: every phrase
// and word list lives in the project_triggers.go, project_terms.go and
// project_words.go tables.
//
// Citations. Every op cites the event it was read from (a completed
// move also cites the plan that named its place), and only events of
// ProjectInput.Events; an op proposed again by a later event of the
// batch cites both (at most 8 ids, in batch order). Kinds, fact keys and
// relations are those of package graph: node kinds person, project,
// organization, tool, place; state keys role, uses_package_manager,
// database, deploy_platform, launch_date, editor, indentation, drinks,
// diet; set keys likes, dislikes, hobby; relations lives_in, works_at,
// located_in, friend_of, sibling_of, parent_of, child_of, has_pet,
// member_of, works_on, uses, visited, knows. has_pet targets a named
// value (TargetKind ""): pets are not nodes. Names are at most 128 runes
// and values 256; at most 512 ops are returned (graph's batch limit).
//
// Order and duplicates. Events are read in input order; within an event
// its participants and speakers are upserted first, then its texts are
// read in order — each quote, then the summary unless it is only
// "Label: " plus a quote, then the title unless it equals a quote — and
// within a text, first the "Hello from" rule, then sentence by sentence,
// word by word, each rule that starts at the word, in a fixed order
// (relation words, pets, naming, "a X person", aliases, homes, launch
// dates, trigger phrases). An op the same event already proposed (from
// another of its texts) is dropped. An op equal to the latest op on the same
// node, key or relation and value or target is merged into it (its
// events added) instead of repeated; for a state key or a one-valued
// relation (lives_in, works_at, located_in) only while no other value
// was set after it, so "tea, then coffee, then tea again" stays three ops
// in that order.
//
// Nodes. upsert_node (kind, name) is proposed once per batch, before the
// first op that names the node as subject or target, citing every event
// that names it (up to 8). Tags: "project" on projects, "employer" on
// organizations someone works at, the category ("package manager",
// "database", "deploy platform", "editor", or "tool") on tools. A name
// that equals (ignoring case and spacing) the name or an alias of a known
// node of the same kind (ProjectInput.Nodes) is written as that node's
// name.
//
// Persons. Each participant and speaker of an event is a person unless it
// is empty, over 128 runes, has no letter, contains "_", "/", "@" or ":"
// (tool names such as "web_search"), or is one of assistant, system,
// tool, user, bot, ai, model, function, developer. A name of two or more
// words is a full name; a single word that is the first word of exactly
// one full name among the batch's speakers, participants and known
// person nodes is written as that full name ("Leo" → "Leo Park"); this is
// the only resolution beyond exact names, and it never proposes an
// alias. The event's self — who "I" and "my" are — is its one person
// speaker; nobody when it has several, or only non-person speakers; with
// no speakers, the participant its summary is labelled with ("Leo Park:
// …"), nobody when that label is an assistant, else its first
// participant (the extractor lists the speaker first).
//
// Words and clauses. A word is a run of letters, digits and marks that
// keeps a single ".", "-", "'" or "’" between two letters or digits
// ("Fly.io", "green-cheeked", "Leo's"); words are compared lower-cased
// with ’ read as '. Any punctuation other than quotes between two words
// is a clause break; a trigger phrase never spans one. A name is up to
// four capitalised words separated by single spaces, none of them a
// non-name (pronouns, calendar words, stopwords, fillers: see the
// extraction rules) or a first-person word; a possessive ("Leo's") ends
// a name. Objects (places, organizations, tools, projects) are names
// after an optional "the" that do not end in a possessive ("Ana's place"
// names no place). Sentences that end with a question mark are skipped.
//
// Subjects. A trigger phrase's subject is found by skipping back over at
// most 6 adverbs, auxiliaries and intent words (also, just, now, finally,
// will, have, decided, agreed, want, going, to, the, a, new …, see
// subjectSkip) within the clause: I/I'm/I've/I'll/I'd/my are the self; we
// forms and let's are "we" (the self for personal rules, the project for
// tool decisions); a possessive or plain name is classified as a known
// node of its kind, a project of the batch, a person of the batch, else —
// unless it is an entity of the event or a lexicon term — a person. "X
// and I" and "I and X" give two subjects. When the clause starts at the
// phrase ("Moved to Denver!") the subject is the self. "used to" between
// subject and phrase turns an add into a close (lives_in, works_at) or
// into nothing (facts); will, gonna, going, want, plan, need, to, I'll,
// we'll, let's mark intent, which blocks the rules for things that have
// already happened (lives_in, moves, visits, pets, hobbies, diet, drinks,
// likes); I'd/we'd block tools and likes. A phrase is negated — and
// proposes nothing — when not, never, no, don't, won't, can't, isn't …,
// if, whether, maybe, should, could or might occurs among the 3 words
// before it up to its subject, or when if, whether, unless, maybe,
// perhaps or when stands right before that subject.
//
// The project of a decision. For a "we" decision: the name after a "for"
// following the tool ("use Postgres for Atlas"), unless it is a person,
// a known node of another kind or a lexicon term; else the first project
// of the batch among the event's entities or the sentence's words; else
// the batch's only project; else none, and the decision proposes nothing.
// The batch's projects are the known project nodes, names after "a
// project/app/product/website/service/tool/library/game/repo called or
// named", and names after "for" in a sentence with a tool phrase, all
// collected before the first event is read.
//
// Homes (lives_in, TargetKind place). "X lives in Y", "live/living/
// reside/settled in Y", "X moved to Y" (also moved back/over to,
// relocated to), "X is in Y now" (an explicit subject, I'm/am/is/are/
// we're right before "in", and "now" ending the clause) propose add_edge
// lives_in Y; "moved to B from A" and
// "moved from A to B" propose close_edge lives_in A before add_edge
// lives_in B; "moved from A" alone, "moved out of / away from A" and
// "used to live in A" propose close_edge lives_in A. "my Y place" (also
// apartment, flat, house, home, condo, loft, studio; or "Leo's Y place")
// proposes lives_in Y for the owner. "Hello from Y" (hi, hey, greetings …)
// proposes lives_in Y for the self when the same text also has a move
// word (moved, move, relocated, unpack, unpacked, unpacking, movers) and
// the event is not planned or cancelled: "Hello from Seattle! I moved
// last Saturday." A plan the self states ("I'm moving to Seattle next
// month": moving/move/relocating to) proposes nothing but remembers the
// destination; a later event of the batch in which the same person
// "moved"/"relocated" without a destination, that is not planned or
// cancelled and has not already given them a home, proposes lives_in the
// remembered place citing the move event first and the plan second, with
// ValidFrom the move event's happened start (else its mention time).
// Someone else's report of a plan ("Leo is moving to Denver")
// is not remembered. Y must not be a person, a project, a lexicon term
// or a known node of another kind. ValidFrom is otherwise left empty: the
// graph uses the event's happened start, else its mention time.
//
// Work (works_at, TargetKind organization; role). "X works at Y" (work/
// working at, work(s)/working for, start/starts/starting/started at, job
// at/with, hired by/at, employed at/by, "X's employer is Y") proposes
// add_edge works_at Y; "used to work at Y" proposes close_edge. "joined
// Y" counts only when Y is a known organization, ends with a company word
// (Labs, Inc, Corp, LLC, Ltd, Technologies, Systems, Software, Group,
// University …), is followed by "as a ROLE", or ends the clause or stands
// before a time (last, this, yesterday, in 2021, on Monday …) — not in
// "joined Dana for lunch"; a name ending with club, band, team, group,
// society, association, league, community, choir or orchestra is
// member_of instead, as is "member(s) of Y". "quit/left/leaving Y",
// "no longer work(s) at Y" and "stopped working at Y" propose close_edge
// works_at Y when Y is a known organization or an employer proposed
// earlier in the batch. A one-word organization that is the first word of
// exactly one multi-word entity of the batch or known organization is
// written in full ("Cascadia" → "Cascadia Labs"). A role is "as a ROLE"
// after the organization, "work/works/working/worked/freelance/
// freelances/freelancing/employed/hired/job as (a) ROLE" or "I'm a/am a/
// X is a ROLE" — up to four words ending with a role noun (developer,
// engineer, designer, manager, teacher, nurse …, see roleNoun), optionally
// followed by one more: set_fact role "frontend developer"; "ROLE at Y"
// right after it also proposes works_at Y ("Mia is a designer at
// Figma"). "I'm a tea person" names no role.
//
// People (TargetKind person). A relation word after an owner — my, our or
// a possessive name, with up to two adjectives between (older, little,
// best …) — followed by a name (after a space or a comma) proposes an
// edge from the owner: sister/brother/sibling/twin → sibling_of;
// mother/father/mom/mum/dad/parent → child_of; son/daughter/child/kid →
// parent_of; friend/buddy/pal → friend_of; neighbor, colleague, boss,
// partner, wife, husband, cousin, roommate … → knows. Plural words
// (friends, siblings, colleagues …) take "Priya and Dana" / "Priya,
// Dana". "Ana is my sister" reads the name before "is my". "friends with
// Y" proposes friend_of; "met Y" and "Mia and I met" propose knows from
// the self (else the first subject) to the others.
//
// Pets (has_pet, Target the pet's name). A species word (cat, dog,
// parrot, conure, rabbit, guinea pig …, see petSpecies) with: an owner
// before it and a name after it ("my cat Pixel", "my cat, Pixel", "a dog
// named Biscuit" with an owner earlier in the sentence); a name before
// "the SPECIES" (owner: the nearest first-person word or possessive name
// before the name) or before ", my SPECIES"; "NAME …, he's/she's/it's a
// [adjectives] SPECIES" (owner as before); or "adopted/got/rescued/
// bought/have a [adjectives] SPECIES" with a subject, in an event that is
// not planned, with the first name after it in the same text that does
// not follow a preposition ("I adopted a parrot! We picked up Kiwi
// yesterday" → Kiwi; "a rescue in Somerville" is skipped). A pet's name
// is never a known node, a person or project of the batch, a participant
// or the owner; pets get no node.
//
// Tools and project decisions. After use, uses, using, go/going/went
// with, settled on, switch/switched/switching/switches (over) to, migrate/
// migrated/migrating/migrates to — and "moved/moving to" when a lexicon
// term follows — the object is a lexicon term (projTerms: package
// managers npm, pnpm, Yarn, Bun; databases Postgres (also postgresql),
// SQLite, MySQL, MariaDB, MongoDB …; deploy platforms Fly.io, Heroku,
// Vercel, Render, Netlify, AWS …; editors VS Code, Neovim, Vim, Emacs …;
// drinks; tabs/spaces; diets; hobbies; and some lower-case tools), a
// lower-case product word (docker, vite …), or a capitalised name that is
// not a person, project, known non-tool node or short all-capital word
// ("API", "CI"). chose and picked take lexicon terms only. Its canonical
// spelling is the value. For a project subject or "we" (resolved to the
// decision's project): package managers, databases and deploy platforms
// become set_fact uses_package_manager/database/deploy_platform, tabs or
// spaces set_fact indentation, other tools add_edge uses (TargetKind
// tool, the tool node upserted with its category tag); editors, drinks,
// diets and hobbies are personal and propose nothing for a project. For a
// person subject: editors, drinks, tabs/spaces, diets and hobbies become
// set_fact editor/drinks/indentation/diet/hobby, anything else add_edge
// uses. "switched from A to B" (switch/switches/switching/migrated/moving
// from) needs a lexicon term on one side: B is adopted as above (a state
// key closes A by itself) and, for two plain tools, close_edge uses A
// comes first. deploy/deploys/deploying/deployed (it) on/to, host (it)
// on, hosted/hosting on and runs on make the object a deploy platform
// (lower-case "fly" and "render" count here). "instead of SQLite"
// proposes nothing: the state key replaces the old value.
//
// Personal preferences. "drink(s)/drinking X" with a drink term →
// drinks X; "indent(s)/indenting with/using tabs|spaces" → indentation;
// "a X person" with X a drink, editor or tabs/spaces term → drinks,
// editor or indentation ("I'm a tea person", "a Neovim person"), and
// nothing for "used to be a tea person" or "not a tea person". Only in an
// event of type preference, "love(s)/like(s)/enjoy(s)/prefer(s)/a (big,
// huge) fan of Y" → likes Y, and "hate(s)/dislike(s)/can't stand/not a
// fan of Y" → dislikes Y, where Y is a lexicon term's canonical value or
// up to four words after determiners, ending at a clause break or a stop
// word (and, with, in, for …) and not starting with a pronoun, "to" or a
// question word; a hobby term after like/love/enjoy is a hobby instead,
// and prefer + a drink, editor or tabs/spaces term sets that key. A
// hobby term after started, took/taking/picked up, go, goes, play, plays
// or playing → hobby ("started trail running", "play bass"). A diet term
// after I'm, am, is, went, became or gone (with "a", strictly, fully …
// between) → diet. "X visited Y", "went/flew/traveled to Y", "trip to Y"
// ("my trip to Lisbon") and "been to Y" propose visited Y (TargetKind
// place) unless the event is planned or cancelled. "working on/work(s)
// on/building Y" proposes works_on Y when Y is a project of the batch; "a
// project called Y" upserts project Y and, when the clause has a making
// verb (starting, building, made, working …), proposes works_on Y for
// its first-person subject (the self) and the persons of the batch named
// in it ("Leo and I are starting a side project called Atlas"); "a
// company/startup/firm … called Y" upserts organization Y. "Y (is)
// located/headquartered/based in Z" proposes located_in Z for a known
// organization or project Y, and "based in Z" lives_in Z for a person.
//
// Launch dates. In a sentence with launch, launches, launching, launched
// or go-live (the first such word), and an event that is not cancelled,
// the first date (events/temporal.Find against the event's mention time)
// that starts within the 12 words after it and is not negated ("not on
// May 20", as in extraction) — preferring the one that contains the
// event's TimeText — proposes set_fact launch_date on the decision's
// project with ValidFrom the event's mention time (when the date was
// decided, not the launch day itself). The value is the date as written
// without a leading on/by/for/at/in ("June 3rd"); a relative date with no
// digit or month name ("next Monday") is replaced by the day it resolves
// to (2024-06-03), and dropped when it is not a single day. "Leo's move
// is in the first week of May and neither of us wants to launch …" has no
// date after "launch" and proposes nothing.
//
// Aliases (add_alias). Only explicit evidence in one sentence: "call(s)
// me X" (an alias of the self); "A (B)" and "A (aka B)" (B of at most
// three words, then ")"); "A aka B", "A a.k.a. B", "A, also known as B",
// "A is short for B"; and "A, or B," (B ending the clause; persons
// only). Exactly one of A and B must be known — a known node (its kind)
// or a person of the batch — and the other becomes its alias; when both
// or neither are known nothing is proposed. Similar names are never
// merged.
package heuristic
