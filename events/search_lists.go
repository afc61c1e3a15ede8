package events

import (
	"bytes"
	"encoding/binary"
	"slices"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/stratagate/stratagate/events/temporal"
	"github.com/stratagate/stratagate/index"
	"github.com/stratagate/stratagate/kv"
	"github.com/stratagate/stratagate/layers"
)

// scratch is one Search's working state. It is pooled so that a query
// reuses the slices of earlier ones instead of allocating its lists,
// candidate set and views again; nothing in it outlives the Search that
// took it (views alias the transaction's memory and are dropped on
// release).
type scratch struct {
	ranks    rankReader
	useCur   *bolt.Cursor
	key      [8]byte
	cands    []uint64   // candidate ids; sorted and unique once views are read
	views    []rankView // the candidates' rank views, in id order
	ls       [][]uint64
	bufs     [][]uint64 // backing arrays for lists, reused in order
	nbuf     int
	probe    []byte
	spans    [][2]int32
	probes   []string
	found    []bool
	carry    []bool
	firsts   []uint64
	people   []string
	entities []string
	types    []string
	fits     []fitted
	times    []timed
	ws       []weighted
}

type fitted struct {
	id        uint64
	contained bool
	width     time.Duration
	dist      time.Duration
}

type timed struct {
	id uint64
	t  time.Time
}

