package heuristic_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/model"
	"github.com/stratagate/stratagate/model/heuristic"
)

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
