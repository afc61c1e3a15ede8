package main

import (
	"context"
	"errors"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/gate"
)

// describe renders err for a tool result: the error and the retry that
// fits its kind. A toolErr already says how to retry.
func describe(err error) string {
	var te *toolErr
	if errors.As(err, &te) {
		return te.msg
	}
	msg := err.Error()
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded), errors.Is(err, stratagate.ErrCanceled):
		return msg + "; the call was cancelled or timed out: retry it"
	case errors.Is(err, stratagate.ErrNotReady):
		return msg + "; the block's derived levels are still being built: retry later, or ask level 3, 4 or 5 now"
	case errors.Is(err, stratagate.ErrLevel):
		return msg + "; retry with level 0–5"
	case errors.Is(err, stratagate.ErrNotFound):
		return msg + "; retry with an id from a recent search result"
	case errors.Is(err, stratagate.ErrAssessment):
		return msg + "; record_use needs the id of a sufficient assessment from memory_assess or memory_ask"
	case errors.Is(err, stratagate.ErrReceiptConflict):
		return msg + "; retry with a new receipt_id, or the same content"
	case errors.Is(err, stratagate.ErrScope):
		return msg + "; the thread belongs to another scope: retry with another thread name"
	case errors.Is(err, stratagate.ErrImportStale):
		return msg + "; call memory_import_preview with the same text again, show the user the new decisions, then commit the new preview"
	case errors.Is(err, stratagate.ErrImportState):
		return msg + "; memory_import_preview with preview_id shows its state"
	case errors.Is(err, stratagate.ErrInvalidInput):
		return msg + "; fix the argument and retry"
	case errors.Is(err, stratagate.ErrReadOnly):
		return msg + "; this server's file is read-only: writes cannot succeed"
	case errors.Is(err, stratagate.ErrClosed):
		return msg + "; the server is shutting down: restart it"
	case errors.Is(err, gate.ErrWrongBatch), errors.Is(err, gate.ErrInvalidAssessment):
		return msg + "; retry with the batch_id of the result the refs came from and a valid verdict/next_strategy"
	case errors.Is(err, stratagate.ErrIO):
		return msg + "; a disk or file-system error: check the database path and free space, then retry"
	}
	return msg + "; retry, and report it if it persists"
}
