package stratagate

import (
	"context"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/wal"
)

// Stats counts what a file holds.
type Stats struct {
	Format        uint32
	FileBytes     int64
	Threads       int
	Messages      int
	Receipts      int
	Blocks        int
	BlocksPending int
	BlocksReady   int
	BlocksFailed  int
	JobsQueued    int // pending or running
	JobsFailed    int
	Buckets       map[string]int // keys per bucket
	// Model is the name of the model the Memory runs (Options.Model).
	Model string
	// Usage is what model calls cost, summed by job kind ("derive",
	// "extract", "project") and by gate task ("assess_evidence",
	// "answer"). The offline heuristic model counts calls and latency;
	// remote models add the tokens their server reports.
	Usage map[string]model.Usage
}

// Stats returns counts of the file's records.
func (m *Memory) Stats(ctx context.Context) (Stats, error) {
	release, err := m.enter(ctx)
	if err != nil {
		return Stats{}, err
	}
	defer release()
	s := Stats{Buckets: map[string]int{}, Model: m.opts.Model.Name()}
	if s.Format, err = m.db.Format(); err != nil {
		return Stats{}, err
	}
	err = m.db.View(func(tx *bolt.Tx) error {
		s.FileBytes = tx.Size()
		for _, name := range kv.AllBuckets {
			s.Buckets[string(name)] = tx.Bucket(name).Stats().KeyN
		}
		s.Threads = s.Buckets[string(kv.BucketThreads)]
		s.Messages = s.Buckets[string(kv.BucketMessages)]
		s.Receipts = s.Buckets[string(kv.BucketReceipts)]
		s.Blocks = s.Buckets[string(kv.BucketBlocks)]
		s.JobsQueued = s.Buckets[string(kv.BucketJobQueue)]
		if err := tx.Bucket(kv.BucketBlocks).ForEach(func(_, v []byte) error {
			b, err := layers.DecodeBlock(v)
			if err != nil {
				return err
			}
			switch b.State {
			case layers.StatePending:
				s.BlocksPending++
			case layers.StateReady:
				s.BlocksReady++
			case layers.StateFailed:
				s.BlocksFailed++
			}
			return nil
		}); err != nil {
			return err
		}
		failed, err := wal.List(tx, wal.StateFailed)
		if err != nil {
			return err
		}
		s.JobsFailed = len(failed)
		s.Usage, err = wal.Usages(tx)
		return err
	})
	return s, err
}
