package heuristic_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/events/temporal"
	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/heuristic"
)

// The graph schema (package graph declares it; DESIGN.md, Graph). It is
// restated here rather than imported so that this package's tests build
// on their own: importing graph or internal/sample would pull in the root
// package, and any work in progress there would stop every test of the
// heuristic model from compiling.
var (
	projKinds = map[string]bool{"person": true, "project": true, "organization": true, "tool": true, "place": true, "topic": true}
	projKeys  = map[string]bool{
		"role": true, "job_title": true, "status": true, "uses_package_manager": true, "database": true,
		"deploy_platform": true, "launch_date": true, "editor": true, "indentation": true, "drinks": true, "diet": true,
		"likes": true, "dislikes": true, "hobby": true, "uses_tool": true, "skill": true, "decision": true,
	}
	projRelations = map[string]bool{
		"lives_in": true, "works_at": true, "located_in": true, "friend_of": true, "sibling_of": true,
		"parent_of": true, "child_of": true, "has_pet": true, "member_of": true, "works_on": true,
		"uses": true, "visited": true, "knows": true,
	}
)

// Limits of graph.Apply.
const (
	projMaxNameRunes  = 128
	projMaxValueRunes = 256
	projMaxTags       = 8
	projMaxOps        = 512
)

// nameKey normalises a name as package graph does.
func nameKey(s string) string { return strings.Join(strings.Fields(strings.ToLower(s)), " ") }

// ---- helpers -----------------------------------------------------------------

// projectRaw runs the projector on in and decodes its output strictly.
func projectRaw(t testing.TB, in any) (string, model.ProjectOutput) {
	t.Helper()
	raw, err := heuristic.New().Complete(context.Background(), model.Request{Task: model.TaskProjectGraph, Input: in})
	require.NoError(t, err)
	var out model.ProjectOutput
	require.NoError(t, model.Decode(raw, &out), "raw: %s", raw)
	return raw, out
}

// projectOps projects in, checks every op against the graph schema and
// the batch, and returns the ops.
func projectOps(t *testing.T, in *model.ProjectInput) []model.GraphOp {
	t.Helper()
	raw, out := projectRaw(t, in)
	requireValidOps(t, in, raw, out)
	return out.Ops
}

// requireValidOps checks what graph.Apply checks, plus the projector's own
// promises: ops cite 1–8 events, all of the batch; kinds, keys and
// relations come from the graph schema; names and values fit; upserts are
// not repeated; no two ops are identical.
func requireValidOps(t *testing.T, in *model.ProjectInput, raw string, out model.ProjectOutput) {
	t.Helper()
	require.True(t, utf8.ValidString(raw))
	require.NotNil(t, out.Ops, "ops must be [] rather than null")
	require.LessOrEqual(t, len(out.Ops), projMaxOps)
	batch := map[uint64]bool{}
	for _, e := range in.Events {
		batch[e.ID] = true
	}
	text := func(field, s string, max int) {
		t.Helper()
		require.NotEmpty(t, strings.TrimSpace(s), "%s empty", field)
		require.True(t, utf8.ValidString(s), "%s: invalid UTF-8", field)
		require.LessOrEqual(t, utf8.RuneCountInString(s), max, "%s: %q", field, s)
		require.Equal(t, strings.TrimSpace(s), s, "%s: surrounding space", field)
	}
	seen := map[string]bool{}
	upserts := map[string]bool{}
	for _, op := range out.Ops {
		js, _ := json.Marshal(op)
		require.False(t, seen[string(js)], "duplicate op %s", js)
		seen[string(js)] = true
		require.NotEmpty(t, op.EventIDs, "op cites nothing: %s", js)
		require.LessOrEqual(t, len(op.EventIDs), 8, "%s", js)
		for _, id := range op.EventIDs {
			require.True(t, batch[id], "op cites event %d outside the batch: %s", id, js)
		}
		require.True(t, projKinds[op.Kind], "kind %q", op.Kind)
		text("name", op.Name, projMaxNameRunes)
		if op.ValidFrom != "" {
			_, err := time.Parse(time.RFC3339, op.ValidFrom)
			require.NoError(t, err)
		}
		switch op.Op {
		case model.OpUpsertNode:
			k := op.Kind + "\x00" + nameKey(op.Name)
			require.False(t, upserts[k], "node upserted twice: %s", js)
			upserts[k] = true
			require.LessOrEqual(t, len(op.Tags), projMaxTags)
			for _, tag := range op.Tags {
				text("tag", tag, projMaxNameRunes)
			}
		case model.OpAddAlias:
			text("alias", op.Alias, projMaxNameRunes)
		case model.OpSetFact, model.OpCloseFact:
			require.True(t, projKeys[op.Key], "fact key %q is not in the schema", op.Key)
			text("value", op.Value, projMaxValueRunes)
		case model.OpAddEdge, model.OpCloseEdge:
			require.True(t, projRelations[op.Relation], "relation %q is not in the schema", op.Relation)
			if op.TargetKind != "" {
				require.True(t, projKinds[op.TargetKind], "target kind %q", op.TargetKind)
			}
			text("target", op.Target, projMaxNameRunes)
		default:
			t.Fatalf("unknown op %q", op.Op)
		}
	}
}

// pev builds a user event spoken by speaker with one quote; the summary
// and title follow the extractor's conventions.
func pev(id uint64, speaker, quote, typ, status, mentioned string) model.ProjectEvent {
	return model.ProjectEvent{
		ID: id, Title: strings.TrimRight(quote, ".!"), Summary: speaker + ": " + quote, Quotes: []string{quote},
		EventType: typ, Status: status, Participants: []string{speaker}, Speakers: []string{speaker},
		MentionedAt: mentioned,
	}
}

const (
	mar19 = "2024-03-19T20:10:00-04:00"
	apr09 = "2024-04-09T20:05:00-04:00"
	may08 = "2024-05-08T19:00:00-07:00"
)

