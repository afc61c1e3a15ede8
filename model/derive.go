package model

import "time"

// DeriveMessage is one L5 message as shown to a model for derivation.
type DeriveMessage struct {
	ID       uint64    `json:"id"`
	Role     string    `json:"role"`
	Speaker  string    `json:"speaker,omitempty"`
	ToolName string    `json:"tool_name,omitempty"`
	At       time.Time `json:"at"`
	Content  string    `json:"content"`
}

// DeriveInput is the payload of TaskDeriveBlock: the messages of one sealed
// block, in order.
type DeriveInput struct {
	BlockID  uint64          `json:"block_id"`
	Thread   string          `json:"thread"`
	Messages []DeriveMessage `json:"messages"`
}

// DeriveOutput is the JSON object a model must return for TaskDeriveBlock.
// Limits (enforced by the layers package, not here): title 1–80 runes,
// 1–8 tags of 1–32 runes, summary 1–600 runes, at most 12 facts of 1–240
// runes each citing 1–8 message ids of the block.
type DeriveOutput struct {
	Title   string       `json:"title"`
	Tags    []string     `json:"tags"`
	Summary string       `json:"summary"`
	Facts   []DeriveFact `json:"facts"`
}

// DeriveFact is one L2 key fact and the block messages it rests on.
type DeriveFact struct {
	Text       string   `json:"text"`
	MessageIDs []uint64 `json:"message_ids"`
}
