package stratagate

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/gate"
	"github.com/stratagate/stratagate/graph"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/wal"
)

// ErrAssessment is returned by RecordAssessment for an assessment that is
// not sufficient (or clashes with another recorded under its id), and by
// RecordMemoryUse for a use whose assessment is not recorded, not
// sufficient, or does not cite every event and node the use adopts. It is
// wrapped together with ErrInvalidInput.
var ErrAssessment = errors.New("sg: use not backed by a sufficient assessment")

const assessmentVersion byte = 1

// assessmentRecord is a sufficient assessment as stored in the assessments
// bucket, under its id: what RecordMemoryUse checks a use against.
type assessmentRecord struct {
	ID       string   `msgpack:"i"`
	BatchID  string   `msgpack:"b"`
	Strategy string   `msgpack:"s,omitempty"` // of the batch
	Query    string   `msgpack:"q,omitempty"` // of the batch
	Verdict  string   `msgpack:"v"`
	Refs     []string `msgpack:"r"`           // the evidence refs, as validated
	EventIDs []uint64 `msgpack:"e,omitempty"` // of the refs "e<id>", sorted
	NodeIDs  []uint64 `msgpack:"n,omitempty"` // of the refs "n<id>", sorted
	Fit      string   `msgpack:"f,omitempty"`
	At       int64    `msgpack:"t"` // record time, Unix ns (not compared)
	// Prompt is the model prompt id of the assessment ("" for the offline
	// gate) and Usage what the Ask's model calls cost; neither is
	// compared, and records written before they existed lack both.
	Prompt string      `msgpack:"p,omitempty"`
	Usage  model.Usage `msgpack:"m,omitempty"`
}

func (r *assessmentRecord) sameAs(o *assessmentRecord) bool {
	return r.ID == o.ID && r.BatchID == o.BatchID && r.Strategy == o.Strategy && r.Query == o.Query &&
		r.Verdict == o.Verdict && slices.Equal(r.Refs, o.Refs) && slices.Equal(r.EventIDs, o.EventIDs) &&
		slices.Equal(r.NodeIDs, o.NodeIDs) && r.Fit == o.Fit
}

// newAssessmentRecord builds the record of a validated assessment.
func newAssessmentRecord(b *gate.Batch, a *gate.Assessment) assessmentRecord {
	rec := assessmentRecord{ID: a.ID, BatchID: a.BatchID, Verdict: string(a.Verdict), Refs: slices.Clone(a.EvidenceRefs), Fit: a.Fit}
	if b != nil {
		rec.Strategy, rec.Query = string(b.Strategy), b.Query
	}
	for _, ref := range a.EvidenceRefs {
		switch kind, id, ok := gate.ParseRef(ref); {
		case !ok:
		case kind == gate.KindEvent:
			rec.EventIDs = append(rec.EventIDs, id)
		case kind == gate.KindNode:
			rec.NodeIDs = append(rec.NodeIDs, id)
		}
	}
	rec.EventIDs = slices.Compact(slices.Sorted(slices.Values(rec.EventIDs)))
	rec.NodeIDs = slices.Compact(slices.Sorted(slices.Values(rec.NodeIDs)))
	return rec
}

// putAssessment stores rec under its id inside tx, checking that the
// events and nodes it cites exist. The same record again is a no-op; a
// different one under the same id is ErrAssessment.
func putAssessment(tx *bolt.Tx, rec *assessmentRecord, now int64) error {
	b := tx.Bucket(kv.BucketAssessments)
	if v := b.Get([]byte(rec.ID)); v != nil {
		var prev assessmentRecord
		if _, err := kv.Decode(v, &prev, assessmentVersion); err != nil {
			return fmt.Errorf("assessment %q: %w", rec.ID, err)
		}
		if !prev.sameAs(rec) {
			return invalid(ErrAssessment, "assessment id %q is already recorded for another assessment "+
				"(gate.NewSession numbers sessions per process: start them with Memory.NewSession)", rec.ID)
		}
		return nil
	}
	for _, id := range rec.EventIDs {
		if _, err := events.Get(tx, id); err != nil {
			return fmt.Errorf("assessment %q cites event %d: %w", rec.ID, id, err)
		}
	}
	for _, id := range rec.NodeIDs {
		if _, err := graph.GetNode(tx, id); err != nil {
			return fmt.Errorf("assessment %q cites node %d: %w", rec.ID, id, err)
		}
	}
	rec.At = now
	v, err := kv.Encode(assessmentVersion, rec)
	if err != nil {
		return err
	}
	return b.Put([]byte(rec.ID), v)
}

