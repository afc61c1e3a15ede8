package capture

import "errors"

// Errors returned by capture; test with errors.Is.
var (
	// ErrNoServer is returned by a HookOptions.Dial that finds no running
	// server (and by a Store it returned once the server is gone): the
	// hook then opens the store file itself.
	ErrNoServer = errors.New("capture: no server running")
	// ErrUnknownKind is returned for a transcript kind other than
	// "claude-code" or "codex".
	ErrUnknownKind = errors.New("capture: unknown transcript kind")
)
