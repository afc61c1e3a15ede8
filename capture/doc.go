// Package capture turns coding-agent sessions into StrataGate turns: it
// parses Claude Code transcripts and Codex CLI rollout files, runs the
// agents' hooks (capture on Stop, recall on UserPromptSubmit) and backfills
// a store from existing files. It needs only the standard library and the
// root package; cmd/sgmcp wires it to its `hook` and `import` commands.
//
// # Formats
//
// Both formats are JSON Lines, appended while the agent runs.
//
// Claude Code (~/.claude/projects/<project>/<session>.jsonl): one object a
// line with type user | assistant | system | summary | progress |
// attachment | file-history-snapshot …, uuid, sessionId, cwd, timestamp and
// message{id, role, content: string | [blocks]}; blocks are text, image,
// tool_use{id, name, input}, tool_result{tool_use_id, content, is_error}
// and thinking. A turn starts at a human prompt — a user line that holds
// no tool_result — and runs to the next one. Folded into it, in order: the
// prompt (user), the assistant's text (consecutive chunks sharing
// message.id merged into one message; a chunk written twice folded once),
// one assistant message per tool_use (ToolName, ToolCallID, content the
// compact JSON input) and one tool message per tool_result (its text;
// "[error] " first when is_error). Skipped: isMeta, isSidechain,
// isCompactSummary and isVisibleInTranscriptOnly lines, every line type
// other than user and assistant, thinking blocks, and our own memory
// tools (names "memory_…" or "mcp__<server>__memory_…") with their
// results. "[Request interrupted by user…]" stays in its turn.
//
// Codex (~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl): lines
// {timestamp, type, payload}. session_meta gives the session id and cwd,
// turn_context a cwd. A turn opens at event_msg task_started (its
// turn_id keys the receipt) or, in rollouts without it, at a user_message
// after a reply; it is complete at task_complete or turn_aborted. The
// human input is event_msg user_message (response_item user messages
// carry injected AGENTS.md and environment text and are skipped); the
// reply is event_msg agent_message (response_item assistant text only when
// a turn has none, then task_complete's last_agent_message);
// function_call, custom_tool_call and local_shell_call become assistant
// tool messages and their outputs tool messages. Reasoning, token counts
// and compacted lines are skipped; memory tools ("memory_…",
// "<server>__memory_…") too.
//
// # Rules
//
//   - Only newline-terminated lines are read: the incomplete last line of
//     a file being written is never consumed.
//   - A turn still open at the end of the data is returned only with
//     ParseOptions.Final (a Stop or SessionEnd hook: the reply is done; an
//     import of a whole file), and never when the data ends mid-line.
//   - A line that is not JSON, or a user/assistant line of an unknown
//     shape, is rejected with its reason and consumed; other line types
//     are skipped silently, so a new agent version adds noise to nothing.
//   - Messages: text with nothing but white space is dropped, invalid
//     UTF-8 repaired, content cut to 1 MiB with a marker, names (threads,
//     tools, call ids) cleaned to what the store accepts, times from the
//     lines (a missing or out-of-range one is left to the store's clock).
//     A turn beyond 256 messages is split into several turns.
//   - Thread = the session id; scope = ProjectScope of the session's
//     working directory: the first one its file names (FileCwd), so a cd
//     during the session never changes it.
//   - Receipt = the kind and a hash of the session and the turn's first
//     line uuid (Claude Code), turn id (Codex) or, lacking those, its byte
//     offset: the hook and Import give one turn the same receipt, so no
//     replay, retry or backfill stores a turn twice.
//
// # Cursors
//
// The hook keeps, in the store (Memory.Cursor, under CursorKey), the byte
// offset up to which a transcript is captured: Batch.Next, the start of
// the first line not consumed. Apply stores every turn first and moves the
// cursor after, forward only; a run that dies in between leaves the cursor
// behind and the next run finds the stored turns by their receipts. A
// transcript now shorter than its cursor was replaced and is read again
// from the start.
//
// # Hooks
//
// Hook always replies {"continue": true, "suppressOutput": true} within
// HookOptions.Timeout (5s) and returns nil for every failure, which goes
// to a log next to the store (<db>.hook.log): a memory hook must never
// block or stall the agent. A store held by another process is given up
// after 2/5 of the timeout; the cursor has not moved, so the next run
// catches up. HookOptions.Dial reaches a running server first (while
// `sgmcp serve` holds the store, no other process can open it).
//
// A hook that opens the store itself runs derivation jobs while it holds
// it, with HookOptions.Store's model (the offline heuristic by default):
// pass the model the server uses. A job still running at Close is
// released and resumes in the next process that opens the store.
package capture
