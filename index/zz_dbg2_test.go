package index_test

import (
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/index"
)

func BenchmarkDbgOne(b *testing.B) {
	db, ix := corpus(b)
	q := index.Query{Terms: []string{"turalu", "jace", "mira", "wezi", "tawo"}, Scopes: allScopes, K: 10}
	b.ResetTimer()
	for range b.N {
		_ = db.View(func(tx *bolt.Tx) error { _, err := ix.Search(tx, q); return err })
	}
}
