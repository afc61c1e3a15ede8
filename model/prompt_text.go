package model

// The reviewed prompt set: one place for every instruction StrataGate
// sends to a remote model. Each system text says what to do, exactly what
// code rejects, and ends with an example reply that strictly decodes into
// the task's output type (a test checks this). Each schema mirrors the
// limits the consuming package enforces (tests compare them with the
// constants of layers, events, graph, gate and extmem). Changing any text changes
// the prompt id and the golden files in testdata/prompts.

// Bounds shared with the validating packages. They are repeated here,
// not imported, because those packages import this one.
const (
	deriveTitle, deriveTags, deriveTagLen, deriveSummary = 80, 8, 32, 600
	deriveFacts, deriveFactLen, deriveFactCites          = 12, 240, 8

	cardMax, cardTitle, cardSummary, cardTags    = 48, 120, 600, 8
	cardQuotes, cardQuoteLen, cardCites          = 4, 500, 8
	cardNames, cardNameLen, cardLinks, cardTimes = 12, 64, 40, 120

	opsMax, opName, opValue, opTags, opCites = 512, 128, 256, 8, 16

	assessRefs, assessText, assessQuery = 8, 160, 256
	answerLen, answerRefs               = 600, 8

	importTargets, importReason = 20, 200 // extmem.MaxTopK, extmem.MaxReasonRunes
)

// Enumerations the prompts and schemas offer; the validating packages own
// them and their tests check these lists against theirs.
var (
	eventTypes = []string{"decision", "preference", "plan", "change", "cancellation", "meeting",
		"life_event", "activity", "task_completed", "incident", "migration", "fact", "other"}
	eventStatuses = []string{"completed", "planned", "cancelled", "ongoing", "unknown"}
	criticalities = []string{"routine", "preference", "identity", "safety"}
	nodeKinds     = []string{"person", "project", "organization", "tool", "place", "topic"}
	graphOps      = []string{OpUpsertNode, OpAddAlias, OpSetFact, OpCloseFact, OpAddEdge, OpCloseEdge}
	factKeys      = []string{"database", "decision", "deploy_platform", "diet", "dislikes", "drinks",
		"editor", "hobby", "indentation", "job_title", "launch_date", "likes", "role", "skill",
		"status", "uses_package_manager", "uses_tool"}
	relations = []string{"child_of", "friend_of", "has_pet", "knows", "lives_in", "located_in",
		"member_of", "parent_of", "sibling_of", "uses", "visited", "works_at", "works_on"}
	verdicts      = []string{"sufficient", "partial", "wrong"}
	importActions = []string{ImportAdd, ImportMerge, ImportSupersede, ImportConflict, ImportIgnore}
	strategies    = []string{"answer", "search_events", "expand_event", "search_graph",
		"expand_graph_node", "search_raw_memory", "expand_block"}
)

// refPattern is a gate ref: e (event), m (message), n (node) or b (block)
// and a decimal id without a leading zero.
const refPattern = "^[emnb][1-9][0-9]*$"

// Enums returns the enumeration a prompt's schema offers for name
// ("event_type", "status", "criticality", "kind", "op", "key", "relation",
// "verdict", "next_strategy", "action"), for the validating packages'
// tests.
func Enums(name string) []string {
	return map[string][]string{
		"event_type": eventTypes, "status": eventStatuses, "criticality": criticalities,
		"kind": nodeKinds, "op": graphOps, "key": factKeys, "relation": relations,
		"verdict": verdicts, "next_strategy": strategies, "action": importActions,
	}[name]
}

