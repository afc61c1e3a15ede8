package main

import (
	"context"
	"strings"
)

// cursorStore is the store's cursor API: how far into a source (a
// transcript file, an export) a hook or an import has delivered. Cursors
// let a hook resume where the last one stopped, and they are set in the
// owner, after the turns they cover are appended, so that a crash between
// the two replays turns (deduplicated by receipt) rather than losing them.
type cursorStore interface {
	Cursor(ctx context.Context, key string) (int64, error)
	SetCursor(ctx context.Context, key string, off int64) error
}

// cursors returns the store's cursor API, or an error result when a
// stand-in server has none.
func (s *Server) cursors() (cursorStore, error) {
	if s.curs == nil {
		return nil, retryable("cursors unsupported by this store version; retry without cursor_key/cursor_get, or upgrade sgmcp")
	}
	return s.curs, nil
}

// cursorKey validates a cursor key argument.
func cursorKey(name, key string) (string, error) {
	k := strings.TrimSpace(key)
	if k == "" {
		return "", retryable("%s is empty; retry with the source's key (e.g. claude:<session id>)", name)
	}
	return k, nil
}
