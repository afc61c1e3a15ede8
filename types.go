package stratagate

import "github.com/stratagate/stratagate/layers"

// Message is one original message (L5). ID, Thread, Turn and SHA256 are
// assigned by Append; a zero At is stamped with Options.Clock.
type Message = layers.Message

// Block is a sealed run of turns with its L0–L5 levels.
type Block = layers.Block

// BlockView is one level of one block, from ExpandBlock.
type BlockView = layers.View

// ContextView is a thread's history laid out within a token budget.
type ContextView = layers.ContextView

// ContextBlock says at which level a block appears in a ContextView.
type ContextBlock = layers.ContextBlock

// Thread is a thread's bookkeeping: scope, counts and open tail.
type Thread = layers.Thread

// Block states.
const (
	BlockPending = layers.StatePending
	BlockReady   = layers.StateReady
	BlockFailed  = layers.StateFailed
)

// Turn is one completed exchange appended to a thread: normally a user
// message and the assistant's reply, with any tool calls and results
// between them.
type Turn struct {
	Thread string
	// Scope fixes the thread's scope on its first turn: "global",
	// "project:NAME" or "session:ID". Empty means "global". A later turn
	// naming another scope is ErrScope.
	Scope string
	// ReceiptID, when set, makes Append idempotent: a receipt already
	// stored with the same turn (thread, scope and messages; times compared
	// where the caller set them) returns the first result with Duplicate
	// set and stores nothing; a receipt stored with another turn is
	// ErrReceiptConflict.
	ReceiptID string
	Messages  []Message
}

// TurnRef says where an appended turn was stored.
type TurnRef struct {
	Thread     string   `msgpack:"th"`
	Turn       uint64   `msgpack:"tu"`
	MessageIDs []uint64 `msgpack:"m"`
	// SealedBlockID is the block this turn completed, or 0 if the turn is
	// still in the thread's open tail.
	SealedBlockID uint64 `msgpack:"b,omitempty"`
	// Duplicate is true when the ReceiptID was already stored and nothing
	// new was written.
	Duplicate bool `msgpack:"-"`
}
