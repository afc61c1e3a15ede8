package stratagate

import (
	"fmt"
	"log/slog"
	"math"
	"time"

	"github.com/stratagate/stratagate/layers"
	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/heuristic"
)

// Options configure Open. A nil *Options, and every zero field, means the
// documented default.
type Options struct {
	// BlockTurns is how many complete turns are sealed into one block.
	// Default 12.
	BlockTurns int
	// DecayCoefficient is the block-decay coefficient c in exp(-c·age).
	// Default 0.30.
	DecayCoefficient float64
	// Model runs every model-backed step. Default: the offline,
	// deterministic heuristic model. ModelFromSpec builds one from a spec
	// such as "openai:<model name>".
	Model model.Model
	// GateModel makes Ask judge evidence and compose answers with Model
	// (gate.ModelAssessor and gate.ModelAnswerer) instead of the offline
	// gate. Default false: an Ask then makes no model call, whatever
	// Model is. It has no effect with the heuristic model, whose gate is
	// the offline one. AskOptions.Assessor and Answerer override it per
	// call.
	GateModel bool
	// NoSync skips fsync on commit: faster, but a power loss (not a process
	// crash) may lose acknowledged turns. Default false.
	NoSync bool
	// ReadOnly opens the file under a shared lock, which other ReadOnly
	// Opens may share but a writer's exclusive lock excludes (either waits
	// LockTimeout, then ErrLocked); writes return ErrReadOnly and no jobs
	// run. Default false.
	ReadOnly bool
	// LockTimeout bounds the wait for another process's lock before Open
	// returns ErrLocked. Default 2s; negative waits forever.
	LockTimeout time.Duration
	// MaxMessageBytes bounds one message's content. Default 1 MiB.
	MaxMessageBytes int
	// MaxTurnMessages bounds the messages of one turn. Default 256.
	MaxTurnMessages int
	// Logger receives job and recovery logs. Default: discarded.
	Logger *slog.Logger
	// Clock stamps records and messages given without a time. Default
	// time.Now.
	Clock func() time.Time
	// JobAttempts is how many times a derivation job runs before it fails
	// for good. Default 4.
	JobAttempts int
	// JobBackoff is the first retry delay of a failed job, doubled per
	// attempt up to 10s. Default 100ms.
	JobBackoff time.Duration
	// IndexBuffer is how many appended messages the raw index may hold in
	// memory before they are merged into the file's postings in one
	// transaction; they are searchable at once either way, and a crash
	// loses none (Open re-indexes them from the stored messages). A merge
	// also runs after a second without Appends, in WaitIdle and in Close.
	// Default 2048; negative merges at every commit (no buffering).
	IndexBuffer int
}

// Defaults.
const (
	DefaultBlockTurns      = 12
	DefaultLockTimeout     = 2 * time.Second
	DefaultMaxMessageBytes = 1 << 20
	DefaultMaxTurnMessages = 256
	DefaultJobAttempts     = 4
	DefaultJobBackoff      = 100 * time.Millisecond
	DefaultIndexBuffer     = 2048

	maxBlockTurns = 10000
	// maxIndexBuffer bounds IndexBuffer: a merge is one transaction.
	maxIndexBuffer = 1 << 20
	maxNameBytes   = 256
)

// withDefaults returns a copy of o with defaults filled in, or an error
// naming every field out of range.
func (o *Options) withDefaults() (Options, error) {
	var c Options
	if o != nil {
		c = *o
	}
	var bad []string
	switch {
	case c.BlockTurns == 0:
		c.BlockTurns = DefaultBlockTurns
	case c.BlockTurns < 0 || c.BlockTurns > maxBlockTurns:
		bad = append(bad, fmt.Sprintf("BlockTurns %d not in 1–%d", c.BlockTurns, maxBlockTurns))
	}
	switch {
	case c.DecayCoefficient == 0:
		c.DecayCoefficient = layers.DefaultDecay
	case c.DecayCoefficient < 0 || math.IsNaN(c.DecayCoefficient) || math.IsInf(c.DecayCoefficient, 0):
		bad = append(bad, fmt.Sprintf("DecayCoefficient %v must be a positive number", c.DecayCoefficient))
	}
	switch {
	case c.MaxMessageBytes == 0:
		c.MaxMessageBytes = DefaultMaxMessageBytes
	case c.MaxMessageBytes < 0:
		bad = append(bad, fmt.Sprintf("MaxMessageBytes %d is negative", c.MaxMessageBytes))
	}
	switch {
	case c.MaxTurnMessages == 0:
		c.MaxTurnMessages = DefaultMaxTurnMessages
	case c.MaxTurnMessages < 0:
		bad = append(bad, fmt.Sprintf("MaxTurnMessages %d is negative", c.MaxTurnMessages))
	}
	switch {
	case c.JobAttempts == 0:
		c.JobAttempts = DefaultJobAttempts
	case c.JobAttempts < 0:
		bad = append(bad, fmt.Sprintf("JobAttempts %d is negative", c.JobAttempts))
	}
	switch {
	case c.JobBackoff == 0:
		c.JobBackoff = DefaultJobBackoff
	case c.JobBackoff < 0:
		bad = append(bad, fmt.Sprintf("JobBackoff %v is negative", c.JobBackoff))
	}
	switch {
	case c.IndexBuffer == 0:
		c.IndexBuffer = DefaultIndexBuffer
	case c.IndexBuffer > maxIndexBuffer:
		bad = append(bad, fmt.Sprintf("IndexBuffer %d beyond %d", c.IndexBuffer, maxIndexBuffer))
	}
	switch {
	case c.LockTimeout == 0:
		c.LockTimeout = DefaultLockTimeout
	case c.LockTimeout < 0:
		c.LockTimeout = 0 // bbolt: wait forever
	}
	if c.Model == nil {
		c.Model = heuristic.New()
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Clock == nil {
		c.Clock = time.Now
	}
	if len(bad) > 0 {
		return Options{}, fmt.Errorf("%w: %v", ErrInvalidOptions, bad)
	}
	return c, nil
}
