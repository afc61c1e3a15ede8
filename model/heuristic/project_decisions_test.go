package heuristic_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/stratagate/stratagate/model"
)

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
