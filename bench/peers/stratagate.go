package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/stratagate/stratagate"
)

// sgEngine is the whole of StrataGate through its public API, for
// reference next to its raw index alone (rawEngine): turns of two messages
// appended with NoSync (the raw index is written in each Append's
// transaction), then WaitIdle for the background block derivation and
// event extraction; queries through Memory.SearchRaw over all scopes.
type sgEngine struct {
	writers int
	mem     *stratagate.Memory
	docOf   map[uint64]int // message id → doc index

	appendTime time.Duration // Appends only, without WaitIdle
}

func (e *sgEngine) name() string { return "stratagate-memory" }
func (e *sgEngine) scoring() string {
	return "bm25 (k1 1.2, b 0.75; stemmed terms; hits carry snippet and ±1 neighbours)"
}

func (e *sgEngine) path(dir string) string { return filepath.Join(dir, "memory.sg") }

func (e *sgEngine) build(ctx context.Context, c *corpus, dir string, progress func(int)) error {
	m, err := stratagate.Open(e.path(dir), &stratagate.Options{NoSync: true})
	if err != nil {
		return err
	}
	e.mem = m
	// Each writer owns the threads ≡ w (mod writers) so that the turns of
	// a thread stay in order; concurrent writers share group commits.
	type turn struct {
		first int // doc index of the turn's first message
		t     stratagate.Turn
	}
	queues := make([][]turn, e.writers)
	for i := 0; i < len(c.docs); i += 2 {
		t := stratagate.Turn{Thread: c.docs[i].threadName(), Scope: c.docs[i].scope}
		for j := i; j < min(i+2, len(c.docs)); j++ {
			d := &c.docs[j]
			t.Messages = append(t.Messages, stratagate.Message{Role: d.role, Content: d.text, At: d.at})
		}
		w := c.docs[i].thread % e.writers
		queues[w] = append(queues[w], turn{i, t})
	}
	e.docOf = make(map[uint64]int, len(c.docs))
	var mu sync.Mutex
	errs := make([]error, e.writers)
	start := time.Now()
	var wg sync.WaitGroup
	for w := range e.writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, q := range queues[w] {
				ref, err := m.Append(ctx, q.t)
				if err != nil {
					errs[w] = err
					return
				}
				mu.Lock()
				for j, id := range ref.MessageIDs {
					e.docOf[id] = q.first + j
				}
				mu.Unlock()
				progress(len(q.t.Messages))
			}
		}()
	}
	wg.Wait()
	e.appendTime = time.Since(start)
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return m.WaitIdle(ctx)
}

func (e *sgEngine) close() error {
	if e.mem == nil {
		return nil
	}
	err := e.mem.Close()
	e.mem = nil
	return err
}

func (e *sgEngine) open(dir string) error {
	m, err := stratagate.Open(e.path(dir), nil)
	if err != nil {
		return err
	}
	e.mem = m
	return nil
}

func (e *sgEngine) search(ctx context.Context, q string, k int) ([]int, error) {
	hits, err := e.mem.SearchRaw(ctx, stratagate.Query{Text: q, Scopes: scopes, Limit: k})
	if err != nil {
		return nil, err
	}
	out := make([]int, len(hits))
	for i, h := range hits {
		d, ok := e.docOf[h.MessageID]
		if !ok {
			return nil, fmt.Errorf("hit %d is no message of the corpus", h.MessageID)
		}
		out[i] = d
	}
	return out, nil
}

// compactedBytes compacts the closed memory under dir into a scratch file
// and returns that file's size.
func (e *sgEngine) compactedBytes(ctx context.Context, dir string) (int64, error) {
	m, err := stratagate.Open(e.path(dir), &stratagate.Options{ReadOnly: true})
	if err != nil {
		return 0, err
	}
	defer m.Close()
	tmp, err := os.MkdirTemp(filepath.Dir(dir), "compact-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(tmp)
	dst := filepath.Join(tmp, "memory.sg")
	if err := m.CompactTo(ctx, dst); err != nil {
		return 0, err
	}
	return diskBytes(tmp)
}