type weighted struct {
	id uint64
	w  float64
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// maxPooledViews bounds the views a pooled scratch keeps capacity for: a
// rare huge query should not pin its memory.
const maxPooledViews = 4096

func (s *scratch) release() {
	for i := range s.views {
		s.views[i].thread = nil
	}
	s.ranks, s.useCur = rankReader{}, nil
	if cap(s.views) > maxPooledViews {
		return
	}
	scratchPool.Put(s)
}

// newList returns an empty list with room for n ids, reusing a backing
// array of an earlier query.
func (s *scratch) newList(n int) []uint64 {
	if s.nbuf == len(s.bufs) {
		s.bufs = append(s.bufs, nil)
	}
	b := s.bufs[s.nbuf]
	if cap(b) < n {
		b = make([]uint64, 0, max(n, structuredCandidates))
		s.bufs[s.nbuf] = b
	}
	s.nbuf++
	return b[:0]
}

// addIDs appends a non-empty list to the fused lists and its ids to the
// candidates.
func (s *scratch) addIDs(l []uint64) {
	if len(l) == 0 {
		return
	}
	s.cands = append(s.cands, l...)
	s.ls = append(s.ls, l)
}

func (s *scratch) addResults(rs []index.Result) {
	if len(rs) == 0 {
		return
	}
	l := s.newList(len(rs))
	for _, r := range rs {
		l = append(l, r.ID)
	}
	s.addIDs(l)
}

// typeKeywords is KeywordType + t for every cue type, built once.
var typeKeywords = func() map[Type]string {
	m := map[Type]string{}
	for _, t := range typeCues {
		m[t] = KeywordType + string(t)
	}
	return m
}()

// lists builds the ranked lists fused by Search: lexical, then the
// participants, entities and type named in the question, time overlap,
// chronology and the use prior.
func (s *scratch) lists(tx *bolt.Tx, ix *index.Index, q *Query) ([][]uint64, error) {
	s.ls, s.cands, s.nbuf = s.ls[:0], s.cands[:0], 0
	var threadKW []string
	if q.Thread != "" {
		threadKW = []string{KeywordThread + q.Thread}
	}
	// Lexical: BM25F over the card fields.
	lex, err := ix.Search(tx, index.Query{Terms: q.Terms, Scopes: q.Scopes, Keywords: threadKW, K: lexicalCandidates})
	if err != nil {
		return nil, err
	}
	s.addResults(lex)
	// Structured: names, type, time.
	words := queryWords(q.Text)
	s.named(tx, ix, words)
	for _, kws := range [...][]string{s.people, s.entities, s.types} {
		if len(kws) == 0 {
			continue
		}
		rs, err := ix.Select(tx, index.Select{Scopes: q.Scopes, AnyKeywords: kws, Limit: structuredCandidates})
		if err != nil {
			return nil, err
		}
		// The cards of a named person (entity, type) that also match the
		// question's words come first, in lexical order; the rest follow
		// newest first. Newest-first alone would rank a person every card
		// involves by recency, above the cards the question is about. The
		// lexical matches are found among the lexical candidates (their
		// keywords read from the index's bitmaps), not only among the
		// newest cards Select returns: a person with more cards than that
		// would otherwise lose their older matching cards here.
		if s.carry, err = ix.CarryAny(tx, kws, lex, s.carry); err != nil {
			return nil, err
		}
		list := s.newList(structuredCandidates)
		s.firsts = s.firsts[:0]
		for i, r := range lex {
			if len(list) < structuredCandidates && s.carry[i] {
				list = append(list, r.ID)
				s.firsts = append(s.firsts, r.ID)
			}
		}
		slices.Sort(s.firsts)
		for _, r := range rs {
			if len(list) < structuredCandidates {
				if _, first := slices.BinarySearch(s.firsts, r.ID); !first {
					list = append(list, r.ID)
				}
			}
		}
		s.addIDs(list)
	}
	timeList := -1
	tm := firstKnown(temporal.Find(q.Text, q.Now))
	if tm != nil {
		rs, err := ix.Select(tx, index.Select{Scopes: q.Scopes, From: tm.Start, To: tm.End.Add(-1), Limit: structuredCandidates})
		if err != nil {
			return nil, err
		}
		if len(rs) > 0 {
			timeList = len(s.ls)
		}
		s.addResults(rs)
	}
	if len(s.cands) == 0 {
		return nil, nil
	}
	// Every candidate's view is read only when something reads every
	// candidate's fields: the time fit, the chronology order, Search's
	// thread and time filters. Otherwise only the cards some answer used
	// need theirs (the use prior), and a search reads no other.
	dir := chronologyIntent(words)
	slices.Sort(s.cands)
	s.cands = slices.Compact(s.cands)
	s.views = s.views[:0]
	s.ranks.reset(tx)
	if timeList >= 0 || dir != 0 || q.Thread != "" || !q.From.IsZero() || !q.To.IsZero() {
		if err := s.readViews(); err != nil {
			return nil, err
		}
	}
	if timeList >= 0 {
		s.byTimeFit(s.ls[timeList], tm.Start, tm.End)
	}
	// Chronology intent and the use-weight prior reorder the candidates;
	// they never add any.
	if dir != 0 {
		s.times = s.times[:0]
		for i := range s.views {
			s.times = append(s.times, timed{s.views[i].id, s.views[i].eventTime()})
		}
		slices.SortStableFunc(s.times, func(a, b timed) int { return dir * a.t.Compare(b.t) })
		ids := s.newList(len(s.times))
		for _, t := range s.times {
			ids = append(ids, t.id)
		}
		s.ls = append(s.ls, ids)
	}
	s.ws = s.ws[:0]
	for i, id := range s.cands {
		w, err := s.priorWeight(tx, id, i)
		if err != nil {
			return nil, err
		}
		if w > 0 {
			s.ws = append(s.ws, weighted{id, w})
		}
	}
	if len(s.ws) > 0 {
		slices.SortStableFunc(s.ws, func(a, b weighted) int {
			switch {
			case a.w > b.w:
				return -1
			case a.w < b.w:
				return 1
			}
			return 0
		})
		ids := s.newList(len(s.ws))
		for _, w := range s.ws {
			ids = append(ids, w.id)
		}
		s.ls = append(s.ls, ids)
	}
	return s.ls, nil
}

// named sets s.people and s.entities to the participant and entity
// keywords of the index that the question's words and word pairs name, in
// the order they occur, and s.types to the types its cue words imply. The
// probed keywords are built in one buffer and looked up in one pass.
func (s *scratch) named(tx *bolt.Tx, ix *index.Index, words []string) {
	s.probe, s.spans = s.probe[:0], s.spans[:0]
	for i, w := range words {
		for pair := range 2 {
			if pair == 1 && i+1 >= len(words) {
				break
			}
			for _, prefix := range [...]string{KeywordParticipant, KeywordEntity} {
				a := len(s.probe)
				s.probe = append(append(s.probe, prefix...), w...)
				if pair == 1 {
					s.probe = append(append(s.probe, ' '), words[i+1]...)
				}
				s.spans = append(s.spans, [2]int32{int32(a), int32(len(s.probe))})
			}
		}
	}
	all := string(s.probe)
	s.probes = s.probes[:0]
	for _, sp := range s.spans {
		s.probes = append(s.probes, all[sp[0]:sp[1]])
	}
	s.found = ix.HasKeywords(tx, s.probes, s.found)
	s.people, s.entities, s.types = s.people[:0], s.entities[:0], s.types[:0]
	for j, p := range s.probes {
		switch {
		case !s.found[j]:
		case j%2 == 0:
			if !slices.Contains(s.people, p) {
				s.people = append(s.people, p)
			}
		default:
			if !slices.Contains(s.entities, p) {
				s.entities = append(s.entities, p)
			}
		}
	}
	for _, w := range words {
		if t, ok := typeCues[w]; ok && !slices.Contains(s.types, typeKeywords[t]) {
			s.types = append(s.types, typeKeywords[t])
		}
	}
}

// readViews reads the rank views of the candidates (sorted and unique), in
// id order (one forward pass of the table's cursor).
func (s *scratch) readViews() error {
	s.views = slices.Grow(s.views[:0], len(s.cands))[:len(s.cands)]
	for i, id := range s.cands {
		if err := s.ranks.read(id, &s.views[i]); err != nil {
			return err
		}
	}
	return nil
}

// view returns candidate id's view, nil if id is no candidate.
func (s *scratch) view(id uint64) *rankView {
	i, ok := slices.BinarySearch(s.cands, id)
	if !ok {
		return nil
	}
	return &s.views[i]
}

// byTimeFit orders ids (candidates overlapping [start, end)) by how well
// their happened interval fits it: contained intervals first, narrower
// before wider, then by distance of their start from start, then by id.
func (s *scratch) byTimeFit(ids []uint64, start, end time.Time) {
	s.fits = s.fits[:0]
	for _, id := range ids {
		v := s.view(id)
		st, e := v.start, v.end
		d := st.Sub(start)
		if d < 0 {
			d = -d
		}
		s.fits = append(s.fits, fitted{id: id, contained: !st.Before(start) && !e.After(end), width: e.Sub(st), dist: d})
	}
	slices.SortStableFunc(s.fits, func(fa, fb fitted) int {
		switch {
		case fa.contained != fb.contained:
			if fa.contained {
				return -1
			}
			return 1
		case fa.width != fb.width:
			return cmpDur(fa.width, fb.width)
		case fa.dist != fb.dist:
			return cmpDur(fa.dist, fb.dist)
		}
		return int(fa.id) - int(fb.id)
	})
	for i := range s.fits {
		ids[i] = s.fits[i].id
	}
}

// priorWeight is the use prior of candidate id (s.cands[i]): its weight
// if an answer ever used it, 0 (no place in the prior ranking) if none
// did. A card never used has only its criticality floor, which says how
// long it keeps its weight once used, not how relevant it is: ranking
// unused cards by floors would lift every identity or preference card
// above the lexical matches. Candidates come in id order, so the use
// bucket's cursor (and the rank table's, for a view not read yet) only
// moves forward.
func (s *scratch) priorWeight(tx *bolt.Tx, id uint64, i int) (float64, error) {
	if s.useCur == nil {
		b := tx.Bucket(kv.BucketUse)
		if b == nil {
			return 0, nil
		}
		s.useCur = b.Cursor()
	}
	binary.BigEndian.PutUint64(s.key[:], id)
	k, val := s.useCur.Seek(s.key[:])
	if !bytes.Equal(k, s.key[:]) {
		return 0, nil
	}
	u, err := decodeUse(val)
	if err != nil || u.Adoptions == 0 {
		return 0, err
	}
	var own rankView
	v := &own
	if len(s.views) == len(s.cands) {
		v = &s.views[i]
	} else if err := s.ranks.read(id, v); err != nil {
		return 0, err
	}
	th, _, err := layers.GetThread(tx, string(v.thread))
	if err != nil {
		return 0, err
	}
	c := v.card()
	return WeightFor(&c, u, true, th.Turns), nil
}
