package graph

import (
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/bm25"
	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/model"
)

const benchNodes = 50_000

var (
	nodesOnce  sync.Once
	nodesDB    *kv.DB
	nodesIx    *index.Index
	nodesErr   error
	nodeWords  []string
	benchNames []string
)

func word(rng *rand.Rand) string {
	const cons, vows = "bcdfghjklmnprstvz", "aeiou"
	b := make([]byte, 0, 8)
	for range 2 + rng.IntN(3) {
		b = append(b, cons[rng.IntN(len(cons))], vows[rng.IntN(len(vows))])
	}
	return string(b)
}

// putEvent stores a minimal active card so that facts citing it are active.
func putEvent(tx *bolt.Tx, id uint64, at time.Time) error {
	c := events.Card{ID: id, Scope: "global", Thread: "t", Title: "e", Summary: "e", EventType: events.TypeFact,
		Status: events.StatusCompleted, Criticality: events.CriticalityRoutine, Lifecycle: events.LifecycleActive,
		Temporal: events.Temporal{MentionedAt: at}}
	v, err := events.Encode(&c)
	if err != nil {
		return err
	}
	return tx.Bucket(kv.BucketEvents).Put(kv.Key(id), v)
}

// benchOps returns the ops of batch i: 100 nodes with two facts and an edge.
func benchOps(rng *rand.Rand, ev uint64) []model.GraphOp {
	kinds := []string{"person", "person", "tool", "place", "project"}
	var ops []model.GraphOp
	for range 100 {
		k := kinds[rng.IntN(len(kinds))]
		name := word(rng) + " " + word(rng)
		benchNames = append(benchNames, name)
		cite := []uint64{ev}
		ops = append(ops,
			model.GraphOp{Op: model.OpUpsertNode, Kind: k, Name: name, Tags: []string{nodeWords[rng.IntN(len(nodeWords))]}, EventIDs: cite},
			model.GraphOp{Op: model.OpSetFact, Kind: k, Name: name, Key: "likes", Value: nodeWords[rng.IntN(len(nodeWords))], EventIDs: cite},
			model.GraphOp{Op: model.OpSetFact, Kind: k, Name: name, Key: "status", Value: nodeWords[rng.IntN(len(nodeWords))], EventIDs: cite},
			model.GraphOp{Op: model.OpAddEdge, Kind: k, Name: name, Relation: "knows", Target: word(rng), EventIDs: cite},
		)
	}
	return ops
}

func buildNodes(b *testing.B) {
	nodesOnce.Do(func() {
		dir, err := os.MkdirTemp("", "sg-graph-bench-")
		if err != nil {
			nodesErr = err
			return
		}
		if nodesDB, nodesErr = kv.Open(filepath.Join(dir, "g.sg"), kv.Options{NoSync: true}); nodesErr != nil {
			return
		}
		nodesIx = NewIndex()
		rng := rand.New(rand.NewPCG(3, 4))
		for len(nodeWords) < 5000 {
			nodeWords = append(nodeWords, word(rng))
		}
		log := slog.New(slog.DiscardHandler)
		at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
		for ev := uint64(1); nodesErr == nil && len(benchNames) < benchNodes; ev++ {
			nodesErr = nodesDB.Update(func(tx *bolt.Tx) error {
				if err := putEvent(tx, ev, at); err != nil {
					return err
				}
				b := &Batch{Scope: "global", Events: map[uint64]*BatchEvent{ev: {ID: ev, MentionedAt: at}}, Now: at}
				res, err := Apply(tx, b, benchOps(rng, ev), log)
				if err != nil {
					return err
				}
				return Reindex(tx, nodesIx, res.Touched)
			})
		}
	})
	if nodesErr != nil {
		b.Fatal(nodesErr)
	}
}

