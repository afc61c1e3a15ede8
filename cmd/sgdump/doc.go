// Command sgdump inspects and audits a StrataGate file: what it holds, where
// every derived level came from, and whether its records still agree with
// each other.
//
// Usage:
//
//	sgdump [-db FILE] [-json] [-timeout D] COMMAND [ARGS]
//
// sgdump never writes. It opens the file read-only (stratagate.Options
// ReadOnly), which needs a shared lock: while a writer process holds the
// file it waits at most -timeout (default 2s; 0 waits indefinitely), then
// exits 3. The global flags may also follow the command name
// ("sgdump verify -json"). Flags and positional arguments may be mixed
// ("sgdump block 7 -level 3"); "--" ends the flags.
//
// # Commands
//
//	stats                      file size, format version, record counts per bucket,
//	                           block states, queued and failed jobs
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
//	jobs [-state S]            the job log; S is pending, running, done or failed
//	retrievals [-n N]          the newest N search observations (default 20, 0 = all)
//	search [-scope S]... [-thread T] [-k N] QUERY
//	                           SearchRaw over L5 messages; -scope repeats, default
//	                           global only. A read-only Memory does not log the search
//	verify                     Memory.Verify: every invariant of the file, each
//	                           violation naming its record
//
// Text output is for people: aligned columns, times in RFC 3339 with their
// stored offset, message text indented by four spaces (-json carries the
// exact bytes).
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
//	             buckets: {bucket: keys}}
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
//	search      {query, scopes, thread, hits: [{rank, message_id, block_id (0: open
//	             tail), thread, speaker, role, at, score, snippet, prev, next}]}
//	             where prev and next are {message_id, speaker, role, at, snippet} or null
//	verify      {ok, checked: {family: records}, violations: [{check, kind, id, key,
//	             detail}]}
//
//	block   = {id, thread, scope, seq, state, turn_first, turn_last, message_ids,
//	           first_at, last_at, created_at, ready_at, title, tags, summary, error}
//	fact    = {text, message_ids}
//	message = {id, thread, turn, role, speaker, tool_name, tool_call_id, at, content,
//	           sha256 (recomputed), sha256_stored, sha256_ok}
//
// In a verify violation, check names the invariant ("message.hash",
// "block.l4", "message_block", "index.raw", "jobs.running", ...), kind is
// "error" or "warning", id is the record's numeric id (message, block or
// job; 0 if none) and key its string key (thread name, receipt id, job
// kind or index key). ok is false when any violation is an error; a job
// left running (its writer died, it resumes on the next writable Open) is
// only a warning.
//
// # Exit codes
//
//	0  success; verify found no errors
//	1  verify found errors; a named record (block, message, thread) does not
//	   exist; a block level is not derived yet; a command failed reading the file
//	2  usage error (unknown command, bad flag, bad id or level, bad query or
//	   scope) or the file cannot be opened (missing, not a StrataGate file,
//	   newer format)
//	3  the file is locked by a writer and -timeout passed
package main