// findOps returns the ops matching op, kind, name (case-insensitive),
// key or relation, and value or target.
func findOps(ops []model.GraphOp, op, kind, name, slot, value string) []model.GraphOp {
	var out []model.GraphOp
	for _, o := range ops {
		if o.Op != op || o.Kind != kind || !strings.EqualFold(o.Name, name) {
			continue
		}
		switch op {
		case model.OpSetFact, model.OpCloseFact:
			if o.Key != slot || !strings.EqualFold(o.Value, value) {
				continue
			}
		case model.OpAddEdge, model.OpCloseEdge:
			if o.Relation != slot || !strings.EqualFold(o.Target, value) {
				continue
			}
		case model.OpAddAlias:
			if !strings.EqualFold(o.Alias, value) {
				continue
			}
		}
		out = append(out, o)
	}
	return out
}

// requireOp asserts exactly one matching op and returns it with its index.
func requireOp(t *testing.T, ops []model.GraphOp, op, kind, name, slot, value string) (model.GraphOp, int) {
	t.Helper()
	found := findOps(ops, op, kind, name, slot, value)
	require.Len(t, found, 1, "want one %s %s %q %s %q in\n%s", op, kind, name, slot, value, dumpOps(ops))
	for i, o := range ops {
		js1, _ := json.Marshal(o)
		js2, _ := json.Marshal(found[0])
		if string(js1) == string(js2) {
			return found[0], i
		}
	}
	return found[0], -1
}

// opIndex returns the index of the upsert of (kind, name), or -1.
func opIndex(ops []model.GraphOp, op, kind, name string) int {
	for i, o := range ops {
		if o.Op == op && o.Kind == kind && strings.EqualFold(o.Name, name) {
			return i
		}
	}
	return -1
}

// dumpOps renders ops one per line.
func dumpOps(ops []model.GraphOp) string {
	var b strings.Builder
	for i, o := range ops {
		js, _ := json.Marshal(o)
		fmt.Fprintf(&b, "%3d %s\n", i, js)
	}
	return b.String()
}

// ---- task plumbing -------------------------------------------------------------

func TestProjectEmpty(t *testing.T) {
	for _, in := range []any{&model.ProjectInput{}, model.ProjectInput{}, &model.ProjectInput{Nodes: []model.KnownNode{{ID: 1, Kind: "project", Name: "Atlas"}}}} {
		raw, out := projectRaw(t, in)
		assert.Equal(t, `{"ops":[]}`, raw)
		assert.Empty(t, out.Ops)
	}
	// Events that say nothing the rules read.
	in := &model.ProjectInput{Events: []model.ProjectEvent{pev(1, "assistant", "ok", "fact", "unknown", mar19)}}
	in.Events[0].Participants = nil
	raw, _ := projectRaw(t, in)
	assert.Equal(t, `{"ops":[]}`, raw)
}

