package capture

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Summary is what Import did.
type Summary struct {
	// Files counts the transcript files read.
	Files int
	// Turns counts the complete turns parsed; Added those stored, and
	// Duplicates those already stored (by receipt) and skipped.
	Turns, Added, Duplicates int
	// Rejected lists the lines that could not be read, the turns the store
	// refused and the paths that could not be walked or read, with reasons.
	Rejected []Reject
}

// maxListedRejects bounds the rejects String lists.
const maxListedRejects = 10

// String is a short summary: the counts on one line, then up to ten
// rejects with their reasons.
func (s Summary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d files, %d turns: %d added, %d duplicates, %d rejected", s.Files, s.Turns, s.Added, s.Duplicates, len(s.Rejected))
	for i, r := range s.Rejected {
		if i == maxListedRejects {
			fmt.Fprintf(&b, "\n  … %d more", len(s.Rejected)-i)
			break
		}
		b.WriteString("\n  " + r.String())
	}
	return b.String()
}

// progressEvery throttles Import's progress lines.
const progressEvery = time.Second

// Import backfills st from existing transcripts of kind: each path is a
// file, or a folder walked recursively for *.jsonl files (in lexical
// order). Each file is parsed whole (ParseOptions.Final: its last turn is
// complete) with the working directory it names first, and its turns are
// appended with their receipts, so importing again adds nothing (every
// turn a duplicate) and an import after the hook captured a session
// neither (the hook and Import derive the same receipts). Cursors are not
// touched. Progress lines go to progress (at most one a second, and a
// last one; nil for none).
//
// Unreadable paths and lines, and turns the store refuses, are listed in
// the Summary and the import goes on; a store failure or the end of ctx
// stops it with the error and the Summary so far.
func Import(ctx context.Context, st Store, kind Kind, paths []string, progress io.Writer) (Summary, error) {
	var s Summary
	if _, err := ParseKind(string(kind)); err != nil {
		return s, err
	}
	var files []string
	for _, p := range paths {
		err := filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				s.Rejected = append(s.Rejected, Reject{File: path, Reason: err.Error()})
				return nil
			case path == p && !d.IsDir():
				files = append(files, path) // named explicitly: whatever its name
			case d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".jsonl"):
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return s, err
		}
	}
	last := time.Now()
	report := func(done int) {
		if progress != nil {
			fmt.Fprintf(progress, "import %s: %d/%d files, %d turns (%d added, %d duplicates, %d rejected)\n",
				kind, done, len(files), s.Turns, s.Added, s.Duplicates, len(s.Rejected))
		}
	}
	for i, path := range files {
		if err := ctx.Err(); err != nil {
			return s, err
		}
		if err := importFile(ctx, st, kind, path, &s); err != nil {
			return s, fmt.Errorf("capture: import %s: %w", path, err)
		}
		if now := time.Now(); now.Sub(last) >= progressEvery {
			last = now
			report(i + 1)
		}
	}
	report(len(files))
	return s, nil
}

func importFile(ctx context.Context, st Store, kind Kind, path string, s *Summary) error {
	data, err := os.ReadFile(path)
	if err != nil {
		s.Rejected = append(s.Rejected, Reject{File: path, Reason: err.Error()})
		return nil
	}
	s.Files++
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	b, err := Parse(kind, data, 0, ParseOptions{
		Session: strings.TrimSuffix(filepath.Base(path), ".jsonl"),
		Cwd:     FileCwd(kind, data[:min(len(data), headBytes)]),
		Final:   true,
	})
	if err != nil {
		return err
	}
	for _, r := range b.Rejected {
		r.File = abs
		s.Rejected = append(s.Rejected, r)
	}
	s.Turns += len(b.Turns)
	res, err := Apply(ctx, st, b, abs, "")
	s.Added += res.Added
	s.Duplicates += res.Duplicates
	s.Rejected = append(s.Rejected, res.Rejected...)
	return err
}
