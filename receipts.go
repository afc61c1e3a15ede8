package stratagate

import (
	"sync"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/layers"
)

// pendingReceipts maps each receipt id pending in a thread record (its turn
// not yet sealed; see layers.Thread.Receipts) to that thread, so that an
// Append finds a receipt that another thread holds without reading every
// thread record. It is a hint, rebuilt from the thread records by Open: a
// lookup reads the named thread's record, so an entry left by a
// transaction that rolled back finds nothing. An entry is dropped only
// once the seal that moved its receipt into the receipts bucket has
// committed, so a committed pending receipt always has one.
type pendingReceipts struct {
	mu sync.Mutex
	m  map[string]string
}

// load fills p from the thread records in tx.
func (p *pendingReceipts) load(tx *bolt.Tx) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.m = map[string]string{}
	ths, err := layers.ListThreads(tx)
	if err != nil {
		return err
	}
	for _, th := range ths {
		for _, r := range th.Receipts {
			p.m[r.ID] = th.Name
		}
	}
	return nil
}

func (p *pendingReceipts) note(id, thread string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.m = map[string]string{}
	}
	p.m[id] = thread
}

func (p *pendingReceipts) thread(id string) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	th, ok := p.m[id]
	return th, ok
}

// forget drops ids whose seal has committed.
func (p *pendingReceipts) forget(ids []string) {
	if len(ids) == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, id := range ids {
		delete(p.m, id)
	}
}

// lookupReceipt finds receipt id in tx: in the receipts bucket, or pending
// in the thread record the hint names.
func (m *Memory) lookupReceipt(tx *bolt.Tx, id string) (layers.Receipt, bool, error) {
	r, ok, err := layers.GetReceipt(tx, id)
	if ok || err != nil {
		return r, ok, err
	}
	th, hinted := m.receipts.thread(id)
	if !hinted {
		return layers.Receipt{}, false, nil
	}
	return layers.PendingReceiptOf(tx, th, id)
}
