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
	// Sizes is what every top-level bucket of the file holds (the index
	// buckets too), by name: key and value bytes and the pages it uses.
	Sizes map[string]BucketSize
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
	s := Stats{Buckets: map[string]int{}, Sizes: map[string]BucketSize{}, Model: m.opts.Model.Name()}
	if s.Format, err = m.db.Format(); err != nil {
		return Stats{}, err
	}
	err = m.db.View(func(tx *bolt.Tx) error {
		s.FileBytes = tx.Size()
		if err := tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			s.Sizes[string(name)] = bucketSize(b)
			return nil
		}); err != nil {
			return err
		}
		// The record buckets are flat: their pairs are their keys.
		for _, name := range kv.AllBuckets {
			s.Buckets[string(name)] = s.Sizes[string(name)].Keys
		}
		s.Threads = s.Buckets[string(kv.BucketThreads)]
		s.Messages = s.Buckets[string(kv.BucketMessages)]
		// Receipts of turns still in an open tail are kept in their
		// thread records until the tail is sealed.
		s.Receipts = s.Buckets[string(kv.BucketReceipts)]
		ths, err := layers.ListThreads(tx)
		if err != nil {
			return err
		}
		for _, th := range ths {
			s.Receipts += len(th.Receipts)
		}
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

// BucketSize is what one top-level bucket holds. KeyBytes and ValueBytes
// are the payload (nested buckets' keys and values included, a nested
// bucket's own header not); Pages and AllocBytes are the file pages its
// B+tree occupies, so AllocBytes minus the payload is page overhead and
// free space inside its pages.
type BucketSize struct {
	Keys       int   // key/value pairs, nested buckets' included
	KeyBytes   int64 // sum of key lengths
	ValueBytes int64 // sum of value lengths
	Pages      int   // leaf, branch and overflow pages
	AllocBytes int64 // bytes of those pages
}

// Bytes returns the payload: key plus value bytes.
func (s BucketSize) Bytes() int64 { return s.KeyBytes + s.ValueBytes }

// bucketSize measures b: a cursor pass for the payload (bbolt's page
// statistics count element headers in with it) and b.Stats for pages.
func bucketSize(b *bolt.Bucket) BucketSize {
	bs := b.Stats()
	s := BucketSize{
		Pages:      bs.LeafPageN + bs.LeafOverflowN + bs.BranchPageN + bs.BranchOverflowN,
		AllocBytes: int64(bs.LeafAlloc + bs.BranchAlloc),
	}
	var walk func(b *bolt.Bucket)
	walk = func(b *bolt.Bucket) {
		c := b.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if v == nil {
				if sub := b.Bucket(k); sub != nil {
					walk(sub)
					continue
				}
			}
			s.Keys++
			s.KeyBytes += int64(len(k))
			s.ValueBytes += int64(len(v))
		}
	}
	walk(b)
	return s
}
