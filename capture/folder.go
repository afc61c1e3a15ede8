package capture

import (
	"bytes"
	"encoding/json"
)

// folder is the state both parsers share: the turn being folded, the
// turns completed, and what was rejected or skipped.
type folder struct {
	kind     Kind
	opts     ParseOptions
	cur      *openTurn
	done     []*openTurn
	rejected []Reject
	skipped  []int64 // offsets of lines skipped by rule
	cwd      string  // the first working directory named in the data
}

func newFolder(kind Kind, opts ParseOptions) *folder {
	return &folder{kind: kind, opts: opts.withDefaults()}
}

// maxReason bounds a reject's reason (a JSON error may quote input).
const maxReason = 200

func (f *folder) reject(l line, reason string) {
	if len(reason) > maxReason {
		reason = cleanContent(reason, maxReason+64)[:maxReason] + "…"
	}
	f.rejected = append(f.rejected, Reject{Origin: l.Origin, Reason: cleanContent(reason, 1<<10)})
}

// decode parses line l into v; a blank line is nothing, and a line that is
// not one JSON object is rejected with the reason (false either way).
func (f *folder) decode(l line, v any) bool {
	txt := bytes.TrimSpace(l.text)
	if len(txt) == 0 {
		return false
	}
	if txt[0] != '{' {
		f.reject(l, "not a JSON object")
		return false
	}
	if err := json.Unmarshal(txt, v); err != nil {
		f.reject(l, "invalid JSON: "+err.Error())
		return false
	}
	return true
}

func (f *folder) skipLine(l line) { f.skipped = append(f.skipped, l.Offset) }

func (f *folder) sawCwd(dir string) {
	if f.cwd == "" {
		f.cwd = dir
	}
}

func (f *folder) open(l line, thread, key string) {
	f.cur = &openTurn{thread: thread, key: key, origin: l.Origin}
}

// ensure opens a turn for a line that continues one (a reply, a tool
// result) when none is open: the data starts inside a turn.
func (f *folder) ensure(l line, thread, key string) {
	if f.cur == nil {
		f.open(l, thread, key)
	}
}

func (f *folder) close() {
	if f.cur != nil {
		f.done = append(f.done, f.cur)
		f.cur = nil
	}
}

// batch closes the fold: end is the offset after the last complete line
// and whole says the data ended there (no incomplete line).
func (f *folder) batch(end int64, whole bool) Batch {
	if f.opts.Final && whole {
		f.close()
	}
	b := Batch{Next: end}
	if f.cur != nil {
		b.Next = f.cur.origin.Offset
	}
	cwd := f.opts.Cwd
	if cwd == "" {
		cwd = f.cwd
	}
	scope := ProjectScope(cwd)
	for _, t := range f.done {
		for _, turn := range finish(t, f.kind, scope, f.opts) {
			b.Turns = append(b.Turns, turn)
			b.Origins = append(b.Origins, t.origin)
		}
	}
	for _, r := range f.rejected {
		if r.Offset < b.Next {
			b.Rejected = append(b.Rejected, r)
		}
	}
	for _, off := range f.skipped {
		if off < b.Next {
			b.Skipped++
		}
	}
	return b
}
