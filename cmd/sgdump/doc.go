// Command sgdump inspects and audits a StrataGate file: what it holds, where
// every derived level came from, and whether its records still agree with
// each other.
//
// Usage:
//
//	sgdump [-db FILE] [-json] [-timeout D] COMMAND [ARGS]
//
// sgdump never writes, except "serve -write" (below). It opens the file read-only (stratagate.Options
// ReadOnly), which needs a shared lock: while a writer process holds the
// file it waits at most -timeout (default 2s; 0 waits indefinitely), then
// exits 3. The global flags may also follow the command name
// ("sgdump verify -json"). Flags and positional arguments may be mixed
// ("sgdump block 7 -level 3"); "--" ends the flags.
//
// # Commands
//
//	stats [-sizes]             file size, format version, record counts per bucket,
//	                           block states, event cards, graph nodes, facts and
//	                           edges, queued and failed jobs; -sizes adds every
//	                           bucket's key and value bytes and pages (largest
//	                           first) and the file's bytes per message and turn
//	threads                    every thread: scope, turns, blocks, open tail
//	blocks [-thread T]         sealed blocks with state, turns, times and L0 title;
//	                           every thread when -thread is omitted
//	block ID [-level L]        one level of one block; L is L0–L5 or 0–5, default L4.
//	                           L0–L2 of a block not yet derived exit 1
//	trace block ID             the block's every level (L0 title and tags, L1 summary,
//	                           L2 facts with the messages they cite, L3, L4) and its
//	                           L5 messages: id, turn, role, speaker, RFC 3339 time with
//	                           the original offset, verbatim text and SHA-256
//	                           recomputed, "ok" or "MISMATCH" against the stored hash;
//	                           the block's L5 hash likewise
//	trace message ID           one message verbatim with its hash, its block (or the
//	                           open tail it is in) and the L2 facts citing it
//	events [-thread T] [-q QUERY] [-scope S]... [-n N]
//	                           event cards: id, type, status, lifecycle, mention time,
//	                           happened interval with its precision, title. Without -q
//	                           every card in id order (-n N: the newest N; -scope and
//	                           -thread filter); with -q Memory.SearchEvents ranks them
//	                           (-n: at most N, default 10; -scope repeats, default every
//	                           scope of the file's threads). A read-only Memory does not
//	                           log the search
//	event ID                   one card in full (Memory.ExpandEvent): both clocks (when
//	                           it was mentioned, when it happened), quotes, participants,
//	                           entities, criticality, lifecycle, the cards it supersedes,
//	                           is superseded by or conflicts with (with their titles),
//	                           its use weight, its block's L1 summary and cited messages
//	trace event ID             the card's provenance: its source block (id, seq, state,
//	                           L1 summary), each cited message verbatim (id, speaker,
//	                           role, RFC 3339 time, SHA-256 recomputed, ok or MISMATCH,
//	                           whether the block holds it) and, for each quote, the cited
//	                           messages it occurs in (case and whitespace folded) or
//	                           NOT FOUND; a last line sums up: "provenance: ok" or the
//	                           PROBLEMS found
//	trace fact ID, trace edge ID, trace node ID
//	                           a graph record with its bi-temporal fields (valid from,
//	                           valid to, recorded at, closed at) and whether a source
//	                           event is active, then each source event down to its
//	                           messages as in trace event, compactly (one line of text
//	                           per message). trace node shows the node's whole history:
//	                           closed and inactive facts and edges, in and out
//	graph [-as-of DATE] [-format text|dot|json] [-scope S]...
//	                           the graph now, or as of DATE (2006-01-02, meaning 00:00
//	                           UTC, or RFC 3339): every node (Memory.ExpandGraphNode)
//	                           with the facts valid then whose source events are active,
//	                           and the edges likewise. text: "Name (kind): key=value …"
//	                           per node and "A —relation→ B" per edge, each with its
//	                           ids; dot: a Graphviz digraph, nodes n<ID> labelled
//	                           "Name\n(kind)", a named value without a node as a dashed
//	                           v<N>, edges labelled with the relation; json: as -json
//	                           (-json with -format dot is a usage error). -scope
//	                           repeats; default every scope
//	jobs [-state S]            the job log; S is pending, running, done or failed
//	retrievals [-n N]          the newest N search observations (default 20, 0 = all)
//	imports                    import batches: state, scope, source block, decisions by action
//	import ID                  one import: each candidate's decision, the events it was
//	                           compared with and what commit applied
//	search [-scope S]... [-thread T] [-k N] QUERY
//	                           SearchRaw over L5 messages; -scope repeats, default
//	                           global only. A read-only Memory does not log the search
//	verify                     Memory.Verify: every invariant of the file, each
//	                           violation naming its record
//	serve [-addr HOST:PORT] [-token T] [-write]
//	                           the web viewer (package viewer) on the file, at
//	                           http://127.0.0.1:7070/ by default, until Ctrl-C: threads,
//	                           blocks at every level, events on both clocks, the graph
//	                           as of a date, traces, search, Ask (recording no use) and
//	                           imports. It listens on loopback only unless -token is
//	                           given (then every request needs the token: open the
//	                           printed address, which carries it once). The file stays
//	                           open read-only; -write opens it writable (the exclusive
//	                           lock, with STRATAGATE_MODEL's model, else the heuristic)
//	                           so that imports can be previewed, committed and undone
//
// Text output is for people: aligned columns, times in RFC 3339 with their
// stored offset, message text indented by four spaces (-json carries the
// exact bytes). Stored text never reaches the terminal raw: in text output
// and error messages, control characters other than newline and tab
// become \xNN (ESC is \x1b, BEL \x07; CR is \r), C1 controls and
// bidirectional overrides become \uNNNN, and invalid UTF-8 bytes \xNN.
//
// A damaged file never crashes sgdump: verify reports what it meets as
// violations (a damaged page as file.pages) and exits 1, or exits 2 when
// the file cannot be opened at all.
//
// # JSON
//
// With -json a successful command (and verify, whatever it finds) prints
// exactly one JSON document on stdout; errors go to stderr as text and
// stdout stays empty. Field names are snake_case and stable; times are RFC
// 3339 strings with their stored offset ("" or absent when unknown); hashes
// are lower-case hex.
//
//	stats       {path, format, file_bytes, threads, messages, receipts, blocks,
//	             blocks_pending, blocks_ready, blocks_failed, jobs_queued, jobs_failed,
//	             events, graph_nodes, graph_facts, graph_edges, buckets: {bucket: keys},
//	             sizes (with -sizes): {buckets: [{name, keys, key_bytes, value_bytes,
//	             bytes, pages, alloc_bytes, bytes_per_message}], total, turns,
//	             file_bytes, file_bytes_per_message, file_bytes_per_turn,
//	             payload_bytes_per_message}}
//	threads     {threads: [{name, scope, created, last_at, turns, blocks, open_turns,
//	             open_message_ids}]}
//	blocks      {blocks: [block]}
//	block       {block_id, level, state, text, messages: [message] (L5 only)}
//	trace block {block: block with facts, l3, l4, l5_hash; l5_hash_computed, l5_hash_ok,
//	             messages: [message], missing_message_ids}
//	trace message {message, block (null in the open tail), cited_by: [fact]}
//	jobs        {jobs: [{id, kind, target, state, attempts, error, created, updated,
//	             not_before}]}
//	retrievals  {retrievals: [{id, at, channel, text, scopes, thread, returned}]}
//	imports     {imports: [{id, state, scope, source, created_at, committed_at, undone_at,
//	             revision, text_bytes, thread, block_id, message_id, actions}]}
//	import      {id, state, …, candidates: [{index, kind, title, fingerprint, action,
//	             targets, confidence, automatic, reason, decider, compared: [{event_id,
//	             title, score}], warnings, applied, applied_targets, event_id, confirmed}]}
//	search      {query, scopes, thread, hits: [{rank, message_id, block_id (0: open
//	             tail), thread, speaker, role, at, score, snippet, prev, next}]}
//	             where prev and next are {message_id, speaker, role, at, snippet} or null
//	verify      {ok, checked: {family: records}, violations: [{check, kind, id, key,
//	             detail}]}
//	events      {query ("" when listing), scopes (searched, or filtered on; [] = all),
//	             thread, events: [{rank, score (both with -q only), id, thread, scope,
//	             block_id, type, status, lifecycle, criticality, title, mentioned_at,
//	             happened_start, happened_end, precision, time_text, participants,
//	             source_message_ids}]}
//	event       {event: card, weight, block_summary, supersedes: [link],
//	             superseded_by: link or null, conflicts: [link], sources: [message]}
//	trace event chain (below)
//	trace fact  {fact: gfact, node: gnode or null, source_events: [chain],
//	             missing_event_ids}
//	trace edge  {edge: gedge, from: gnode or null, to: gnode or null (null for a named
//	             value), source_events: [chain], missing_event_ids}
//	trace node  {node: gnode, facts: [gfact], edges: [gedge] (outgoing, then incoming;
//	             closed and inactive ones too), source_events: [chain], missing_event_ids}
//	graph       {as_of, scopes ([] = all), nodes: [gnode with facts: [gfact]],
//	             edges: [gedge]}
//
//	block   = {id, thread, scope, seq, state, turn_first, turn_last, message_ids,
//	           first_at, last_at, created_at, ready_at, title, tags, summary, error}
//	fact    = {text, message_ids}
//	message = {id, thread, turn, role, speaker, tool_name, tool_call_id, at, content,
//	           sha256 (recomputed), sha256_stored, sha256_ok}
//	card    = {id, thread, scope, block_id, source_message_ids, title, summary, tags,
//	           quotes, type, status, participants, entities, criticality, lifecycle,
//	           mentioned_at, happened_start, happened_end (the happened interval is
//	           half-open; "" when unknown), time_text, precision, basis, approx,
//	           supersedes_event_ids, superseded_by (0: none), conflicts_with_event_ids,
//	           created_at}
//	link    = {id, title, status, lifecycle, mentioned_at}
//	chain   = {event: card, block: block (summary is L1) or null when not stored,
//	           messages: [message with in_block], missing_message_ids,
//	           quotes: [{text, found, message_ids}], ok}
//	           where ok means the block is stored and every cited message is stored,
//	           in the block and hash-checked, and every quote found
//	gnode   = {id, name, kind, scope, aliases, tags, created_at, source_event_ids}
//	gfact   = {id, node, key, value, valid_from, valid_to, recorded_at, closed_at,
//	           active, source_event_ids}
//	gedge   = {id, from, from_name, to (0: a named value without a node), to_name,
//	           relation, valid_from, valid_to, recorded_at, closed_at, active,
//	           source_event_ids}
//
// Graph times are bi-temporal: valid_from and valid_to bound when a fact or
// edge was true in the world (half-open; "" is unbounded, valid_to "" still
// true), recorded_at is when StrataGate learned it and closed_at when its
// closing was recorded. active is true when at least one source event is
// active (neither superseded nor forgotten).
//
// In a verify violation, check names the invariant ("message.hash",
// "block.l4", "thread_spans", "index.raw", "jobs.running", ...), kind is
// "error" or "warning", id is the record's numeric id (message, block or
// job; 0 if none) and key its string key (thread name, receipt id, job
// kind or index key). ok is false when any violation is an error; a job
// left running (its writer died, it resumes on the next writable Open) is
// only a warning.
//
// # Exit codes
//
//	0  success; verify found no errors
//	1  verify found errors; a named record (block, message, thread, event, fact,
//	   edge, node) does not exist; a block level is not derived yet; a command
//	   failed reading the file. A trace that finds a MISMATCH, a missing record
//	   or a quote not found still exits 0: it reports, verify judges
//	2  usage error (unknown command, bad flag, bad id or level, bad query or
//	   scope) or the file cannot be opened (missing, not a StrataGate file,
//	   newer format)
//	3  the file is locked by a writer and -timeout passed
package main
