package index_test

import (
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
)

func TestZZAllocs(t *testing.T) {
	db, err := kv.Open(filepath.Join(t.TempDir(), "a.sg"), kv.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ix := index.New("bench", []index.Field{{Name: "text"}}, index.Options{})
	var docs []index.Doc
	corpusDocsGen(20000, func(d index.Doc) { docs = append(docs, d) })
	if err := addBatches(db, ix, docs); err != nil {
		t.Fatal(err)
	}
	qs := benchQueries(130, 200, 3, allScopes)
	tx, _ := db.Bolt().Begin(false)
	defer tx.Rollback()
	for _, q := range qs {
		if _, err := ix.Search(tx, q); err != nil {
			t.Fatal(err)
		}
	}
	runtime.MemProfileRate = 1
	i := 0
	n := testing.AllocsPerRun(1000, func() {
		ix.Search(tx, qs[i%len(qs)])
		i++
	})
	t.Logf("allocs/query %.2f", n)
	f, _ := os.Create("/tmp/idxopt/zz.mem")
	pprof.Lookup("allocs").WriteTo(f, 0)
	f.Close()
	n = testing.AllocsPerRun(200, func() {
		db.View(func(tx *bolt.Tx) error { _, err := ix.Search(tx, qs[i%len(qs)]); i++; return err })
	})
	t.Logf("allocs/query view %.2f", n)
}