// BenchmarkSearchGraphNodes: BM25F over 50k nodes (names, tags, facts,
// relations), warm cache, fresh read transaction per query.
func BenchmarkSearchGraphNodes(b *testing.B) {
	buildNodes(b)
	rng := rand.New(rand.NewPCG(9, 9))
	var queries [][]string
	for range 500 {
		var q string
		switch rng.IntN(3) {
		case 0:
			q = benchNames[rng.IntN(len(benchNames))]
		case 1:
			q = nodeWords[rng.IntN(len(nodeWords))]
		default:
			q = fmt.Sprint(benchNames[rng.IntN(len(benchNames))], " ", nodeWords[rng.IntN(len(nodeWords))])
		}
		queries = append(queries, bm25.AppendTerms(nil, q))
	}
	run := func(terms []string) {
		if err := nodesDB.View(func(tx *bolt.Tx) error {
			_, err := nodesIx.Search(tx, index.Query{Terms: terms, Scopes: []string{"global"}, K: 10})
			return err
		}); err != nil {
			b.Fatal(err)
		}
	}
	for _, q := range queries {
		run(q)
	}
	lat := make([]time.Duration, 0, 1024)
	b.ReportAllocs()
	b.ResetTimer()
	i := 0
	for b.Loop() {
		t0 := time.Now()
		run(queries[i%len(queries)])
		lat = append(lat, time.Since(t0))
		i++
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
	b.ReportMetric(float64(len(benchNames)), "nodes")
}

// BenchmarkProjectBatch: applying one batch of 400 ops (100 new nodes with
// facts and edges) and reindexing the touched nodes, rolled back each time.
func BenchmarkProjectBatch(b *testing.B) {
	db, err := kv.Open(filepath.Join(b.TempDir(), "p.sg"), kv.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ix := NewIndex()
	rng := rand.New(rand.NewPCG(5, 6))
	for len(nodeWords) < 5000 {
		nodeWords = append(nodeWords, word(rng))
	}
	at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := db.Update(func(tx *bolt.Tx) error {
		if err := ix.Create(tx); err != nil {
			return err
		}
		return putEvent(tx, 1, at)
	}); err != nil {
		b.Fatal(err)
	}
	ops := benchOps(rng, 1)
	benchApply(b, db, ix, ops, map[uint64]*BatchEvent{1: {ID: 1, MentionedAt: at}}, at)
	b.ReportMetric(float64(len(ops)*b.N)/b.Elapsed().Seconds(), "ops/s")
}

// benchApply times applying ops as one batch citing evs and reindexing
// the nodes they touch, rolled back each time.
func benchApply(b *testing.B, db *kv.DB, ix *index.Index, ops []model.GraphOp, evs map[uint64]*BatchEvent, at time.Time) {
	log := slog.New(slog.DiscardHandler)
	errRollback := fmt.Errorf("rollback")
	b.ReportAllocs()
	for b.Loop() {
		err := db.Update(func(tx *bolt.Tx) error {
			res, err := Apply(tx, &Batch{Scope: "global", Events: evs, Now: at}, ops, log)
			if err != nil {
				return err
			}
			if err := Reindex(tx, ix, res.Touched); err != nil {
				return err
			}
			return errRollback
		})
		if err != errRollback {
			b.Fatal(err)
		}
	}
}

// BenchmarkProjectHub: one batch touching a hub node, the way a long-lived
// store's user or main project is touched by most blocks: the hub was
// cited by 2,000 events and links 300 people each way. The batch adds a
// source, an edge of a relation the hub has 300 of, and a fact, then
// reindexes the hub; rolled back each time.
func BenchmarkProjectHub(b *testing.B) {
	db, err := kv.Open(filepath.Join(b.TempDir(), "h.sg"), kv.Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ix := NewIndex()
	at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	log := slog.New(slog.DiscardHandler)
	const evs = 2000
	evMap := map[uint64]*BatchEvent{}
	if err := db.Update(func(tx *bolt.Tx) error {
		if err := ix.Create(tx); err != nil {
			return err
		}
		for id := uint64(1); id <= evs; id++ {
			if err := putEvent(tx, id, at); err != nil {
				return err
			}
			evMap[id] = &BatchEvent{ID: id, MentionedAt: at}
		}
		var ops []model.GraphOp
		for i := range evs {
			ops = append(ops, model.GraphOp{Op: model.OpUpsertNode, Kind: "person", Name: "Hub Person", EventIDs: []uint64{uint64(i + 1)}})
		}
		for i := range 300 {
			p := fmt.Sprint("Friend ", i)
			ops = append(ops,
				model.GraphOp{Op: model.OpAddEdge, Kind: "person", Name: "Hub Person", Relation: "knows", TargetKind: "person", Target: p, EventIDs: []uint64{uint64(i + 1)}},
				model.GraphOp{Op: model.OpAddEdge, Kind: "person", Name: p, Relation: "works_with", TargetKind: "person", Target: "Hub Person", EventIDs: []uint64{uint64(i + 1)}})
		}
		var touched []uint64
		for len(ops) > 0 { // in batches a projection may send
			n := min(len(ops), MaxOpsPerBatch)
			res, err := Apply(tx, &Batch{Scope: "global", Events: evMap, Now: at}, ops[:n], log)
			if err != nil {
				return err
			}
			touched = append(touched, res.Touched...)
			ops = ops[n:]
		}
		slices.Sort(touched)
		return Reindex(tx, ix, slices.Compact(touched))
	}); err != nil {
		b.Fatal(err)
	}
	ops := []model.GraphOp{
		{Op: model.OpUpsertNode, Kind: "person", Name: "Hub Person", EventIDs: []uint64{7}},
		{Op: model.OpAddEdge, Kind: "person", Name: "Hub Person", Relation: "knows", TargetKind: "person", Target: "Friend 7", EventIDs: []uint64{7}},
		{Op: model.OpSetFact, Kind: "person", Name: "Hub Person", Key: "likes", Value: "tea", EventIDs: []uint64{7}},
	}
	benchApply(b, db, ix, ops, evMap, at)
}
