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
// Only model.TaskDeriveBlock is supported. Its Input must be a
// *model.DeriveInput or a model.DeriveInput. Any other task, a nil or
// missing input, or an input of another type yields an error wrapping
// ErrUnsupported. If the context is done before or after deriving,
// Complete returns ctx.Err() and no output.
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
package heuristic