// getAssessment reads the assessment recorded under id.
func getAssessment(tx *bolt.Tx, id string) (assessmentRecord, error) {
	var rec assessmentRecord
	v := tx.Bucket(kv.BucketAssessments).Get([]byte(id))
	if v == nil {
		return rec, fmt.Errorf("%w: %w: %w: assessment %q is not recorded (record it with RecordAssessment, or use Ask)",
			ErrInvalidInput, ErrAssessment, ErrNotFound, id)
	}
	if _, err := kv.Decode(v, &rec, assessmentVersion); err != nil {
		return rec, fmt.Errorf("assessment %q: %w", id, err)
	}
	return rec, nil
}

// checkBacked checks that assessment rec, recorded and sufficient, cites
// every event and node of the use.
func checkBacked(rec *assessmentRecord, evs, nodes []uint64) error {
	if rec.Verdict != string(gate.Sufficient) {
		return invalid(ErrAssessment, "assessment %q is %s, not sufficient", rec.ID, rec.Verdict)
	}
	for _, id := range evs {
		if _, ok := slices.BinarySearch(rec.EventIDs, id); !ok {
			return invalid(ErrAssessment, "event %d is not cited by assessment %q (it cites %v)", id, rec.ID, rec.Refs)
		}
	}
	for _, id := range nodes {
		if _, ok := slices.BinarySearch(rec.NodeIDs, id); !ok {
			return invalid(ErrAssessment, "node %d is not cited by assessment %q (it cites %v)", id, rec.ID, rec.Refs)
		}
	}
	return nil
}

// recordAsk stores Ask's sufficient assessment (so that the use is backed
// by it) and records the use of the events and nodes it cites that the
// answer's evidence holds, under receipt "ask:<assessment id>", in one
// transaction.
func (m *Memory) recordAsk(ctx context.Context, sess *gate.Session, id string, inAnswer Use, mt *model.Meter) error {
	var final *gate.Assessment
	st := sess.State()
	for i := range st.Assessments {
		if st.Assessments[i].ID == id {
			final = &st.Assessments[i]
		}
	}
	if final == nil || final.Verdict != gate.Sufficient {
		return fmt.Errorf("%w: %w: the session holds no sufficient assessment %q", ErrInvalidInput, ErrAssessment, id)
	}
	rec := newAssessmentRecord(nil, final)
	rec.Prompt, rec.Usage = mt.PromptOf(model.TaskAssessEvidence), mt.Usage()
	if len(st.Steps) > 0 {
		last := st.Steps[len(st.Steps)-1] // the sufficient batch ends the session
		rec.Strategy, rec.Query = string(last.Strategy), last.Query
	}
	use := Use{AssessmentID: id, ReceiptID: "ask:" + id}
	for _, e := range inAnswer.EventIDs {
		if _, ok := slices.BinarySearch(rec.EventIDs, e); ok {
			use.EventIDs = append(use.EventIDs, e)
		}
	}
	for _, n := range inAnswer.NodeIDs {
		if _, ok := slices.BinarySearch(rec.NodeIDs, n); ok {
			use.NodeIDs = append(use.NodeIDs, n)
		}
	}
	release, err := m.enter(ctx)
	if err != nil {
		return err
	}
	defer release()
	now := m.opts.Clock()
	return m.db.Update(func(tx *bolt.Tx) error {
		if err := putAssessment(tx, &rec, now.UnixNano()); err != nil {
			return err
		}
		if err := addAskUsage(tx, mt); err != nil {
			return err
		}
		if len(use.EventIDs) == 0 && len(use.NodeIDs) == 0 {
			return nil // the answer rests on messages or blocks only
		}
		return recordUse(tx, &use, now)
	})
}

// chargeAsk adds the usage of an Ask whose use is not recorded (no
// sufficient verdict, or an error) to the file's totals. The offline gate
// makes no model call, so it writes nothing.
func (m *Memory) chargeAsk(ctx context.Context, mt *model.Meter) error {
	if m.opts.ReadOnly || mt.Usage().IsZero() {
		return nil
	}
	release, err := m.enter(context.WithoutCancel(ctx))
	if err != nil {
		return err
	}
	defer release()
	return m.db.Update(func(tx *bolt.Tx) error { return addAskUsage(tx, mt) })
}

