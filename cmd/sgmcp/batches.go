package main

import (
	"sync"

	"github.com/stratagate/stratagate/gate"
)

// maxBatches bounds the batches kept for assessment; the oldest go first.
const maxBatches = 2048

// batchEntry is one search or expansion result kept for memory_assess: the
// gate batch its refs belong to and the assessment made of it, if any.
type batchEntry struct {
	batch    *gate.Batch
	scopes   []string
	assessed *gate.Assessment
	// recorded: the assessment was sufficient and RecordAssessment stored it.
	recorded bool
}

// batchStore keeps the batches of this process, so that gate.Validate can
// check an assessment's refs against the batch it names. Safe for
// concurrent use.
type batchStore struct {
	mu struct {
		sync.Mutex
		byID        map[string]*batchEntry
		order       []string
		assessments map[string]*batchEntry // assessment id → its batch
	}
	max int
}

func newBatchStore(max int) *batchStore {
	st := &batchStore{max: max}
	st.mu.byID = map[string]*batchEntry{}
	st.mu.assessments = map[string]*batchEntry{}
	return st
}

// put keeps b, evicting the oldest batch past the bound.
func (st *batchStore) put(b *gate.Batch, scopes []string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.mu.byID[b.ID] = &batchEntry{batch: b, scopes: scopes}
	st.mu.order = append(st.mu.order, b.ID)
	for len(st.mu.order) > st.max {
		old := st.mu.order[0]
		st.mu.order = st.mu.order[1:]
		if e := st.mu.byID[old]; e != nil && e.assessed != nil {
			delete(st.mu.assessments, e.assessed.ID)
		}
		delete(st.mu.byID, old)
	}
}

// get returns a copy of the entry of batch id.
func (st *batchStore) get(id string) (batchEntry, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	e, ok := st.mu.byID[id]
	if !ok {
		return batchEntry{}, false
	}
	return *e, true
}

// assess stores a's assessment of its batch unless the batch has one;
// it returns the stored entry and whether a was stored.
func (st *batchStore) assess(a gate.Assessment, recorded bool) (batchEntry, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	e, ok := st.mu.byID[a.BatchID]
	if !ok {
		return batchEntry{}, false
	}
	if e.assessed != nil {
		return *e, false
	}
	e.assessed, e.recorded = &a, recorded
	st.mu.assessments[a.ID] = e
	return *e, true
}

// assessment returns the entry of the batch assessment id judged.
func (st *batchStore) assessment(id string) (batchEntry, bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	e, ok := st.mu.assessments[id]
	if !ok {
		return batchEntry{}, false
	}
	return *e, true
}

// len returns the number of batches kept.
func (st *batchStore) len() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return len(st.mu.byID)
}