func init() {
	register(&Prompt{Task: TaskDeriveBlock, System: deriveSystem, Lead: "Block:\n", MaxTokens: 2048, Schema: mustJSON(object(schema{
		"title":   strMin(1, deriveTitle),
		"tags":    schema{"type": "array", "minItems": 1, "maxItems": deriveTags, "items": strMin(1, deriveTagLen)},
		"summary": strMin(1, deriveSummary),
		"facts": array(object(schema{
			"text":        strMin(1, deriveFactLen),
			"message_ids": schema{"type": "array", "minItems": 1, "maxItems": deriveFactCites, "items": schema{"type": "integer", "minimum": 1}},
		}, "text", "message_ids"), deriveFacts),
	}, "title", "tags", "summary", "facts"))})

	register(&Prompt{Task: TaskExtractEvents, System: extractSystem, Lead: "Input:\n", MaxTokens: 8192, Schema: mustJSON(object(schema{
		"events": array(object(schema{
			"title":          strMin(1, cardTitle),
			"summary":        strMin(1, cardSummary),
			"tags":           array(strMin(1, cardNameLen), cardTags),
			"quotes":         array(strMin(1, cardQuoteLen), cardQuotes),
			"message_ids":    schema{"type": "array", "minItems": 1, "maxItems": cardCites, "items": schema{"type": "integer", "minimum": 1}},
			"event_type":     enum(eventTypes...),
			"status":         enum(eventStatuses...),
			"participants":   array(strMin(1, cardNameLen), cardNames),
			"entities":       array(strMin(1, cardNameLen), cardNames),
			"criticality":    enum(criticalities...),
			"time_text":      str(cardTimes),
			"supersedes":     ids(cardLinks),
			"conflicts_with": ids(cardLinks),
		}, "title", "summary", "quotes", "message_ids", "event_type", "status"), cardMax),
	}, "events"))})

	register(&Prompt{Task: TaskProjectGraph, System: projectSystem, Lead: "Batch:\n", MaxTokens: 4096, Schema: mustJSON(object(schema{
		"ops": array(object(schema{
			"op":          enum(graphOps...),
			"kind":        enum(nodeKinds...),
			"name":        strMin(1, opName),
			"alias":       str(opName),
			"tags":        array(strMin(1, opName), opTags),
			"key":         enum(factKeys...),
			"value":       str(opValue),
			"relation":    enum(relations...),
			"target":      str(opName),
			"target_kind": enum(append([]string{""}, nodeKinds...)...),
			"valid_from":  str(40),
			"event_ids":   schema{"type": "array", "minItems": 1, "maxItems": opCites, "items": schema{"type": "integer", "minimum": 1}},
		}, "op", "kind", "name", "event_ids"), opsMax),
	}, "ops"))})

	register(&Prompt{Task: TaskAssessEvidence, System: assessSystem, Lead: "Batch to judge:\n", MaxTokens: 512, Schema: mustJSON(object(schema{
		"verdict":       enum(verdicts...),
		"evidence_refs": array(pattern(refPattern), assessRefs),
		"fit":           str(assessText),
		"missing":       str(assessText),
		"next_strategy": enum(strategies...),
		"next_query":    str(assessQuery),
		"next_target":   schema{"type": "string", "maxLength": 24},
	}, "verdict", "evidence_refs", "fit", "missing", "next_strategy"))})

	register(&Prompt{Task: TaskAnswer, System: answerSystem, Lead: "Question and evidence:\n", MaxTokens: 400, Schema: mustJSON(object(schema{
		"answer": strMin(1, answerLen),
		"refs":   schema{"type": "array", "minItems": 1, "maxItems": answerRefs, "items": pattern(refPattern)},
	}, "answer", "refs"))})

	// An import decision is a short judgment: 20 ids and a 200-character
	// reason fit in well under 256 tokens; the rest is slack for spacing.
	register(&Prompt{Task: TaskImportDecide, System: importDecideSystem, Lead: "Candidate and existing events:\n", MaxTokens: 384, Schema: mustJSON(object(schema{
		"action":     enum(importActions...),
		"target_ids": ids(importTargets),
		"confidence": schema{"type": "number", "minimum": 0, "maximum": 1},
		"reason":     strMin(1, importReason),
	}, "action", "target_ids", "confidence", "reason"))})
}

