package main

import (
	"context"
	"io/fs"
	"path/filepath"
	"syscall"
)

// engine is one search engine under comparison.
type engine interface {
	// name is the engine's name in the output.
	name() string
	// scoring says how the engine ranks.
	scoring() string
	// build indexes every document of c into a new index under dir.
	build(ctx context.Context, c *corpus, dir string, progress func(int)) error
	// close flushes the index to disk and closes it.
	close() error
	// open reopens the index built under dir for searching.
	open(dir string) error
	// search returns the indexes (into corpus.docs) of the top k documents
	// for q, best first, among documents of any of the corpus's scopes.
	search(ctx context.Context, q string, k int) ([]int, error)
}

// diskBytes is what du reports for dir: the allocated blocks of every
// regular file under it.
func diskBytes(dir string) (int64, error) {
	var total int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			total += st.Blocks * 512
		} else {
			total += fi.Size()
		}
		return nil
	})
	return total, err
}
