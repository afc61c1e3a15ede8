// Package gate is StrataGate's evidence gate: a fixed, bounded protocol
// between retrieval and answering, with the loop that drives it. It knows
// retrieval results and assessments, not storage: the application supplies
// a Retriever (its own search/expand calls), an Assessor (a model, or the
// offline HeuristicAssessor) and an Answerer (a model, or the offline
// HeuristicAnswerer), and keeps control of model calls and of the budget.
// Everything here is pure and deterministic: no I/O, no clock except
// NewSession and Run, which analyse the question at time.Now() (use
// Analyze with a fixed time plus NewSessionQuestion/RunQuestion for
// reproducible runs).
//
// # Protocol
//
// Every retrieval step yields a Batch with its own id. Session ids come
// from a process-wide counter and batch ids are "s<session>-b<k>" (k from
// 1 within the session), so concurrent sessions never share a batch id
// and one session's refs are never items of another's batch. The counter
// restarts with every process; NewSessionPrefix (and RunSession) put a
// caller's prefix before it, for ids that must stay unique across
// processes (stratagate's Memory.NewSession and Ask do). Items are
// addressed by refs: "e<EventID>", "m<message id>", "n<NodeID>",
// "b<BlockID>" (see ParseRef: letter e/m/n/b, then a decimal id without
// sign or leading zero; "e0", "E1", "e01" are malformed).
//
// An Assessment answers five fields — Verdict, EvidenceRefs, Fit, Missing,
// NextStrategy — plus an optional NextQuery and NextTarget. Validate(b, a)
// enforces, in code:
//
//   - a.BatchID must equal b.ID (and b.ID must be set), else an error
//     wrapping ErrWrongBatch; a nil batch, an unknown or empty verdict or
//     strategy are errors wrapping ErrInvalidAssessment. Nothing else is
//     an error: the rest is normalised.
//   - Refs, in order, after trimming surrounding white space: a malformed
//     ref is rejected as invalid_ref; a ref already mentioned earlier in
//     the list as duplicate; a ref that is not an item of b (including
//     refs of another batch or session) as not_in_batch; a valid ref once
//     8 are accepted as limit_exceeded. Invalid refs do not use up the
//     limit, so up to 8 valid refs are always kept. Rejected refs are
//     listed in RejectedRefs with their reason, as written.
//   - Fit and Missing are trimmed and truncated to 160 runes on a rune
//     boundary (truncated, not refused: the judgment stays usable);
//     NextQuery likewise to 256 runes.
//   - sufficient is accepted only with ≥ 1 accepted ref and NextStrategy
//     answer. Otherwise it becomes partial: with a non-answer strategy that
//     strategy is kept; with answer but no valid ref the strategy becomes
//     the batch's channel switched (events → search_raw_memory, raw →
//     expand_block of a message/block item of the batch, else
//     search_graph; block → search_graph; graph → search_events), and an
//     empty Missing becomes "evidence refs from batch <id>".
//   - partial and wrong never carry answer: it becomes search_raw_memory
//     when the batch came from search_events, search_events otherwise.
//   - An expand_* strategy needs a NextTarget that is an item of b of the
//     right kind (expand_event: event; expand_graph_node: node;
//     expand_block: message or block). Otherwise the first fitting
//     accepted ref, then the first fitting item of b, is used; with none,
//     the strategy becomes its channel's search (search_events,
//     search_graph, search_raw_memory). NextTarget is cleared for
//     non-expand strategies, NextQuery for non-search ones, both for
//     sufficient.
//   - The accepted assessment gets the id "<batchID>-a1" (one assessment
//     per batch).
//
// # Loop
//
// Session is the step-by-step driver; Run/RunQuestion drive it with the
// three interfaces. Budget.Rounds (default 4, at most 12) bounds the
// retrieval rounds; Budget.MaxItems (default 10) the items of a batch that
// reach the assessor (the retriever's first ones). Rules:
//
//   - The first step is search_events with the question's expanded Query.
//   - Observe assigns the batch id, stamps the step on the batch, drops
//     items with malformed or repeated refs, derives Kind from the ref and
//     marks New the refs not seen in an earlier batch; the trace counts
//     them (NewItems).
//   - The next step is the assessor's request (NextStrategy with
//     NextQuery — the question's Query when empty — or NextTarget) when it
//     is executable, not a repeat, and, if the last batch added no new
//     item, in a channel not used yet in the session (so a dry session
//     walks every channel instead of bouncing between two). Otherwise the session switches channel in
//     the order events → raw source (search_raw_memory) → block expansion
//     (expand_block of the best message: cited first, then by Score) →
//     graph (search_graph, then expand_graph_node) → events, starting after
//     the last batch's channel and taking the first executable, non-repeated
//     candidate (queries tried: NextQuery, Query, the unexpanded Terms, the
//     question text). With no new evidence the last channel is tried only
//     after all others. When nothing is left, the session ends.
//   - A repeat is the same strategy with the same normalised query (its
//     bm25 terms, deduplicated and sorted; "Mia pets" = "pets of Mia") or,
//     for expansions, the same target. Expansions need a target seen in
//     the session.
//   - The session ends at an accepted sufficient assessment, when the
//     rounds are spent, or when no step is left. Only sufficient is
//     answered: the Answerer receives the cited set — the refs of the
//     sufficient assessment, then those earlier assessments cited (at
//     most MaxRefs) — and Result.Evidence is that set with the items the
//     answer used first, then the window they were read from (their
//     context items), then the rest, bounded to MaxRefs items and, past
//     the used ones, MaxEvidenceMessages source messages.
//     Result.SufficientRefs are the refs a use may adopt. Otherwise the
//     Result is partial, Missing comes from the latest partial
//     assessment (else the latest), Text is "not enough evidence:
//     missing <missing>" and Evidence is what the assessments cited (the
//     first finding of each, latest first, then the second…; a finding
//     is an item with the context cited after it; at most MaxRefs):
//     found, not answered — never an invented answer. An empty answer
//     text is treated the same way (missing "an answer supported by the
//     cited evidence").
//   - Context items (Item.Of set) ride with the item they accompany:
//     kept only when it is, not counted in Budget.MaxItems nor in
//     NewItems. An item and its context items are linked (one finding).
//
// # Question analysis
//
// Analyze(question, now) finds, from the lexicon in lexicon.go:
//
//   - WH: an English wh-phrase at the start, after a lead-in of auxiliary,
//     pronoun, preposition and imperative words ("Do you remember when",
//     "In which city", "Can you tell me what"); when the first word is an
//     auxiliary and no wh-phrase follows the lead-in, yes_no; otherwise
//     the first wh-phrase anywhere ("Ana gave a speech when?"); then
//     the Chinese question words (什么时候, 多久, 哪些, 谁, 哪里, 为什么,
//     什么…) anywhere; then a final 吗 (yes_no); else other. "what/which
//     date|day|week|month|year|time" and "since when" are when; "how long
//     ago" is how_long with WantsTime; "how much/often" are how_many.
//   - WantsTime: when, what date/year…, how long ago, 什么时候, 哪天….
//   - WantsList: how many, 哪些, which/what followed by a plural noun
//     ("which pets", "what kinds"), "what are/were", a list/name
//     imperative, or the words all/every/list.
//   - Entities: capitalised words, adjacent ones merged ("New York"),
//     possessive 's removed; not month/weekday names, "I", words of time
//     expressions, lead-in and wh words, nor a sentence-initial stopword.
//   - Time: the first time expression temporal.Find reports as Known,
//     resolved against now (with a zero now, only explicit dates).
//   - Terms: the bm25 terms of the question without the lead-in, the
//     wh-phrase and the time expressions (those are carried by WH and
//     Time), deduplicated.
//   - Expanded: each term followed by the base and irregular past forms of
//     its verb ("give" → gave, given), its bm25 Chinese–English synonyms,
//     and the concept members of the term and of its synonyms. Query is
//     Expanded joined by spaces (index-form terms, for retrieval).
//   - Current: the question asks for the present state. Current-state
//     markers — now, currently, current, nowadays, presently, still,
//     anymore, "these days", "at the moment", "at present", "right now",
//     "as of now", "any more", 现在, 目前, 如今, 当前, 眼下 — set it and are
//     removed from the content terms; so does a present-tense auxiliary
//     (do/does/is/are/am/has/have and their negations; the first
//     auxiliary of the question decides the tense). Never with a
//     past-tense auxiliary (did, was, were, had) or a past marker (used,
//     ago, previously, formerly, originally, initially, before, earlier,
//     ever) — those set Past —, never for time, why and how_long
//     questions, nor with a time of the question's own. A present-tense
//     question whose time contains now ("Where does Leo live today?")
//     drops that time and is Current.
//   - Alternatives: the single-term words on both sides of "or" ("tea or
//     coffee", "Vim or Emacs"), when there are two or more. Alternatives
//     that are entities count as one entity for coverage (one of them is
//     enough).
//   - Head: the wh-noun — the words after which/what (one-word phrase),
//     after how many, or after a list command, skipping stopwords before
//     it and "kind/type/sort of", up to an auxiliary, lead-in word,
//     stopword, wh-word, removed word or capitalised word (3 words at
//     most): "which package manager does" → package, manager.
//   - Topic: the Terms that are not entity terms (either-or alternatives
//     excepted) nor reporting verbs (say, tell, talk, mention, speak,
//     discuss, think, know, happen, ask, remember, recall): what evidence
//     must cover besides the entity.
//
// Concept lexicon (key words → members; one-way):
//
//	pet, animal       → cat, dog, parrot, hamster, fish, rabbit, bird, conure, kitten, puppy
//	family, relative  → sister, brother, mother, father, parent, son, daughter, wife, husband, cousin, aunt, uncle
//	job, work, career → work, job, employer, company, office, career, hired, role
//	home, live        → live, move, moved, city, apartment, house
//	drink, beverage   → coffee, tea, juice, beer, wine
//	tool              → editor, IDE, library, framework, package, manager, formatter,
//	                    linter, compiler, debugger, terminal, container, monitoring, dashboard
//	travel            → trip, visit, flight, vacation, holiday
//	hobby, pastime    → hobby, play, game, sport, music
//	speech            → talk, presentation, lecture, keynote
//
// plus about fifty irregular verbs (give/gave/given, go/went/gone, …).
// All entries are tokenized with bm25.AppendTerms, so they match index
// terms (stemmed English, bigrammed Chinese).
//
// # Heuristic assessor
//
// HeuristicAssessor judges a batch by lexical coverage. An item's terms are
// those of its title, text, quote, speaker and facts (irregular verb forms
// mapped to their base); an item linked to an item cited by an earlier
// assessment (a shared message id, event id or node id — a source message
// of a cited event) also gets that item's terms. A question term is
// covered by an item holding it or one of its expansions; an entity by an
// item holding all its terms. Relevant items cover a term (any item when
// the question has no terms), a Topic term when the question has some (an
// item naming only the entity is not about the question), a Head term for
// a list question with a wh-noun, at least one entity when the question
// names some, and, when the question has a known Time, are not dated
// outside it. An item is dated for the question as described in "Dates of
// messages" below; when some item covers every entity, only such items,
// or items linked to one in the batch, are dated. The up to 8 best (most
// terms plus entities, then dated for time questions, then for past-tense
// time questions a report before a plan, then Score, then batch order;
// for current-state, either-or and where-questions the order of rankState
// below) are the evidence refs, dated ones first for time questions.
// Coverage is the fraction of Terms covered by them, each term weighted by
// Question.Weights when the caller sets them (Memory.Ask sets each term's
// idf over the stored messages, so that covering "go" in "When did Katarina
// go to the museum?" is not most of the question), by 1 otherwise. With
// weights, the Topic term of highest weight (the rarest word the question
// is about) must be covered for a sufficient verdict.
//
//   - No relevant item, or coverage < 0.3: wrong, no refs, Missing
//     "events about <entities, words>", next channel.
//   - Coverage ≥ 0.6, every entity covered, the key Topic term covered
//     (with weights), a dated item when WantsTime,
//     when WantsList ≥ 2 items of distinct sources once the raw source
//     was searched (items linked to each other count once; cards alone
//     may hold only some items; one item is enough in the last round or
//     once both the raw source and a block expansion were searched), not a plan
//     only (below), a settled current state (below), and — for a
//     content answer (no time, list or current-state question) — an item
//     quoting a message or the graph, else a search of the raw source
//     done ("the source messages (only event cards found)"): sufficient,
//     answer.
//   - Otherwise partial, with Missing "evidence mentioning <entity>",
//     "evidence about <uncovered words>", "occurrence date", "other items
//     of the list", "a report of the occurrence (only a plan found)" or
//     "the current state (latest evidence)", and the next channel (events
//     → search_raw_memory; raw → expand_block of a cited, else listed,
//     message not yet expanded, else search_graph; block → search_graph;
//     graph → search_events, but search_raw_memory for a current-state
//     question whose raw source was not searched yet). For a missing date:
//     expand_event of the first undated event not yet expanded, else
//     search_raw_memory with the entities and the event's own
//     quote/title/text, to reach the source message, whose timestamp
//     resolves relative dates.
//   - Plan only: a past-tense time question (Past) whose best dated item
//     is a plan, in the first round and not the last: search_raw_memory
//     with the entities and the words of the best dated report among the
//     relevant items (a report lacking some question word ranks below the
//     plan; its source message may say the rest), else the Query. A plan
//     is accepted from the second round on.
//   - Unsettled current state: for a current-state question (below) whose
//     pick is not settled, outside the last round: search_graph when the
//     graph was not searched yet, else search_raw_memory when the raw
//     source was not; with both searched the pick is accepted.
//
// Windows, subjects, types and slots (window.go, subject.go,
// novelty.go, framing.go, dates.go, duration.go): an item is judged with
// the context items that add a question term or entity, and with the
// reply when it only asks (questionOnly: every sentence ends in "?"); a
// message that only asks, without its reply, is not relevant. Names that
// only address the listener ("Thanks, Sam!") are blanked before terms
// are read (stripVocatives). A question's explicit time excludes items
// neither dated nor said within it; a relative one ranks the items in
// time first. For a single (non-list) answer, one item with its window
// must reach the coverage bar (SufficientCoverage for time questions,
// SufficientContentCoverage otherwise), hold the key term (or all topic
// terms but one, of three or more; or, dated, half of four or more for a
// time question) and, outside time questions, all but a third of the
// main-clause topic terms (purpose-clause terms not counted); be about
// the subject — the first entity that is no alternative — through a
// member spoken by them or naming them that covers a topic term (a reply
// is about what its question asked); hold the asked type (who → a
// capitalised name that is no calendar word or question word, or a
// relation noun; where → a name or place noun; how much/often/long → a
// number); and fill the slot (why and what-inspired/motivated/led/caused
// questions: a cause cue; feel/felt questions: a feeling word; other
// what/which/how questions: a content word that is not the question's,
// its entities', the speaker's, a time expression's or a generic verb's).
// Missing then says "evidence by or about <subject> naming a person" and
// the like. Between-questions need a dated item for each side ("the
// dates of both events"); see duration.go.
//
// Fit reads like "3/4 question terms and all entities covered by e12, m45;
// date from m45".
//
// # Heuristic answerer
//
// HeuristicAnswerer answers only from the evidence given. Quotes are
// focused (see "Focus" below).
//
//   - WantsTime: the first dated item's interval (RenderInterval: "7 May
//     2023", "the week of 29 May 2023", "May 2023", "summer 2023", "2022",
//     "7 May 2023 at 15:30", "1–10 June 2023"), then in parentheses
//     "moved from <day>" for a changed date (below), its quote (else
//     title, else text) and, when the mention time lies outside the
//     interval, "said on <day>". Dated means as for the assessor: when
//     some item covers every entity, only such items or items linked to
//     one date the answer. Used: that item and the cited events sharing a
//     source message with it.
//   - WantsList: the short titles (else quotes) of the list items —
//     those covering a Head term when the question has a wh-noun, else a
//     Topic term, else any question term (all items when the question has
//     no terms); an item naming only the entity is not a list item; for a
//     Current question wishes (below) are dropped when other items remain
//     —, deduplicated, joined with "; "; how_many prefixes the count ("2:
//     …"). Used: those items.
//   - Current-state, either-or and where-questions: the first item of
//     rankState. A graph node answers with its facts covering a Topic
//     term or alternative (all facts when none does) and its name; a
//     single "key: value" fact puts its value first ("Seattle (Leo Park —
//     lives_in: Seattle)"). Otherwise its quote, followed in parentheses,
//     for Current and either-or questions, by "said on <day>" and by
//     "earlier: "<quote>" on <day>" for the former state (earlierState).
//     An either-or answer starts with the supported alternative as the
//     question wrote it: `coffee ("…"; said on 8 May 2024; earlier: …)`.
//     Used: the pick and the earlier item.
//   - Otherwise: the quote (else title, else text) of the item covering the
//     most terms (then the higher Score). Used: that item.
//
// It returns an empty text when it cannot answer (no evidence, or a time
// question without a dated item); Run then reports not enough evidence.
//
// # Current state, lists and relations
//
// These rules (state.go) are shared by the heuristic assessor and
// answerer. A current-state question is Current or either-or, and neither
// a time nor a list question.
//
// rankState orders the items for a single current-state, either-or or
// where answer. Candidates are narrowed tier by tier, a tier applying only
// when some candidate passes it:
//
//  1. Current questions: graph nodes covering a Topic term through their
//     title or facts — the graph holds the current state, with superseded
//     values already replaced.
//  2. Items covering a Head term (the wh-noun: "package manager").
//  3. Either-or: items naming an alternative (or nodes); then items that
//     support one (altSupport).
//  4. Where-questions about living (live, home, move, stay, reside, house,
//     apartment, city, based) or working (work, job, employer, employ,
//     career, office, company): items with a relation cue of that kind
//     followed by a name (after an optional the/a/an), not attributed to
//     someone else (graph nodes pass too). Location cues: live/lives/living/lived in, moved/
//     moving/move/moves/relocated/relocating to, based/settled in,
//     stay/stays/staying in, reside/resides in, and the dwelling nouns
//     apartment/house/home/place/flat in (attributed to the speaker).
//     Employer cues: work/works/working/worked at|for, employed at|by, job
//     at, joined, joining, start/starts/started/starting at, hired by|at,
//     engineer/developer/intern at. The cue's subject is the word before
//     it, skipping auxiliaries and adverbs (has, is, just, now, recently,
//     finally…): a first-person subject (I, I'm, we…) is the speaker; a
//     capitalised name (with the capitalised words before it) is compared
//     with the question's entities by shared term; a pronoun or other
//     word is unknown. Attribution: the entity (confirmed) > unknown >
//     someone else.
//
// Within the tier: attribution first (where-questions); then, for Current
// and either-or questions, nodes, then the latest statement (MentionedAt,
// else HappenedStart; unknown last); then coverage (terms plus entities),
// Score, input order. The other items follow by coverage and Score.
//
// altSupport: an alternative mentioned within four words after an old
// marker (used, longer, not, no, never, stopped, quit, instead, from,
// replaced, without, formerly, goodbye, dropped, ditched, abandoned, or a
// negated auxiliary), with no other alternative in between, is the former
// state ("used to be a tea person", "coffee instead of tea", "switched
// from npm to pnpm"); one mentioned otherwise is current. A single current
// alternative is supported; with none current and exactly one former of
// two alternatives, the other one is; otherwise none (ambiguous).
//
// earlierState: among the items on the topic (tiers 1–3 before the
// support narrowing, not attributed to someone else, no nodes), the
// oldest one said on an earlier day than the pick and not linked to it,
// preferring one supporting another alternative.
//
// Settled: the pick is a graph node; or it is not a plan and it supports
// an alternative, states a change (change cues: now, currently, nowadays,
// anymore, no longer, used to, instead of, switched, switch to, switches,
// switching, replaced, replaces, replacing, moved, moves to, relocated,
// migrated, changed, stopped, quit, gave up, correction, updated), is the
// only item of its tier, or all items of its tier were said on its day.
//
// Plans and reports: an item is a plan when it is dated after the day it
// was said, or worded in the future or as a wish: will, 'll, gonna, soon,
// tomorrow, intend(s), "going to", "next" before week/weekend/month/year/time/day/
// a season or calendar word, plan/plans/planning/planned before "to" or
// "on", or a be-form (I'm, is, are…) before moving/switching/relocating/
// changing/leaving/starting/joining/migrating, or a wish: maybe, might,
// considering, "thinking about/of", "hoping to", "want(s) to". A report
// is a dated item that is not a plan.
//
// Dates of messages: a message with Times is dated by sentenceTime
// (dates.go): the time of its sentence most about the question (Topic
// terms covered; an explicit time before the message-day "said" basis),
// else that of a scene-setting question or short sentence right before
// it, else that of the next best sentence covering a Topic term; none
// leaves it undated. Without Times, the first time expression dates the
// message only when the sentence, or the label before a colon ("Summary
// for tonight: …"), holding it covers a Topic term (any question term
// without Topic). A range introduced by a change
// verb (move, postpone, push, shift, change, reschedule, delay, slip, in
// any form) — "moves from 20 May to 3 June" — is a change of date: the
// date is its last day and the first is the former one.
//
// Focus: an answer quotes a message's full text (not its clipped Quote),
// other items their quote/title/text; a text over 120 runes is replaced
// by its sentence — then, if still too long, its clause (cut at , ; : —
// and sentence ends) — covering the most question terms (Topic terms count
// twice) and entities, the one holding the date's time expression first
// for time answers. Leading list dashes and trailing clause punctuation
// are trimmed.
package gate
