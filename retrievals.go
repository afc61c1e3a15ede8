package stratagate

import (
	"context"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/kv"
)

const observationVersion byte = 1

// Observation is what one search returned, kept in the retrievals bucket.
// It is an audit trail only: nothing reads it to change a ranking or a
// weight (retrieval is not use; see RecordMemoryUse).
type Observation struct {
	ID       uint64    `msgpack:"i"`
	At       time.Time `msgpack:"a"`
	Channel  string    `msgpack:"c"` // "raw", "events", "graph"
	Text     string    `msgpack:"t"`
	Scopes   []string  `msgpack:"s"`
	Thread   string    `msgpack:"th,omitempty"`
	Returned []uint64  `msgpack:"r"`
}

// observer writes observations in the background, many per transaction, so
// that a search never waits for a write. A flush request (from WaitIdle and
// Close) is answered once everything sent before it is committed.
type observer struct {
	in   chan any // Observation or chan struct{} (flush)
	done chan struct{}
}

func (m *Memory) startObserver() {
	m.obs = &observer{in: make(chan any, 1024), done: make(chan struct{})}
	go m.observeLoop()
}

func (m *Memory) observe(o Observation) {
	if m.obs == nil {
		return // read-only: nothing is logged
	}
	m.obs.in <- o
}

// flushObservations waits until every observation sent so far is stored.
func (m *Memory) flushObservations() {
	if m.obs == nil {
		return
	}
	ch := make(chan struct{})
	m.obs.in <- ch
	<-ch
}

func (m *Memory) observeLoop() {
	defer close(m.obs.done)
	var batch []Observation
	var waiters []chan struct{}
	for first := range m.obs.in {
		batch, waiters = batch[:0], waiters[:0]
		add := func(x any) {
			switch v := x.(type) {
			case Observation:
				batch = append(batch, v)
			case chan struct{}:
				waiters = append(waiters, v)
			}
		}
		add(first)
	gather:
		for len(batch) < 512 {
			select {
			case x, ok := <-m.obs.in:
				if !ok {
					break gather
				}
				add(x)
			default:
				break gather
			}
		}
		if len(batch) > 0 {
			err := m.db.Update(func(tx *bolt.Tx) error {
				b := tx.Bucket(kv.BucketRetrievals)
				b.FillPercent = 0.9
				for i := range batch {
					id, err := b.NextSequence()
					if err != nil {
						return err
					}
					batch[i].ID = id
					v, err := kv.Encode(observationVersion, &batch[i])
					if err != nil {
						return err
					}
					if err := b.Put(kv.Key(id), v); err != nil {
						return err
					}
				}
				return nil
			})
			if err != nil {
				m.opts.Logger.Error("retrieval log write failed", "count", len(batch), "err", err)
			}
		}
		for _, w := range waiters {
			close(w)
		}
	}
}

func (m *Memory) stopObserver() {
	if m.obs == nil {
		return
	}
	close(m.obs.in)
	<-m.obs.done
}

// Observations returns the newest n observations (all if n ≤ 0), oldest
// first.
func (m *Memory) Observations(ctx context.Context, n int) ([]Observation, error) {
	release, err := m.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	var out []Observation
	err = m.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(kv.BucketRetrievals).Cursor()
		for k, v := c.Last(); k != nil && (n <= 0 || len(out) < n); k, v = c.Prev() {
			var o Observation
			if _, err := kv.Decode(v, &o, observationVersion); err != nil {
				return err
			}
			o.At = o.At.UTC()
			out = append(out, o)
		}
		return nil
	})
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, err
}