const deriveSystem = `You derive compact views of one block of a conversation for a memory engine.
Reply with exactly one JSON object and nothing else (no prose, no code fence):
{"title": string, "tags": [string], "summary": string, "facts": [{"text": string, "message_ids": [integer]}]}
- title: 1-80 characters naming what the block is about.
- tags: 1-8 distinct lower-case tags of 1-32 characters.
- summary: 1-600 characters; keep dates, names and numbers exactly as written.
- facts: 0-12 key facts of 1-240 characters, each citing 1-8 "id" values of messages in this block that state it.
Code rejects the whole reply if a fact cites an id that is not a message of this block, if a field is empty or too long, or if a tag repeats.
Example reply:
{"title":"Choosing a database for the billing service","tags":["database","billing"],"summary":"The user asks which database to use for billing; the assistant recommends PostgreSQL for its transactions.","facts":[{"text":"PostgreSQL was recommended for the billing service.","message_ids":[2]}]}`

const extractSystem = `You extract lasting event cards from one block of a conversation for a memory engine.
Reply with exactly one JSON object and nothing else (no prose, no code fence): {"events": [event, ...]} with 0-48 events, each:
{"title": 1-120 chars, "summary": 1-600 chars, "tags": [0-8 lower-case strings],
 "quotes": [0-4 spans copied verbatim from the cited messages, 1-500 chars each],
 "message_ids": [1-8 ids from "messages" only],
 "event_type": decision|preference|plan|change|cancellation|meeting|life_event|activity|task_completed|incident|migration|fact|other,
 "status": completed|planned|cancelled|ongoing|unknown,
 "participants": [people who took part: a cited message's speaker or a name written in it],
 "entities": [other names written in the cited messages],
 "criticality": routine|preference|identity|safety,
 "time_text": the time expression exactly as written in a cited message ("last Saturday", "in May 2023") or "",
 "supersedes": [ids from "existing" that this event replaces], "conflicts_with": [ids from "existing" it contradicts]}
Code rejects a card that cites a message outside "messages" (the "before" and "after" messages are context only), a quote that is not a verbatim span of a cited message, a participant or entity not written in a cited message (or its speaker), a link to an id not in "existing", or a field that is empty or too long.
Never invent or compute a date: copy the words into time_text and code resolves them against the message's time.
Example reply:
{"events":[{"title":"Team moves the launch to June","summary":"The user says the launch moved from May to June because testing slipped.","tags":["launch"],"quotes":["we moved the launch to June"],"message_ids":[7],"event_type":"change","status":"completed","participants":["Dana"],"entities":[],"criticality":"routine","time_text":"June","supersedes":[],"conflicts_with":[]}]}`

const projectSystem = `You maintain a current-state graph of people, projects, organizations, tools, places and topics from a batch of event cards.
Reply with exactly one JSON object and nothing else (no prose, no code fence): {"ops": [op, ...]} with 0-512 ops, each:
{"op": upsert_node|add_alias|set_fact|close_fact|add_edge|close_edge,
 "kind": person|project|organization|tool|place|topic, "name": the node's name (1-128 chars),
 "alias": another name of the node (add_alias), "tags": [0-8 strings] (upsert_node),
 "key": a fact key and "value": its value, up to 256 chars (set_fact, close_fact),
 "relation", "target": the other node's name, "target_kind": its kind or "" for a plain value (add_edge, close_edge),
 "valid_from": RFC 3339 time the fact or edge became true, or "" to use the cited event's time,
 "event_ids": [1-16 "id" values of events in the batch that state it]}
Fact keys: database, decision, deploy_platform, diet, dislikes, drinks, editor, hobby, indentation, job_title, launch_date, likes, role, skill, status, uses_package_manager, uses_tool.
Relations: child_of, friend_of, has_pet, knows, lives_in, located_in, member_of, parent_of, sibling_of, uses, visited, works_at, works_on.
"I" and "my" in an event mean its speaker. Refer to existing nodes by the name or alias given in "nodes".
Code rejects an op that cites an event not in the batch, uses another key or relation, or names a node kind not listed; rejected ops are dropped, the others applied.
Example reply:
{"ops":[{"op":"upsert_node","kind":"person","name":"Dana","event_ids":[12]},{"op":"set_fact","kind":"person","name":"Dana","key":"editor","value":"vim","event_ids":[12]},{"op":"add_edge","kind":"person","name":"Dana","relation":"works_on","target":"Billing","target_kind":"project","valid_from":"","event_ids":[12]}]}`

