// Package stratagate is an embedded long-term memory engine for AI agents:
// one bbolt file, no server, no SQL.
//
// An agent hands it every completed turn with Append. StrataGate keeps
// every original message forever (L5) and, every Options.BlockTurns turns,
// seals a block whose smaller views (L4 near-verbatim, L3 pruned, and the
// model-derived L2 key facts, L1 summary and L0 title/tags) are built in a
// crash-safe background job. Context lays a thread's history out within a
// token budget: recent blocks in detail, older ones decayed to their compact
// levels; ExpandBlock returns any level of any block on demand, down to the
// verbatim messages.
//
// # Basics
//
//	mem, err := stratagate.Open("memory.sg", nil) // nil = defaults
//	ref, err := mem.Append(ctx, stratagate.Turn{Thread: "t1", Messages: msgs})
//	blocks, err := mem.Blocks(ctx, "t1")
//	view, err := mem.ExpandBlock(ctx, blocks[0].ID, 5)
//	cv, err := mem.Context(ctx, "t1", 2000)
//
// # Guarantees
//
//   - Append returns only after its transaction is durable; concurrent
//     Appends share one commit (group commit).
//   - A ReceiptID makes Append idempotent.
//   - L0–L4 never modify L5; a block's L5Hash binds its messages.
//   - Bad input returns an error wrapping ErrInvalidInput or ErrScope and
//     writes nothing; a disk or file-system failure wraps ErrIO (and the
//     OS error), a cancelled context ErrCanceled (and the context's).
//   - Ask's assessment ids and use receipts are unique in the file across
//     processes and restarts; RecordMemoryUse adopts only what a recorded
//     sufficient assessment cites.
//
// # Concurrency
//
// A Memory is safe for concurrent use. A file is open in one process at a
// time: bbolt takes an flock on it, exclusive for a writable Open and
// shared for a ReadOnly one, so while a writer holds the file every other
// Open, ReadOnly included, waits up to Options.LockTimeout and returns
// ErrLocked; while readers hold it a writable Open does the same. Several
// processes may hold one file ReadOnly together. To read a store another
// process is writing, ask that process, or read a CompactTo copy.
package stratagate
