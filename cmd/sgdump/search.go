package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/stratagate/stratagate"
)

var retrievalsCommand = &command{
	name: "retrievals", args: "[-n N]", summary: "the newest search observations",
	define: func(fs *flag.FlagSet) runner {
		n := fs.Int("n", 20, "show the newest `N` observations (0 shows all)")
		return func(e *env, args []string) error { return runRetrievals(e, args, *n) }
	},
}

type observationOut struct {
	ID       uint64   `json:"id"`
	At       string   `json:"at"`
	Channel  string   `json:"channel"`
	Text     string   `json:"text"`
	Scopes   []string `json:"scopes"`
	Thread   string   `json:"thread"`
	Returned []uint64 `json:"returned"`
}

func runRetrievals(e *env, args []string, n int) error {
	if len(args) > 0 {
		return usagef("unexpected argument %q", args[0])
	}
	if n < 0 {
		return usagef("-n %d: want 0 (all) or more", n)
	}
	mem, err := e.memory()
	if err != nil {
		return err
	}
	obs, err := mem.Observations(e.ctx, n)
	if err != nil {
		return err
	}
	out := make([]observationOut, len(obs))
	for i, o := range obs {
		out[i] = observationOut{ID: o.ID, At: stamp(o.At), Channel: o.Channel, Text: o.Text, Scopes: o.Scopes, Thread: o.Thread, Returned: o.Returned}
		if out[i].Scopes == nil {
			out[i].Scopes = []string{}
		}
		if out[i].Returned == nil {
			out[i].Returned = []uint64{}
		}
	}
	return e.emit(struct {
		Retrievals []observationOut `json:"retrievals"`
	}{out}, func(w io.Writer) error {
		tw := newTable(w)
		fmt.Fprintln(tw, "ID\tAT\tCHANNEL\tSCOPES\tTHREAD\tRETURNED\tQUERY")
		for _, o := range out {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%d\t%s\n", o.ID, o.At, o.Channel, strings.Join(o.Scopes, ","), dash(o.Thread), len(o.Returned), oneLine(o.Text, 60))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(w, "%d observations\n", len(out))
		return nil
	})
}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

var searchCommand = &command{
	name: "search", args: "[-scope S]... [-thread T] [-k N] QUERY",
	summary: "ranked search over L5 messages (not logged)",
	define: func(fs *flag.FlagSet) runner {
		var scopes multiFlag
		fs.Var(&scopes, "scope", "search `SCOPE` (repeatable; default global only)")
		thread := fs.String("thread", "", "search only `THREAD`")
		k := fs.Int("k", stratagate.DefaultLimit, "return at most `N` hits")
		return func(e *env, args []string) error {
			return runSearch(e, args, stratagate.Query{Scopes: scopes, Thread: *thread, Limit: *k})
		}
	},
}

type hitOut struct {
	Rank      int          `json:"rank"`
	MessageID uint64       `json:"message_id"`
	BlockID   uint64       `json:"block_id"`
	Thread    string       `json:"thread"`
	Speaker   string       `json:"speaker"`
	Role      string       `json:"role"`
	At        string       `json:"at"`
	Score     float64      `json:"score"`
	Snippet   string       `json:"snippet"`
	Prev      *neighborOut `json:"prev"`
	Next      *neighborOut `json:"next"`
}

type neighborOut struct {
	MessageID uint64 `json:"message_id"`
	Speaker   string `json:"speaker"`
	Role      string `json:"role"`
	At        string `json:"at"`
	Snippet   string `json:"snippet"`
}

func toNeighbor(n *stratagate.Neighbour) *neighborOut {
	if n == nil {
		return nil
	}
	return &neighborOut{MessageID: n.MessageID, Speaker: n.Speaker, Role: n.Role, At: stamp(n.At), Snippet: n.Snippet}
}

type searchOut struct {
	Query  string   `json:"query"`
	Scopes []string `json:"scopes"`
	Thread string   `json:"thread"`
	Hits   []hitOut `json:"hits"`
}

func runSearch(e *env, args []string, q stratagate.Query) error {
	q.Text = strings.Join(args, " ")
	if strings.TrimSpace(q.Text) == "" {
		return usagef("search needs a query")
	}
	if q.Limit < 1 || q.Limit > stratagate.MaxLimit {
		return usagef("-k %d: want 1–%d", q.Limit, stratagate.MaxLimit)
	}
	mem, err := e.memory()
	if err != nil {
		return err
	}
	hits, err := mem.SearchRaw(e.ctx, q)
	if err != nil {
		return err
	}
	o := searchOut{Query: q.Text, Scopes: q.Scopes, Thread: q.Thread, Hits: make([]hitOut, len(hits))}
	if len(o.Scopes) == 0 {
		o.Scopes = []string{"global"}
	}
	for i, h := range hits {
		o.Hits[i] = hitOut{
			Rank: i + 1, MessageID: h.MessageID, BlockID: h.BlockID, Thread: h.Thread, Speaker: h.Speaker, Role: h.Role,
			At: stamp(h.At), Score: h.Score, Snippet: h.Snippet, Prev: toNeighbor(h.Prev), Next: toNeighbor(h.Next),
		}
	}
	return e.emit(o, func(w io.Writer) error {
		tw := newTable(w)
		fmt.Fprintln(tw, "RANK\tSCORE\tMSG\tBLOCK\tTHREAD\tSPEAKER\tAT\tSNIPPET")
		for _, h := range o.Hits {
			block := "open"
			if h.BlockID != 0 {
				block = fmt.Sprint(h.BlockID)
			}
			fmt.Fprintf(tw, "%d\t%.3f\t%d\t%s\t%s\t%s\t%s\t%s\n", h.Rank, h.Score, h.MessageID, block, h.Thread, dash(h.Speaker), h.At, oneLine(h.Snippet, 80))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(w, "%d hits in %s\n", len(o.Hits), strings.Join(o.Scopes, ", "))
		return nil
	})
}
