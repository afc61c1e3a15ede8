package viewer

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/events"
	"github.com/stratagate/stratagate/viewer/diagram"
)

const (
	// defaultTimeline is how many cards the events page draws unless asked
	// for more (the newest, by id).
	defaultTimeline = 200
	maxTimeline     = 2000
)

type eventsData struct {
	Filter   stratagate.EventFilter
	Order    string
	Limit    int
	Total    int // cards matching before the limit
	Rows     []cardRow
	Timeline diagram.TimelineLayout
	// Options of the filter controls: the values the store holds.
	Threads, Scopes, Types, Statuses, Lifecycles, Participants []string
}

// cardRow is a card with the class it is drawn with.
type cardRow struct {
	Card  events.Card
	Class string
}

func cardRows(cards []events.Card) []cardRow {
	rows := make([]cardRow, len(cards))
	for i := range cards {
		rows[i] = cardRow{Card: cards[i], Class: cardClass(&cards[i])}
	}
	return rows
}

// cardClass is the CSS class of a card by its lifecycle: hidden and
// replaced cards are drawn greyed.
func cardClass(c *events.Card) string {
	switch {
	case events.Hidden(c.Lifecycle):
		return "hidden"
	case c.SupersededBy != 0 || c.Lifecycle != events.LifecycleActive:
		return "replaced"
	case len(c.ConflictsWithEventIDs) > 0:
		return "conflict"
	}
	return "active"
}

func (h *Handler) events(r *http.Request) (view, error) {
	ctx := r.Context()
	var f stratagate.EventFilter
	var err error
	for _, p := range []struct {
		name string
		dst  *string
	}{{"thread", &f.Thread}, {"type", &f.Type}, {"status", &f.Status}, {"lifecycle", &f.Lifecycle}, {"participant", &f.Participant}} {
		if *p.dst, err = formText(r, p.name, 1024); err != nil {
			return view{}, err
		}
	}
	scope, err := formText(r, "scope", 256)
	if err != nil {
		return view{}, err
	}
	if scope != "" {
		f.Scopes = []string{scope}
	}
	d := eventsData{Filter: f, Limit: defaultTimeline, Order: r.FormValue("order")}
	if s := r.FormValue("limit"); s != "" {
		if d.Limit, err = strconv.Atoi(s); err != nil || d.Limit <= 0 || d.Limit > maxTimeline {
			return view{}, errBadRequest("limit %q: want 1–%d", s, maxTimeline)
		}
	}
	if d.Order != "" && d.Order != "mentioned" && d.Order != "happened" {
		return view{}, errBadRequest("order %q: want mentioned or happened", d.Order)
	}
	all, err := h.mem.ListEvents(ctx, stratagate.EventFilter{})
	if err != nil {
		return view{}, err
	}
	sets := map[string]map[string]bool{}
	add := func(k, v string) {
		if v == "" {
			return
		}
		if sets[k] == nil {
			sets[k] = map[string]bool{}
		}
		sets[k][v] = true
	}
	for i := range all {
		c := &all[i]
		add("thread", c.Thread)
		add("scope", c.Scope)
		add("type", string(c.EventType))
		add("status", string(c.Status))
		add("lifecycle", string(c.Lifecycle))
		for _, p := range c.Participants {
			add("participant", p)
		}
	}
	sorted := func(k string) []string {
		var out []string
		for v := range sets[k] {
			out = append(out, v)
		}
		slices.Sort(out)
		return out
	}
	d.Threads, d.Scopes, d.Types = sorted("thread"), sorted("scope"), sorted("type")
	d.Statuses, d.Lifecycles, d.Participants = sorted("status"), sorted("lifecycle"), sorted("participant")

	cards, err := h.mem.ListEvents(ctx, f)
	if err != nil {
		return view{}, err
	}
	d.Total = len(cards)
	if len(cards) > d.Limit {
		cards = cards[len(cards)-d.Limit:]
	}
	if d.Order == "happened" {
		// Unknown happened times go last, in mention order.
		slices.SortStableFunc(cards, func(a, b events.Card) int {
			az, bz := a.Temporal.HappenedStart.IsZero(), b.Temporal.HappenedStart.IsZero()
			if az != bz {
				if az {
					return 1
				}
				return -1
			}
			return a.Temporal.HappenedStart.Compare(b.Temporal.HappenedStart)
		})
	} else {
		slices.SortStableFunc(cards, func(a, b events.Card) int {
			return cmp.Or(a.Temporal.MentionedAt.Compare(b.Temporal.MentionedAt), cmp.Compare(a.ID, b.ID))
		})
	}
	d.Rows = cardRows(cards)
	spans := make([]diagram.Span, len(cards))
	for i := range cards {
		c := &cards[i]
		spans[i] = diagram.Span{ID: c.ID, Label: c.Title, Mentioned: c.Temporal.MentionedAt,
			Start: c.Temporal.HappenedStart, End: c.Temporal.HappenedEnd, Precision: c.Temporal.Precision, Class: cardClass(c)}
	}
	d.Timeline = diagram.LayoutTimeline(spans, diagram.TimelineOptions{Width: 1200})
	return view{page: "events", title: "Events", nav: "events", data: d}, nil
}

type quoteRow struct {
	Text  string
	Found bool
}

// quoteRows checks each of a card's quotes against its cited messages.
func quoteRows(det *stratagate.EventDetail) []quoteRow {
	var rows []quoteRow
	for _, q := range det.Card.Quotes {
		found := slices.ContainsFunc(det.Sources, func(m stratagate.Message) bool { return events.QuoteIn(q, m.Content) })
		rows = append(rows, quoteRow{Text: q, Found: found})
	}
	return rows
}

type eventData struct {
	Detail  stratagate.EventDetail
	Class   string
	Sources []messageRow
	Quotes  []quoteRow
}

func (h *Handler) event(r *http.Request) (view, error) {
	id, err := pathID(r, "id")
	if err != nil {
		return view{}, err
	}
	det, err := h.mem.ExpandEvent(r.Context(), id)
	if err != nil {
		return view{}, err
	}
	d := eventData{Detail: det, Class: cardClass(&det.Card)}
	for _, m := range det.Sources {
		d.Sources = append(d.Sources, messageRow{Message: m, HashOK: m.SHA256 == m.Hash()})
	}
	d.Quotes = quoteRows(&det)
	return view{page: "event", title: "Event " + strconv.FormatUint(id, 10) + ": " + det.Card.Title, nav: "events", data: d}, nil
}