// addAskUsage adds an Ask's usage to the totals by gate task.
func addAskUsage(tx *bolt.Tx, mt *model.Meter) error {
	for task, u := range mt.ByTask() {
		if err := wal.AddUsage(tx, string(task), u); err != nil {
			return err
		}
	}
	return nil
}

// RecordAssessment records a sufficient assessment of batch b, for an
// application that drives a gate.Session itself (Ask records its own), and
// returns its id: the Use.AssessmentID under which RecordMemoryUse may
// then adopt the events and nodes it cites. The assessment is validated
// against b again (gate.Validate) and must come out sufficient
// (ErrAssessment otherwise); the events and nodes it cites must exist
// (ErrNotFound). Recording the same assessment twice is a no-op; another
// assessment under a recorded id is ErrAssessment — start sessions with
// NewSession so that ids never repeat across processes.
func (m *Memory) RecordAssessment(ctx context.Context, b *gate.Batch, a gate.Assessment) (string, error) {
	release, err := m.enter(ctx)
	if err != nil {
		return "", err
	}
	defer release()
	if m.opts.ReadOnly {
		return "", ErrReadOnly
	}
	if b == nil {
		return "", invalid(ErrEmpty, "no batch")
	}
	v, err := gate.Validate(b, a)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrInvalidInput, err)
	}
	if v.Verdict != gate.Sufficient {
		return "", invalid(ErrAssessment, "assessment of batch %q is %s, not sufficient (rejected refs: %v)", b.ID, v.Verdict, v.RejectedRefs)
	}
	if err := checkName("assessment id", v.ID, true); err != nil {
		return "", err
	}
	rec := newAssessmentRecord(b, &v)
	now := m.opts.Clock().UnixNano()
	if err := m.db.Update(func(tx *bolt.Tx) error { return putAssessment(tx, &rec, now) }); err != nil {
		return "", err
	}
	return rec.ID, nil
}

// NewSession starts a gate session for question q whose batch and
// assessment ids are unique in this file across processes and restarts:
// "p<n>-s<k>-b<j>-a1", where n is drawn once per writable Memory from a
// sequence persisted in the file (a ReadOnly Memory, which records
// nothing, uses a random prefix "r<hex>-" instead). Drive it as any
// gate.Session (or with gate.RunSession) and record its sufficient
// assessment with RecordAssessment.
func (m *Memory) NewSession(ctx context.Context, q *gate.Question, budget gate.Budget) (*gate.Session, error) {
	release, err := m.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	p, err := m.sessionPrefix()
	if err != nil {
		return nil, err
	}
	return gate.NewSessionPrefix(p, q, budget), nil
}

// keySessions is the meta key of the session-prefix sequence: how many
// writable Memories have started gate sessions on this file.
var keySessions = []byte("sessions")

// sessionPrefix returns m's session-id prefix, drawing it on first use.
// The caller holds m's read lock.
func (m *Memory) sessionPrefix() (string, error) {
	m.prefix.Lock()
	defer m.prefix.Unlock()
	if m.prefix.s != "" {
		return m.prefix.s, nil
	}
	if m.opts.ReadOnly {
		var r [6]byte
		if _, err := rand.Read(r[:]); err != nil {
			return "", err
		}
		m.prefix.s = "r" + hex.EncodeToString(r[:]) + "-"
		return m.prefix.s, nil
	}
	var n uint64
	// Committed (and synced) before any id uses it: a crash after the
	// draw only skips a number.
	err := m.db.Update(func(tx *bolt.Tx) error {
		meta := tx.Bucket(kv.BucketMeta)
		if v := meta.Get(keySessions); v != nil {
			if len(v) != 8 {
				return fmt.Errorf("meta %q: %w: %d bytes", keySessions, ErrCorrupt, len(v))
			}
			n = binary.BigEndian.Uint64(v)
		}
		n++
		return meta.Put(keySessions, kv.Key(n))
	})
	if err != nil {
		return "", err
	}
	m.prefix.s = fmt.Sprintf("p%d-", n)
	return m.prefix.s, nil
}
