package stratagate

import (
	"context"

	"github.com/stratagate/stratagate/kv"
)

// ErrExists is returned by CompactTo when the destination file exists.
var ErrExists = kv.ErrExists

// CompactTo writes a compacted copy of the memory to a new file at path:
// the same records, indexes, jobs and sequences, in full pages. bbolt
// never shrinks a file: pages freed by copy-on-write stay in it for
// reuse, and pages split by random inserts stay half empty, so a file
// after a large ingest is often half again its data (see README
// "Performance"); the copy is cut to its pages, without the preallocated
// tail bbolt grows files by. The copy is one consistent snapshot taken while Appends
// and jobs go on; jobs pending in it resume when the copy is opened, as
// after a crash. To replace a file with its compacted copy, Close it and
// rename the copy over it. path must not exist (ErrExists). The copy is
// written to a temporary file beside path and linked to path only when
// complete and synced, so path never holds a partial copy; on error or
// cancellation the temporary file is removed (a crash may leave one,
// named ".NAME.compact-*"). Works on a read-only Memory too.
func (m *Memory) CompactTo(ctx context.Context, path string) error {
	release, err := m.enter(ctx)
	if err != nil {
		return err
	}
	defer release()
	return classify(m.db.CompactTo(ctx, path))
}