func TestProjectInputForms(t *testing.T) {
	in := model.ProjectInput{Events: []model.ProjectEvent{pev(7, "Mia Chen", "I work at Northwind.", "fact", "unknown", mar19)}}
	rawPtr, _ := projectRaw(t, &in)
	rawVal, _ := projectRaw(t, in)
	assert.Equal(t, rawPtr, rawVal)

	var nilIn *model.ProjectInput
	for _, bad := range []any{nil, nilIn, "hello", &model.ExtractInput{}} {
		raw, err := heuristic.New().Complete(context.Background(), model.Request{Task: model.TaskProjectGraph, Input: bad})
		require.Error(t, err)
		assert.Empty(t, raw)
		assert.True(t, errors.Is(err, heuristic.ErrUnsupported), "%T: %v", bad, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := heuristic.New().Complete(ctx, model.Request{Task: model.TaskProjectGraph, Input: &in})
	assert.ErrorIs(t, err, context.Canceled)
}

// ---- persons -------------------------------------------------------------------

func TestProjectUpsertsParticipantsOnce(t *testing.T) {
	e1 := pev(11, "Mia Chen", "I started sketching the schema yesterday.", "activity", "completed", mar19)
	e2 := pev(12, "Leo Park", "I'll push the compose file tonight.", "plan", "planned", mar19)
	e2.Participants = []string{"Leo Park", "Mia"}
	e3 := pev(13, "assistant", "Decision recorded: Atlas uses Postgres.", "decision", "unknown", mar19)
	e3.Participants, e3.Speakers = nil, []string{"assistant"}
	e4 := pev(14, "web_search", "Results for Postgres.", "fact", "unknown", mar19)
	ops := projectOps(t, &model.ProjectInput{Events: []model.ProjectEvent{e1, e2, e3, e4}})

	mia, miaAt := requireOp(t, ops, model.OpUpsertNode, "person", "Mia Chen", "", "")
	assert.Equal(t, []uint64{11, 12}, mia.EventIDs, "cites every event naming her; \"Mia\" resolves to the batch's one Mia")
	leo, leoAt := requireOp(t, ops, model.OpUpsertNode, "person", "Leo Park", "", "")
	assert.Equal(t, []uint64{12}, leo.EventIDs)
	assert.Less(t, miaAt, leoAt, "event order")
	assert.Equal(t, -1, opIndex(ops, model.OpUpsertNode, "person", "Mia"), "no separate node for the first name")
	assert.Equal(t, -1, opIndex(ops, model.OpUpsertNode, "person", "assistant"))
	assert.Equal(t, -1, opIndex(ops, model.OpUpsertNode, "person", "web_search"))
}

// ---- where people live -----------------------------------------------------------

func TestProjectLeoMovesHelloFrom(t *testing.T) {
	before := pev(1, "Leo Park", "I live in Boston, in Jamaica Plain.", "fact", "unknown", "2024-03-05T19:02:00-05:00")
	moved := pev(2, "Leo Park", "Hello from Seattle! I moved last Saturday.", "life_event", "completed", may08)
	moved.HappenedStart, moved.TimeText = "2024-05-04T00:00:00-07:00", "last Saturday"
	ops := projectOps(t, &model.ProjectInput{Events: []model.ProjectEvent{before, moved}})

	boston, bAt := requireOp(t, ops, model.OpAddEdge, "person", "Leo Park", "lives_in", "Boston")
	assert.Equal(t, "place", boston.TargetKind)
	assert.Equal(t, []uint64{1}, boston.EventIDs)
	seattle, sAt := requireOp(t, ops, model.OpAddEdge, "person", "Leo Park", "lives_in", "Seattle")
	assert.Equal(t, "place", seattle.TargetKind)
	assert.Equal(t, []uint64{2}, seattle.EventIDs)
	assert.Empty(t, seattle.ValidFrom, "the event's happened start is the move date")
	assert.Less(t, bAt, sAt, "event order: the new home comes last")
	requireOp(t, ops, model.OpUpsertNode, "place", "Seattle", "", "")
	assert.Less(t, opIndex(ops, model.OpUpsertNode, "place", "Seattle"), sAt, "the target node is upserted first")
	assert.Empty(t, findOps(ops, model.OpAddEdge, "person", "Leo Park", "lives_in", "Jamaica Plain"))

	tokyo := pev(4, "Zoe Lane", "Hi from Tokyo! Just moved here.", "life_event", "completed", may08)
	inNow := pev(5, "Zoe Lane", "I'm in Osaka now.", "fact", "ongoing", may08)
	ops = projectOps(t, &model.ProjectInput{Events: []model.ProjectEvent{tokyo, inNow}})
	requireOp(t, ops, model.OpAddEdge, "person", "Zoe Lane", "lives_in", "Tokyo")
	requireOp(t, ops, model.OpAddEdge, "person", "Zoe Lane", "lives_in", "Osaka")

	// A greeting without a move is a visit, not a home.
	trip := pev(3, "Mia Chen", "Hello from Lisbon! The weather is lovely.", "activity", "completed", may08)
	ops = projectOps(t, &model.ProjectInput{Events: []model.ProjectEvent{trip}})
	assert.Empty(t, findOps(ops, model.OpAddEdge, "person", "Mia Chen", "lives_in", "Lisbon"))
}

func TestProjectPendingMove(t *testing.T) {
	plan := pev(21, "Leo Park", "I'm moving to Seattle next month.", "life_event", "planned", apr09)
	plan.TimeText = "next month"
	moved := pev(22, "Leo Park", "I moved last Saturday.", "life_event", "completed", may08)
	moved.HappenedStart, moved.TimeText = "2024-05-04T00:00:00-07:00", "last Saturday"

	// The plan alone proposes no home.
	ops := projectOps(t, &model.ProjectInput{Events: []model.ProjectEvent{plan}})
	assert.Empty(t, findOps(ops, model.OpAddEdge, "person", "Leo Park", "lives_in", "Seattle"))
	// The move alone has no destination.
	ops = projectOps(t, &model.ProjectInput{Events: []model.ProjectEvent{moved}})
	assert.Empty(t, findOps(ops, model.OpAddEdge, "person", "Leo Park", "lives_in", "Seattle"))

	ops = projectOps(t, &model.ProjectInput{Events: []model.ProjectEvent{plan, moved}})
	e, _ := requireOp(t, ops, model.OpAddEdge, "person", "Leo Park", "lives_in", "Seattle")
	assert.Equal(t, []uint64{22, 21}, e.EventIDs, "the move first, then the plan that named the place")
	assert.Equal(t, "2024-05-04T00:00:00-07:00", e.ValidFrom)

	// Someone else's plan does not complete the speaker's move.
	gossip := pev(23, "Mia Chen", "Leo is moving to the West Coast.", "life_event", "planned", apr09)
	gossip.Participants = []string{"Mia Chen", "Leo"}
	ops = projectOps(t, &model.ProjectInput{Events: []model.ProjectEvent{plan, gossip, moved}})
	requireOp(t, ops, model.OpAddEdge, "person", "Leo Park", "lives_in", "Seattle")
	assert.Empty(t, findOps(ops, model.OpAddEdge, "person", "Leo Park", "lives_in", "West Coast"))
}

func TestProjectMovedFromTo(t *testing.T) {
	e := pev(31, "Leo Park", "We moved from Boston to Denver last year.", "life_event", "completed", may08)
	ops := projectOps(t, &model.ProjectInput{Events: []model.ProjectEvent{e}})
	closed, cAt := requireOp(t, ops, model.OpCloseEdge, "person", "Leo Park", "lives_in", "Boston")
	assert.Empty(t, closed.TargetKind)
	_, aAt := requireOp(t, ops, model.OpAddEdge, "person", "Leo Park", "lives_in", "Denver")
	assert.Less(t, cAt, aAt, "close the old home before adding the new one")

	// "used to live in" closes; "my Seattle place" adds.
	e2 := pev(32, "Leo Park", "I used to live in Boston.", "change", "unknown", may08)
	e3 := pev(33, "Leo Park", "Ana visited last weekend, her first time seeing my Seattle place.", "activity", "completed", may08)
	ops = projectOps(t, &model.ProjectInput{Events: []model.ProjectEvent{e2, e3}})
	requireOp(t, ops, model.OpCloseEdge, "person", "Leo Park", "lives_in", "Boston")
	requireOp(t, ops, model.OpAddEdge, "person", "Leo Park", "lives_in", "Seattle")
	assert.Empty(t, findOps(ops, model.OpAddEdge, "person", "Ana", "visited", "last"))
}

func TestProjectNegationAndQuestions(t *testing.T) {
	events := []model.ProjectEvent{
		pev(41, "Leo Park", "I don't live in Boston.", "fact", "unknown", may08),
		pev(42, "Leo Park", "Should we use Postgres for Atlas?", "decision", "unknown", may08),
		pev(43, "Leo Park", "I'll never work at Initech.", "plan", "planned", may08),
		pev(44, "Mia Chen", "The launch is not on May 20.", "change", "unknown", may08),
	}
	ops := projectOps(t, &model.ProjectInput{Events: events, Nodes: []model.KnownNode{{ID: 1, Kind: "project", Name: "Atlas"}}})
	for _, o := range ops {
		assert.Equal(t, model.OpUpsertNode, o.Op, "unexpected %+v", o)
	}
}

// ---- work, roles, family, pets -------------------------------------------------

func TestProjectWorksAt(t *testing.T) {
	said := pev(51, "Leo Park", "Mia works at Northwind.", "fact", "unknown", mar19)
	said.Participants = []string{"Leo Park", "Mia"}
	own := pev(52, "Mia Chen", "I work at Northwind as a backend engineer during the day.", "fact", "unknown", mar19)
	ops := projectOps(t, &model.ProjectInput{Events: []model.ProjectEvent{said, own}})

	e, at := requireOp(t, ops, model.OpAddEdge, "person", "Mia Chen", "works_at", "Northwind")
	assert.Equal(t, "organization", e.TargetKind)
	assert.Equal(t, []uint64{51, 52}, e.EventIDs, "both statements support one edge")
	org, orgAt := requireOp(t, ops, model.OpUpsertNode, "organization", "Northwind", "", "")
	assert.Less(t, orgAt, at)
	assert.Equal(t, []string{"employer"}, org.Tags)
	requireOp(t, ops, model.OpSetFact, "person", "Mia Chen", "role", "backend engineer")

	// "start at", "I'm a …", "freelance as a …", and the short form of a
	// company named in full elsewhere in the batch.
	events := []model.ProjectEvent{
		pev(53, "Leo Park", "Last week a recruiter from Cascadia Labs in Seattle called me.", "meeting", "completed", mar19),
		pev(54, "Leo Park", "I start at Cascadia mid-May.", "life_event", "planned", apr09),
		pev(55, "Leo Park", "I live in Boston and I freelance as a frontend developer.", "fact", "unknown", mar19),
		pev(56, "Leo Park", "I'm a senior frontend developer.", "fact", "unknown", mar19),
	}
	events[0].Entities = []string{"Cascadia Labs", "Seattle"}
	events[1].Entities = []string{"Cascadia"}
	ops = projectOps(t, &model.ProjectInput{Events: events})
	w, _ := requireOp(t, ops, model.OpAddEdge, "person", "Leo Park", "works_at", "Cascadia Labs")
	assert.Equal(t, []uint64{54}, w.EventIDs)
	assert.Empty(t, findOps(ops, model.OpUpsertNode, "organization", "Cascadia", "", ""))
	requireOp(t, ops, model.OpSetFact, "person", "Leo Park", "role", "frontend developer")
	requireOp(t, ops, model.OpSetFact, "person", "Leo Park", "role", "senior frontend developer")
	// "ROLE at ORG".
	ops = projectOps(t, &model.ProjectInput{Events: []model.ProjectEvent{pev(58, "Leo Park", "Mia is a designer at Figma.", "fact", "unknown", mar19)}})
	requireOp(t, ops, model.OpSetFact, "person", "Mia", "role", "designer")
	requireOp(t, ops, model.OpAddEdge, "person", "Mia", "works_at", "Figma")
	// Not a role: "a tea person".
	ops = projectOps(t, &model.ProjectInput{Events: []model.ProjectEvent{pev(57, "Mia Chen", "I'm a tea person.", "preference", "unknown", mar19)}})
	assert.Empty(t, findOps(ops, model.OpSetFact, "person", "Mia Chen", "role", "tea person"))
}

func TestProjectFamilyAndFriends(t *testing.T) {
	sister := pev(61, "Leo Park", "Also my sister Ana is visiting this weekend, she's flying in from Chicago.", "activity", "planned", mar19)
	sister.Participants = []string{"Leo Park", "Ana"}
	other := pev(62, "Mia Chen", "Leo's sister Ana makes the best dumplings.", "fact", "unknown", mar19)
	other.Participants = []string{"Mia Chen", "Leo", "Ana"}
	friends := pev(63, "Mia Chen", "My neighbor Dana is feeding Pixel, and Kiwi is staying with my friend Priya from Northwind.", "plan", "planned", mar19)
	met := pev(64, "Leo Park", "Fun fact: I built a trip planner in 2022 for a hackathon, that's where Mia and I met.", "meeting", "completed", mar19)
	met.Participants = []string{"Leo Park", "Mia"}
	ops := projectOps(t, &model.ProjectInput{Events: []model.ProjectEvent{sister, other, friends, met}})

	e, _ := requireOp(t, ops, model.OpAddEdge, "person", "Leo Park", "sibling_of", "Ana")
	assert.Equal(t, "person", e.TargetKind)
	assert.Equal(t, []uint64{61, 62}, e.EventIDs)
	requireOp(t, ops, model.OpUpsertNode, "person", "Ana", "", "")
	requireOp(t, ops, model.OpAddEdge, "person", "Mia Chen", "knows", "Dana")
	requireOp(t, ops, model.OpAddEdge, "person", "Mia Chen", "friend_of", "Priya")
	requireOp(t, ops, model.OpAddEdge, "person", "Leo Park", "knows", "Mia Chen")
	assert.Empty(t, findOps(ops, model.OpAddEdge, "person", "Mia Chen", "has_pet", "Pixel"), "feeding someone's pet is no ownership")
}

func TestProjectPets(t *testing.T) {
	adopted := pev(71, "Mia Chen", "Big update from me too: I adopted a parrot! We picked up Kiwi yesterday, he's a green-cheeked conure.", "life_event", "completed", may08)
	cat := pev(72, "Mia Chen", "My cat Pixel walked across the keyboard twice.", "activity", "completed", mar19)
	named := pev(73, "Leo Park", "We have a dog named Biscuit.", "fact", "unknown", mar19)
	ops := projectOps(t, &model.ProjectInput{Events: []model.ProjectEvent{adopted, cat, named}})

	kiwi, _ := requireOp(t, ops, model.OpAddEdge, "person", "Mia Chen", "has_pet", "Kiwi")
	assert.Empty(t, kiwi.TargetKind, "pets are named values, not nodes")
	assert.Equal(t, []uint64{71}, kiwi.EventIDs)
	requireOp(t, ops, model.OpAddEdge, "person", "Mia Chen", "has_pet", "Pixel")
	requireOp(t, ops, model.OpAddEdge, "person", "Leo Park", "has_pet", "Biscuit")
	for _, o := range ops {
		assert.False(t, o.Op == model.OpUpsertNode && (o.Name == "Kiwi" || o.Name == "Pixel"), "pet node %+v", o)
	}

	// A planned adoption, and a pet with no name, propose nothing.
	plan := pev(74, "Mia Chen", "I'm thinking about adopting a parrot: a rescue in Somerville has a green-cheeked conure.", "life_event", "planned", mar19)
	bare := pev(75, "Mia Chen", "I adopted a parrot!", "life_event", "completed", may08)
	ops = projectOps(t, &model.ProjectInput{Events: []model.ProjectEvent{plan, bare}})
	for _, o := range ops {
		assert.NotEqual(t, "has_pet", o.Relation, "%+v", o)
	}
}

// ---- project decisions -----------------------------------------------------------

func TestProjectDatabaseDecision(t *testing.T) {
	e := pev(81, "Leo Park", "Let's use Postgres instead of SQLite for Atlas.", "decision", "unknown", mar19)
	e.Entities = []string{"Postgres", "SQLite", "Atlas"}
	ops := projectOps(t, &model.ProjectInput{Events: []model.ProjectEvent{e}})
	proj, pAt := requireOp(t, ops, model.OpUpsertNode, "project", "Atlas", "", "")
	assert.Contains(t, proj.Tags, "project")
	f, fAt := requireOp(t, ops, model.OpSetFact, "project", "Atlas", "database", "Postgres")
	assert.Equal(t, []uint64{81}, f.EventIDs)
	assert.Less(t, pAt, fAt)
	for _, o := range ops {
		assert.NotEqual(t, "SQLite", o.Value, "the replaced value is closed by the state key itself")
	}
	assert.Empty(t, findOps(ops, model.OpUpsertNode, "tool", "Postgres", "", ""), "a database decision is a fact, not a tool edge")
}

func TestProjectPackageManagerAndDeploy(t *testing.T) {
	atlas := []model.KnownNode{{ID: 9, Kind: "project", Name: "Atlas", Aliases: []string{"atlas app"}}}
	npm := pev(91, "Mia Chen", "For package management let's just use npm for now, it's already on everyone's machine.", "decision", "ongoing", "2024-03-05T20:00:00-05:00")
	pnpm := pev(92, "Mia Chen", "We'll use pnpm for the monorepo, goodbye npm.", "decision", "unknown", apr09)
	deploy1 := pev(93, "Leo Park", "I think we agreed: we'll deploy on Fly.io.", "decision", "unknown", may08)
	deploy2 := pev(94, "Mia Chen", "Yes, we decided to deploy on Fly.io.", "decision", "completed", may08)
	restate := pev(95, "assistant", "Decision recorded: Atlas deploys on Fly.io, with the API and web as separate apps.", "decision", "unknown", may08)
	restate.Participants, restate.Speakers, restate.Entities = nil, nil, []string{"Atlas", "Fly.io", "API"}
	restate.Summary = "Assistant: " + restate.Quotes[0]
	grafana := pev(96, "Leo Park", "We use Grafana for monitoring.", "fact", "unknown", may08)
	ops := projectOps(t, &model.ProjectInput{Events: []model.ProjectEvent{npm, pnpm, deploy1, deploy2, restate, grafana}, Nodes: atlas})

	_, npmAt := requireOp(t, ops, model.OpSetFact, "project", "Atlas", "uses_package_manager", "npm")
	_, pnpmAt := requireOp(t, ops, model.OpSetFact, "project", "Atlas", "uses_package_manager", "pnpm")
	assert.Less(t, npmAt, pnpmAt, "pnpm replaces npm: the order of changes survives")
	d, _ := requireOp(t, ops, model.OpSetFact, "project", "Atlas", "deploy_platform", "Fly.io")
	assert.Equal(t, []uint64{93, 94, 95}, d.EventIDs, "three statements, one op")
	u, _ := requireOp(t, ops, model.OpAddEdge, "project", "Atlas", "uses", "Grafana")
	assert.Equal(t, "tool", u.TargetKind)
	requireOp(t, ops, model.OpUpsertNode, "tool", "Grafana", "", "")
	assert.Empty(t, findOps(ops, model.OpUpsertNode, "tool", "API", "", ""), "short capitals are no tools")

	// Without any project in the batch a "we" decision has no node.
	ops = projectOps(t, &model.ProjectInput{Events: []model.ProjectEvent{pnpm}})
	for _, o := range ops {
		assert.NotEqual(t, "uses_package_manager", o.Key)
	}
	// A person's own tools and editor.
	own := []model.ProjectEvent{
		pev(97, "Mia Chen", "I use VS Code.", "preference", "unknown", mar19),
		pev(98, "Leo Park", "Anyway, tooling: I'm a Neovim person, I indent with tabs, and I won't be converted.", "preference", "unknown", mar19),
		pev(99, "Leo Park", "Also, confession: I've switched to spaces.", "preference", "completed", apr09),
	}
	ops = projectOps(t, &model.ProjectInput{Events: own})
	requireOp(t, ops, model.OpSetFact, "person", "Mia Chen", "editor", "VS Code")
	requireOp(t, ops, model.OpSetFact, "person", "Leo Park", "editor", "Neovim")
	_, tabsAt := requireOp(t, ops, model.OpSetFact, "person", "Leo Park", "indentation", "tabs")
	_, spacesAt := requireOp(t, ops, model.OpSetFact, "person", "Leo Park", "indentation", "spaces")
	assert.Less(t, tabsAt, spacesAt)
}

func TestProjectTeaToCoffee(t *testing.T) {
	events := []model.ProjectEvent{
		pev(101, "Mia Chen", "Brb, making green tea. I'm a tea person, coffee keeps me up all night.", "preference", "unknown", "2024-03-05T20:00:00-05:00"),
		pev(102, "Mia Chen", "Also, Kiwi starts screaming at 6am sharp, so I've switched to coffee.", "preference", "completed", may08),
		pev(103, "Mia Chen", "I know, I know, I used to be a tea person.", "preference", "unknown", may08),
		pev(104, "assistant", "Updated: Mia now drinks coffee instead of tea.", "change", "unknown", may08),
	}
	events[3].Participants, events[3].Speakers = []string{"Mia"}, nil
	events[3].Summary = "Assistant: " + events[3].Quotes[0]
	ops := projectOps(t, &model.ProjectInput{Events: events})
	tea, teaAt := requireOp(t, ops, model.OpSetFact, "person", "Mia Chen", "drinks", "tea")
	assert.Equal(t, []uint64{101}, tea.EventIDs, "\"used to be a tea person\" proposes no value")
	coffee, coffeeAt := requireOp(t, ops, model.OpSetFact, "person", "Mia Chen", "drinks", "coffee")
	assert.Equal(t, []uint64{102, 104}, coffee.EventIDs)
	assert.Less(t, teaAt, coffeeAt)
	assert.Empty(t, findOps(ops, model.OpSetFact, "person", "Mia Chen", "likes", "coffee"))
}

func TestProjectLaunchDate(t *testing.T) {
	atlas := []model.KnownNode{{ID: 9, Kind: "project", Name: "Atlas"}}
	set := pev(111, "Leo Park", "The launch is on May 20.", "decision", "planned", mar19)
	set.TimeText = "May 20"
	fix := pev(112, "Mia Chen", "Actually, the launch is not on May 20 — it moved to June 3rd.", "change", "planned", apr09)
	fix.TimeText = "June 3rd"
	rel := pev(113, "Leo Park", "We're launching next Monday!", "plan", "planned", "2024-05-29T10:00:00-07:00")
	unrelated := pev(114, "Mia Chen", "Leo's move is in the first week of May and neither of us wants to launch while he's living out of boxes.", "life_event", "planned", apr09)
	ops := projectOps(t, &model.ProjectInput{Events: []model.ProjectEvent{set, fix, rel, unrelated}, Nodes: atlas})

	may, mayAt := requireOp(t, ops, model.OpSetFact, "project", "Atlas", "launch_date", "May 20")
	assert.Equal(t, mar19, may.ValidFrom, "a launch date holds from when it was decided")
	june, juneAt := requireOp(t, ops, model.OpSetFact, "project", "Atlas", "launch_date", "June 3rd")
	assert.Equal(t, apr09, june.ValidFrom)
	assert.Equal(t, []uint64{112}, june.EventIDs)
	assert.Less(t, mayAt, juneAt)
	requireOp(t, ops, model.OpSetFact, "project", "Atlas", "launch_date", "2024-06-03")
	for _, o := range ops {
		if o.Key == "launch_date" {
			assert.NotContains(t, o.EventIDs, uint64(114), "a date before the launch word is not its date")
		}
	}
}

func TestProjectAliases(t *testing.T) {
	known := []model.KnownNode{{ID: 3, Kind: "person", Name: "Melanie Ross"}, {ID: 4, Kind: "tool", Name: "Postgres"}}
	events := []model.ProjectEvent{
		pev(121, "Mia Chen", "Mel (Melanie Ross) starts on Monday.", "plan", "planned", mar19),
		pev(122, "Priya Shah", "Please call me Pri.", "fact", "unknown", mar19),
		pev(123, "Mia Chen", "Postgres, aka PG, is our database.", "fact", "unknown", mar19),
		pev(124, "Mia Chen", "Should we use Postgres, or SQLite, for Atlas?", "decision", "unknown", mar19),
		pev(125, "Mia Chen", "Mia met Leo at a hackathon.", "meeting", "completed", mar19),
	}
	ops := projectOps(t, &model.ProjectInput{Events: events, Nodes: known})
	a, at := requireOp(t, ops, model.OpAddAlias, "person", "Melanie Ross", "", "Mel")
	assert.Equal(t, []uint64{121}, a.EventIDs)
	assert.Less(t, opIndex(ops, model.OpUpsertNode, "person", "Melanie Ross"), at)
	requireOp(t, ops, model.OpAddAlias, "person", "Priya Shah", "", "Pri")
	requireOp(t, ops, model.OpAddAlias, "tool", "Postgres", "", "PG")
	for _, o := range ops {
		if o.Op == model.OpAddAlias {
			assert.NotEqual(t, "SQLite", o.Alias)
			assert.NotEqual(t, "Leo", o.Alias)
			assert.NotEqual(t, "Mia", o.Alias, "no alias from similarity")
		}
	}
}

func TestProjectHobbiesAndLikes(t *testing.T) {
	events := []model.ProjectEvent{
		pev(131, "Leo Park", "I also started trail running with a group from work on Saturdays.", "activity", "completed", may08),
		pev(132, "Leo Park", "When I'm not coding I play bass in a cover band on Fridays.", "activity", "ongoing", mar19),
		pev(133, "Mia Chen", "I love Lisbon in the spring.", "preference", "unknown", mar19),
		pev(134, "Mia Chen", "I hate group chats.", "preference", "unknown", mar19),
		pev(135, "Mia Chen", "I'd love to see that.", "preference", "unknown", mar19),
		pev(136, "Mia Chen", "I'm vegetarian these days.", "fact", "ongoing", mar19),
	}
	ops := projectOps(t, &model.ProjectInput{Events: events})
	requireOp(t, ops, model.OpSetFact, "person", "Leo Park", "hobby", "trail running")
	requireOp(t, ops, model.OpSetFact, "person", "Leo Park", "hobby", "bass")
	requireOp(t, ops, model.OpSetFact, "person", "Mia Chen", "likes", "Lisbon")
	requireOp(t, ops, model.OpSetFact, "person", "Mia Chen", "dislikes", "group chats")
	requireOp(t, ops, model.OpSetFact, "person", "Mia Chen", "diet", "vegetarian")
	for _, o := range ops {
		assert.False(t, o.Key == "likes" && o.Value != "Lisbon", "%+v", o)
	}
}

func TestProjectFalseFriends(t *testing.T) {
	events := []model.ProjectEvent{
		pev(151, "Mia Chen", "I joined Dana for lunch.", "activity", "completed", mar19),
		pev(152, "Leo Park", "I joined Cascadia Labs last month.", "life_event", "completed", may08),
		pev(153, "Leo Park", "I joined Initrode in 2021.", "life_event", "completed", may08),
		pev(154, "Mia Chen", "I joined the Boston Climbing Club.", "life_event", "completed", mar19),
		pev(155, "Mia Chen", "I picked Kiwi up from the vet.", "activity", "completed", may08),
		pev(156, "Leo Park", "I moved to Ana's place for a week.", "activity", "completed", may08),
		pev(157, "Leo Park", "They use Slack at Cascadia.", "fact", "unknown", may08),
		pev(158, "Mia Chen", "I want to know if people actually use the budget split.", "plan", "planned", may08),
		pev(159, "Mia Chen", "Actually, the launch is not on May 20 — it moved to June 3rd.", "change", "planned", apr09),
		pev(160, "Mia Chen", "Hello from Lisbon! Can't wait to move on to the next city.", "plan", "planned", may08),
		pev(161, "Mia Chen", "I'm in Lisbon now for the conference.", "activity", "ongoing", may08),
		pev(162, "Mia Chen", "I left Google last year.", "life_event", "completed", may08),
	}
	ops := projectOps(t, &model.ProjectInput{Events: events})
	requireOp(t, ops, model.OpAddEdge, "person", "Leo Park", "works_at", "Cascadia Labs")
	requireOp(t, ops, model.OpAddEdge, "person", "Leo Park", "works_at", "Initrode")
	requireOp(t, ops, model.OpAddEdge, "person", "Mia Chen", "member_of", "Boston Climbing Club")
	for _, o := range ops {
		switch {
		case o.Op == model.OpUpsertNode:
		case o.Relation == "works_at" && o.Name == "Leo Park":
		case o.Relation == "member_of":
		default:
			t.Errorf("unexpected %+v", o)
		}
	}
}

// ---- robustness ------------------------------------------------------------------

func TestProjectDeterministicAndConcurrent(t *testing.T) {
	in := benchProjectInput()
	want, out := projectRaw(t, in)
	requireValidOps(t, in, want, out)
	require.NotEmpty(t, out.Ops)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				raw, err := heuristic.New().Complete(context.Background(), model.Request{Task: model.TaskProjectGraph, Input: in})
				if err != nil || raw != want {
					t.Errorf("run %d differs: %v", i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestProjectHugeAndInvalidInput(t *testing.T) {
	bad := "I live in \xff\xfeBo\xc3ston and I work at North\xffwind. My sister \xe2\x82Ana is here."
	huge := strings.Repeat("I moved to Denver and I work at Initech. My cat Tom is cute. ", 20000)
	longName := strings.Repeat("A", 300)
	events := []model.ProjectEvent{
		pev(141, "Leo Park", bad, "fact", "unknown", "not a time"),
		pev(142, "Mia\xffChen", huge, "fact", "unknown", mar19),
		pev(143, longName, "I live in "+strings.Repeat("Zed", 200)+".", "fact", "unknown", mar19),
		{ID: 144},
		pev(145, "", "", "", "", ""),
	}
	events[1].Title = huge
	var many []model.ProjectEvent
	for i := 0; i < 2000; i++ {
		e := pev(uint64(1000+i), fmt.Sprintf("Person %d Name", i), fmt.Sprintf("I moved to City%d and I work at Org%d.", i, i), "life_event", "completed", mar19)
		many = append(many, e)
	}
	for _, in := range []*model.ProjectInput{
		{Events: events},
		{Events: many},
		{Events: events[:1], Nodes: []model.KnownNode{{Kind: "person", Name: "\xff"}, {Kind: "bogus", Name: ""}, {Kind: "project", Name: strings.Repeat("x", 500)}}},
	} {
		raw, out := projectRaw(t, in)
		requireValidOps(t, in, raw, out)
	}
	raw, out := projectRaw(t, &model.ProjectInput{Events: many})
	assert.Len(t, out.Ops, projMaxOps, "capped at the graph's batch limit")
	assert.Less(t, len(raw), 1<<20, "fits model.Decode's limit")
}

// ---- the sample conversation --------------------------------------------------------

// projSampleBatches extracts the sample in blocks of 12 turns (blocks
// never span threads; neighbours are context) and converts each block's
// cards into ProjectEvents with ids 1, 2, … as loadBatch in package graph
// does: speakers are the cited user messages' speakers, the mention time
// is the cited message's time, and the time text is resolved against it.
func projSampleBatches(t testing.TB) [][]model.ProjectEvent {
	t.Helper()
	var batches [][]model.ProjectEvent
	next := uint64(1)
	for _, in := range sampleBlocks(t, 12) {
		raw, err := heuristic.New().Complete(context.Background(), model.Request{Task: model.TaskExtractEvents, Input: in})
		require.NoError(t, err)
		var out model.ExtractOutput
		require.NoError(t, model.Decode(raw, &out))
		byID := map[uint64]model.DeriveMessage{}
		for _, m := range in.Messages {
			byID[m.ID] = m
		}
		var batch []model.ProjectEvent
		for _, e := range out.Events {
			m := byID[e.MessageIDs[0]]
			pe := model.ProjectEvent{
				ID: next, Title: e.Title, Summary: e.Summary, Quotes: e.Quotes, EventType: e.EventType, Status: e.Status,
				Participants: e.Participants, Entities: e.Entities, MentionedAt: m.At.Format(time.RFC3339), TimeText: e.TimeText,
			}
			if m.Role == "user" && m.Speaker != "" {
				pe.Speakers = []string{m.Speaker}
			}
			if e.TimeText != "" {
				for _, tm := range temporal.Find(e.Quotes[0], m.At) {
					if e.Quotes[0][tm.Offset:tm.Offset+tm.Length] == e.TimeText && tm.Known() {
						pe.HappenedStart = tm.Start.Format(time.RFC3339)
						pe.HappenedEnd = tm.End.Format(time.RFC3339)
						break
					}
				}
			}
			batch = append(batch, pe)
			next++
		}
		batches = append(batches, batch)
	}
	return batches
}

// knownFor returns the nodes proposed so far whose name or alias is a
// participant, entity or speaker of batch, as package graph offers them.
func knownFor(nodes []model.KnownNode, batch []model.ProjectEvent) []model.KnownNode {
	names := map[string]bool{}
	for _, e := range batch {
		for _, s := range append(append(append([]string(nil), e.Participants...), e.Entities...), e.Speakers...) {
			names[nameKey(s)] = true
		}
	}
	var out []model.KnownNode
	for _, n := range nodes {
		if names[nameKey(n.Name)] {
			out = append(out, n)
			continue
		}
		for _, a := range n.Aliases {
			if names[nameKey(a)] {
				out = append(out, n)
				break
			}
		}
	}
	return out
}

// requireSampleFacts asserts the sample's planted graph facts.
func requireSampleFacts(t *testing.T, ops []model.GraphOp) {
	t.Helper()
	has := func(op, kind, name, slot, value string) {
		t.Helper()
		require.NotEmpty(t, findOps(ops, op, kind, name, slot, value), "missing %s %s %q %s %q", op, kind, name, slot, value)
	}
	has(model.OpAddEdge, "person", "Mia Chen", "works_at", "Northwind")
	has(model.OpAddEdge, "person", "Leo Park", "lives_in", "Seattle")
	pets := append(findOps(ops, model.OpAddEdge, "person", "Mia Chen", "has_pet", "Kiwi"), findOps(ops, model.OpAddEdge, "person", "Mia Chen", "has_pet", "Pixel")...)
	require.NotEmpty(t, pets, "Mia has a pet")
	has(model.OpSetFact, "project", "Atlas", "uses_package_manager", "pnpm")
	has(model.OpSetFact, "project", "Atlas", "database", "Postgres")
}

func TestProjectSample(t *testing.T) {
	batches := projSampleBatches(t)
	require.Greater(t, len(batches), 5)

	// One batch with every card of the sample.
	var all []model.ProjectEvent
	for _, b := range batches {
		all = append(all, b...)
	}
	in := &model.ProjectInput{Events: all}
	ops := projectOps(t, in)
	t.Logf("whole sample: %d events, %d ops\n%s", len(all), len(ops), dumpOps(ops))
	requireSampleFacts(t, ops)
	// The move completes the plan: both events are cited.
	seattle := findOps(ops, model.OpAddEdge, "person", "Leo Park", "lives_in", "Seattle")
	require.NotEmpty(t, seattle)
	requireOp(t, ops, model.OpAddEdge, "person", "Leo Park", "lives_in", "Boston")
	requireOp(t, ops, model.OpSetFact, "project", "Atlas", "deploy_platform", "Fly.io")
	requireOp(t, ops, model.OpSetFact, "project", "Atlas", "launch_date", "June 3rd")
	requireOp(t, ops, model.OpAddEdge, "person", "Leo Park", "sibling_of", "Ana")
	requireOp(t, ops, model.OpSetFact, "person", "Mia Chen", "drinks", "coffee")
	requireOp(t, ops, model.OpAddEdge, "person", "Leo Park", "works_at", "Cascadia Labs")

	// Block by block, as package graph projects, with the nodes proposed
	// by earlier blocks offered as known nodes.
	var nodes []model.KnownNode
	var union []model.GraphOp
	for bi, batch := range batches {
		bin := &model.ProjectInput{Events: batch, Nodes: knownFor(nodes, batch)}
		bops := projectOps(t, bin)
		t.Logf("block %d: %d events, %d known nodes, %d ops\n%s", bi+1, len(batch), len(bin.Nodes), len(bops), dumpOps(bops))
		for _, o := range bops {
			if o.Op == model.OpUpsertNode && opIndex(union, o.Op, o.Kind, o.Name) < 0 {
				nodes = append(nodes, model.KnownNode{ID: uint64(len(nodes) + 1), Kind: o.Kind, Name: o.Name})
			}
			if o.Op == model.OpAddEdge && o.TargetKind != "" {
				nodes = append(nodes, model.KnownNode{ID: uint64(len(nodes) + 1), Kind: o.TargetKind, Name: o.Target})
			}
			union = append(union, o)
		}
	}
	requireSampleFacts(t, dedupeUnion(union))
}

// dedupeUnion keeps the first of equal ops (ignoring citations).
func dedupeUnion(ops []model.GraphOp) []model.GraphOp {
	seen := map[string]bool{}
	var out []model.GraphOp
	for _, o := range ops {
		o.EventIDs = nil
		js, _ := json.Marshal(o)
		if !seen[string(js)] {
			seen[string(js)] = true
			out = append(out, o)
		}
	}
	return out
}

// ---- benchmark -------------------------------------------------------------------

// benchProjectInput is a batch of ten realistic events.
func benchProjectInput() *model.ProjectInput {
	evs := []model.ProjectEvent{
		pev(1, "Leo Park", "I live in Boston, in Jamaica Plain, and I freelance as a frontend developer.", "fact", "unknown", "2024-03-05T19:02:00-05:00"),
		pev(2, "Mia Chen", "I work at Northwind as a backend engineer during the day, so Atlas is evenings and weekends for me.", "fact", "unknown", "2024-03-05T19:03:00-05:00"),
		pev(3, "Mia Chen", "My cat Pixel walked across the keyboard twice, so there is now a table called tttttttt.", "activity", "completed", "2024-03-05T19:05:00-05:00"),
		pev(4, "Leo Park", "Let's use Postgres instead of SQLite for Atlas.", "decision", "unknown", mar19),
		pev(5, "Leo Park", "Also my sister Ana is visiting this weekend, she's flying in from Chicago.", "activity", "planned", mar19),
		pev(6, "Leo Park", "I'm moving to Seattle next month.", "life_event", "planned", apr09),
		pev(7, "Mia Chen", "Actually, the launch is not on May 20 — it moved to June 3rd.", "change", "planned", apr09),
		pev(8, "Mia Chen", "We'll use pnpm for the monorepo, goodbye npm.", "decision", "unknown", apr09),
		pev(9, "Leo Park", "Hello from Seattle! I moved last Saturday.", "life_event", "completed", may08),
		pev(10, "Mia Chen", "Also, Kiwi starts screaming at 6am sharp, so I've switched to coffee.", "preference", "completed", may08),
	}
	evs[3].Entities = []string{"Postgres", "SQLite", "Atlas"}
	evs[4].Participants = []string{"Leo Park", "Ana"}
	evs[6].TimeText = "June 3rd"
	evs[8].HappenedStart = "2024-05-04T00:00:00-07:00"
	return &model.ProjectInput{Events: evs, Nodes: []model.KnownNode{{ID: 1, Kind: "project", Name: "Atlas"}}}
}

func BenchmarkProjectBatch(b *testing.B) {
	in := benchProjectInput()
	m := heuristic.New()
	req := model.Request{Task: model.TaskProjectGraph, Input: in}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Complete(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
}

// A text whose first word is "Or" has no word before the connector; the
// alias rule must not read one (it panicked with index -1).
func TestProjectSentenceStartingWithOr(t *testing.T) {
	for _, quote := range []string{
		"Or maybe we just stay home.",
		"Or",
		"or, aka Mel.",
		"Sure. Or Mel, the one from work.",
		"Short for nothing.",
		"Also known as Mel.",
	} {
		t.Run(quote, func(t *testing.T) {
			ev := pev(7, "Mia Chen", quote, "fact", "unknown", mar19)
			ev.Title = quote // the title is read too, from its first word
			ops := projectOps(t, &model.ProjectInput{Events: []model.ProjectEvent{ev}})
			for _, o := range ops {
				assert.NotEqual(t, model.OpAddAlias, o.Op, "no alias without a name before the connector: %+v", o)
			}
		})
	}
}
