package main

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"

	_ "github.com/mattn/go-sqlite3" // build with -tags sqlite_fts5
)

const sqliteBatch = 10000

// sqliteEngine is SQLite FTS5 on disk (go-sqlite3, built with the
// sqlite_fts5 tag): one contentless FTS5 table indexing the text
// (unicode61 tokenizer; the text itself not stored: the comparison is of
// indexes) with the scope as a stored UNINDEXED column
// (contentless_unindexed, SQLite ≥ 3.47), loaded in
// transactions of 10,000 rows with synchronous=OFF and WAL, then
// 'optimize'd; queries are the words OR-ed, filtered by scope, ORDER BY
// bm25(t) LIMIT k.
type sqliteEngine struct {
	db   *sql.DB
	stmt *sql.Stmt
}

func (e *sqliteEngine) name() string { return "sqlite-fts5" }
func (e *sqliteEngine) scoring() string {
	return "bm25 (FTS5 bm25(), k1 1.2, b 0.75; unicode61 tokenizer)"
}

func (e *sqliteEngine) path(dir string) string { return filepath.Join(dir, "fts5.db") }

func (e *sqliteEngine) connect(dir string) error {
	db, err := sql.Open("sqlite3", "file:"+e.path(dir)+"?_journal_mode=WAL&_synchronous=OFF")
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(1)
	e.db = db
	return nil
}

func (e *sqliteEngine) build(ctx context.Context, c *corpus, dir string, progress func(int)) error {
	if err := e.connect(dir); err != nil {
		return err
	}
	if _, err := e.db.ExecContext(ctx, `CREATE VIRTUAL TABLE t USING fts5(text, scope UNINDEXED, tokenize = 'unicode61', content = '', contentless_unindexed = 1)`); err != nil {
		if strings.Contains(err.Error(), "no such module: fts5") {
			return fmt.Errorf("%w (build with -tags sqlite_fts5)", err)
		}
		return err
	}
	for lo := 0; lo < len(c.docs); lo += sqliteBatch {
		hi := min(lo+sqliteBatch, len(c.docs))
		tx, err := e.db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		ins, err := tx.PrepareContext(ctx, `INSERT INTO t(rowid, text, scope) VALUES (?, ?, ?)`)
		if err != nil {
			tx.Rollback()
			return err
		}
		for i := lo; i < hi; i++ {
			if _, err := ins.ExecContext(ctx, i+1, c.docs[i].text, c.docs[i].scope); err != nil {
				tx.Rollback()
				return err
			}
		}
		ins.Close()
		if err := tx.Commit(); err != nil {
			return err
		}
		progress(hi - lo)
	}
	if _, err := e.db.ExecContext(ctx, `INSERT INTO t(t) VALUES ('optimize')`); err != nil {
		return err
	}
	_, err := e.db.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	return err
}

func (e *sqliteEngine) close() error {
	if e.db == nil {
		return nil
	}
	if e.stmt != nil {
		e.stmt.Close()
		e.stmt = nil
	}
	err := e.db.Close()
	e.db = nil
	return err
}

func (e *sqliteEngine) open(dir string) error {
	if err := e.connect(dir); err != nil {
		return err
	}
	ph := strings.TrimSuffix(strings.Repeat("?, ", len(scopes)), ", ")
	stmt, err := e.db.Prepare(`SELECT rowid FROM t WHERE t MATCH ? AND scope IN (` + ph + `) ORDER BY bm25(t) LIMIT ?`)
	if err != nil {
		return err
	}
	e.stmt = stmt
	return nil
}

// ftsQuery ORs the words of q, each quoted as an FTS5 string.
func ftsQuery(q string) string {
	words := strings.Fields(q)
	for i, w := range words {
		words[i] = `"` + strings.ReplaceAll(w, `"`, `""`) + `"`
	}
	return strings.Join(words, " OR ")
}

func (e *sqliteEngine) search(ctx context.Context, q string, k int) ([]int, error) {
	args := []any{ftsQuery(q)}
	for _, s := range scopes {
		args = append(args, s)
	}
	args = append(args, k)
	rows, err := e.stmt.QueryContext(ctx, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var id int
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id-1)
	}
	return out, rows.Err()
}
