//go:build sqlite_fts5

package main

const haveFTS5 = true
