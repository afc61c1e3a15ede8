package main

import (
	"context"
	"os"

	"github.com/stratagate/stratagate"
)

// compactedSize returns the size of a CompactTo copy of the closed file at
// path, made beside it and removed.
func compactedSize(ctx context.Context, path string) (int64, error) {
	m, err := stratagate.Open(path, &stratagate.Options{ReadOnly: true})
	if err != nil {
		return 0, err
	}
	defer m.Close()
	dst := path + ".compacted"
	if err := m.CompactTo(ctx, dst); err != nil {
		return 0, err
	}
	defer os.Remove(dst)
	return fileSize(dst), nil
}

// addSizes reports the space an ingest used: the file's size per turn, its
// data (bbolt grows a file in steps past it) and a compacted copy's size,
// per message and per turn.
func addSizes(r *report, turns int, st stratagate.Stats, size, compacted int64) {
	msgs := float64(max(1, st.Messages))
	r.add("bytes_per_turn", "file bytes per turn", float64(size)/float64(turns))
	r.add("data_bytes", "data size (bytes, without bbolt's preallocation)", st.FileBytes)
	r.add("compacted_bytes", "CompactTo size (bytes)", compacted)
	r.add("compacted_bytes_per_msg", "CompactTo bytes per message", float64(compacted)/msgs)
	r.add("compacted_bytes_per_turn", "CompactTo bytes per turn", float64(compacted)/float64(turns))
}