const assessSystem = `You are the evidence gate of a memory engine: you judge whether one batch of retrieved evidence is enough to answer a question. Relevant is not sufficient: the evidence must state the answer itself.
Reply with exactly one JSON object and nothing else (no prose, no code fence):
{"verdict": sufficient|partial|wrong, "evidence_refs": [refs], "fit": string, "missing": string, "next_strategy": strategy, "next_query": string, "next_target": ref}
- verdict: sufficient when the cited items together state the answer (for a "when" question, the time it happened; for a count, every instance); partial when they help but something is missing; wrong when the batch is off the question.
- evidence_refs: 0-8 "ref" values of "items" that the answer rests on. Items in "earlier" were judged before and are context only.
- fit: up to 160 characters: how the cited items answer the question.
- missing: up to 160 characters: what is still needed ("" when sufficient).
- next_strategy: answer (only with sufficient), search_events, search_raw_memory, search_graph (with a next_query of up to 256 characters), or expand_event, expand_graph_node, expand_block (with a next_target ref: e for expand_event, n for expand_graph_node, m or b for expand_block). Do not repeat a step listed in "tried".
Times: "mentioned_at" is when an item was said; "happened" is when it took place, resolved from "time_text". Answer "when" questions with the time it happened.
Code enforces: a ref not in "items" is dropped; more than 8 refs are dropped; sufficient without refs or without next_strategy answer becomes partial; longer texts are cut.
Example reply:
{"verdict":"sufficient","evidence_refs":["e12","m345"],"fit":"e12 says the launch moved to June; m345 is the message stating it.","missing":"","next_strategy":"answer","next_query":"","next_target":""}`

const answerSystem = `You answer a question from the evidence a memory engine's gate judged sufficient.
Reply with exactly one JSON object and nothing else (no prose, no code fence): {"answer": string, "refs": [refs]}
- answer: 1-600 characters, short and direct, using only what the evidence states; for a "when" question give the time it happened as a date or period, not the time it was mentioned.
- refs: 1-8 "ref" values of the evidence items the answer uses.
Code rejects a reply whose refs are not all among the evidence given, that cites nothing, or whose answer is empty or too long.
Example reply:
{"answer":"The launch moved to June.","refs":["e12"]}`

const importDecideSystem = `You decide how one memory imported from another assistant relates to the memory engine's existing events.
Reply with exactly one JSON object and nothing else (no prose, no code fence):
{"action": add|merge|supersede|conflict|ignore, "target_ids": [integer], "confidence": number, "reason": string}
- add: the candidate is new information that no existing event holds. target_ids is [].
- merge: an existing event is the same memory and the candidate adds compatible detail; both stay true. target_ids: the events it merges with.
- supersede: an existing event holds the same slot (the same preference, setting, plan or date) and the candidate is a newer value that replaces it. target_ids: the events it replaces.
- conflict: the candidate contradicts an existing event and you cannot tell which one is right. target_ids: the events it contradicts.
- ignore: an existing event already says the same; the candidate adds nothing. target_ids: that event, or [].
- target_ids: 0-20 "id" values chosen only among "existing"; at least one for merge, supersede and conflict; none for add.
- confidence: a number from 0 to 1: how sure you are of the action and its targets.
- reason: one line of 1-200 characters saying why.
"mentioned_at" is when the user said a thing; "happened_start" and "happened_end" bound when it took place ("" means unknown). A later mention of a different value in the same slot is a supersede, not a conflict.
Code rejects a reply with another action, an id not in "existing", targets missing for merge, supersede or conflict, targets given for add, or a confidence outside 0-1; a longer reason is cut.
Example reply:
{"action":"supersede","target_ids":[12],"confidence":0.9,"reason":"Existing event 12 says the user's editor is Vim; the candidate says they switched to Helix later."}`
