package viewer_test

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/viewer"
)

// TestPages loads every page of the demo store and checks what it must
// show.
func TestPages(t *testing.T) {
	mem := demoStore(t, true)
	srv := server(t, mem, viewer.Options{})
	_, events := get(t, srv, "/events")
	ev := firstID(t, events, "/event/")
	_, graphPage := get(t, srv, "/graph")
	node := firstID(t, graphPage, "/node/")
	fact := firstID(t, graphPage, "/trace/fact/")
	edge := firstID(t, graphPage, "/trace/edge/")
	_, eventPage := get(t, srv, "/event/"+ev)
	block := firstID(t, eventPage, "/block/")
	cases := []struct {
		path string
		want []string
	}{
		{"/", []string{"<h1>Overview</h1>", "Threads", "project:atlas", "Jobs", "every block is derived", "Last ingests"}},
		{"/thread?name=team-atlas", []string{"Thread <span class=\"name\">team-atlas</span>", "Block #", "class=\"depth\"", "Open tail", "L5"}},
		{"/block/" + block, []string{"Block #" + block, "✓ L5 hash", "✓ SHA-256", "Event cards extracted from this block", `aria-current="page">L4`}},
		{"/block/" + block + "?level=1", []string{`aria-current="page">L1`, "summary"}},
		{"/block/" + block + "?level=all", []string{"side by side", "L0 <span class=\"muted\">title and tags", "L3 <span class=\"muted\">pruned"}},
		{"/events", []string{"Events on two clocks", "<svg", `class="mention"`, `class="happened`, "Participant"}},
		{"/events?order=happened&type=preference", []string{"preference"}},
		{"/event/" + ev, []string{"Event #" + ev, "Mentioned", "Happened", "Cited messages", "/trace/event/" + ev}},
		{"/graph", []string{"Graph as of now", "<svg", `class="node kind-person"`, "lives_in"}},
		{"/graph?asof=2024-04-01", []string{"Graph as of 2024-04-01", "Boston"}},
		{"/node/" + node, []string{"History: every fact and relation", "Valid from"}},
		{"/trace/event/" + ev, []string{"Trace of event #" + ev, "provenance ok", "✓ in block"}},
		{"/trace/fact/" + fact, []string{"Trace of fact #" + fact, "Source block"}},
		{"/trace/edge/" + edge, []string{"Trace of edge #" + edge, "Relation"}},
		{"/trace/node/" + node, []string{"Trace of node #" + node}},
		{"/search?q=pnpm", []string{"Messages <span", "Event cards <span", "Graph nodes <span", "pnpm", `class="score"`}},
		{"/ask?q=" + url.QueryEscape("Which package manager does Atlas use now?"), []string{"Answer <span class=\"verdict\">sufficient", "pnpm", "Gate trace", "Evidence"}},
		{"/imports", []string{"Imports", "read-only", "The prompt to give the other assistant"}},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			code, body := get(t, srv, tc.path)
			require.Equal(t, http.StatusOK, code, body)
			for _, w := range tc.want {
				must(t, body, w)
			}
			assert.NotContains(t, body, "<script>document", "stored markup is escaped")
		})
	}
	// The graph as of a date before the move does not show the later city.
	_, now := get(t, srv, "/graph")
	_, then := get(t, srv, "/graph?asof=2024-04-01")
	assert.Contains(t, now, "Seattle")
	assert.NotContains(t, relations(then), "Seattle")

	resp, err := http.Get(srv.URL + "/static/style.css")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Contains(t, resp.Header.Get("Content-Type"), "text/css")
}

// relations is the "Relations then" list of a graph page.
func relations(page string) string {
	_, after, _ := strings.Cut(page, "<h2>Relations then</h2>")
	before, _, _ := strings.Cut(after, "</ul>")
	return before
}

func TestErrors(t *testing.T) {
	mem := demoStore(t, true)
	srv := server(t, mem, viewer.Options{})
	cases := []struct {
		path string
		code int
	}{
		{"/block/999999", http.StatusNotFound},
		{"/event/999999", http.StatusNotFound},
		{"/node/999999", http.StatusNotFound},
		{"/trace/fact/999999", http.StatusNotFound},
		{"/trace/edge/999999", http.StatusNotFound},
		{"/trace/node/999999", http.StatusNotFound},
		{"/trace/message/1", http.StatusNotFound},
		{"/import/999999", http.StatusNotFound},
		{"/thread?name=nope", http.StatusNotFound},
		{"/no/such/page", http.StatusNotFound},
		{"/static/nope.css", http.StatusNotFound},
		{"/block/abc", http.StatusBadRequest},
		{"/block/0", http.StatusBadRequest},
		{"/block/1?level=9", http.StatusBadRequest},
		{"/event/-1", http.StatusBadRequest},
		{"/thread", http.StatusBadRequest},
		{"/thread?name=team-atlas&budget=-5", http.StatusBadRequest},
		{"/events?limit=0", http.StatusBadRequest},
		{"/events?order=sideways", http.StatusBadRequest},
		{"/events?scope=team:x", http.StatusBadRequest},
		{"/graph?asof=yesterday", http.StatusBadRequest},
		{"/graph?scope=nope", http.StatusBadRequest},
		{"/search?q=%ff%fe", http.StatusBadRequest},
		{"/search?q=" + strings.Repeat("a", 5000), http.StatusBadRequest},
		{"/ask?q=%c3", http.StatusBadRequest},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			code, body := get(t, srv, tc.path)
			assert.Equal(t, tc.code, code, body)
			if !strings.HasPrefix(tc.path, "/static/") {
				must(t, body, `class="error"`)
			}
		})
	}
}

// TestEscaping: stored text is untrusted; every page that shows it shows
// it as text.
func TestEscaping(t *testing.T) {
	mem := demoStore(t, true)
	srv := server(t, mem, viewer.Options{})
	_, thread := get(t, srv, "/thread?"+url.Values{"name": {hostileThread}}.Encode())
	must(t, thread, "&lt;script&gt;document.title=&#34;pwned&#34;&lt;/script&gt;")
	must(t, thread, "evil&#34;&lt;b&gt;thread")
	paths := []string{"/", "/thread?" + url.Values{"name": {hostileThread}}.Encode(), "/search?q=adopted+cat", "/events", "/events?" + url.Values{"participant": {hostile}}.Encode()}
	_, search := get(t, srv, "/search?q=adopted+cat")
	paths = append(paths, "/block/"+firstID(t, search, "/block/")+"?level=all")
	for _, p := range paths {
		code, body := get(t, srv, p)
		require.Equal(t, http.StatusOK, code, p)
		assert.NotContains(t, body, "<script>document", p)
		assert.NotContains(t, body, "<img src=x", p)
		assert.NotContains(t, body, "<b>thread", p)
	}
}

func TestSecurityHeadersAndHosts(t *testing.T) {
	mem := demoStore(t, true)
	srv := server(t, mem, viewer.Options{})
	resp, err := http.Get(srv.URL + "/")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Contains(t, resp.Header.Get("Content-Security-Policy"), "script-src 'self'")
	assert.Equal(t, "nosniff", resp.Header.Get("X-Content-Type-Options"))

	// A page reached through another host name (DNS rebinding) is refused.
	req, err := http.NewRequest("GET", srv.URL+"/", nil)
	require.NoError(t, err)
	req.Host = "attacker.example:80"
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusForbidden, resp.StatusCode)
}

func TestToken(t *testing.T) {
	mem := demoStore(t, true)
	const tok = "0123456789abcdef-token"
	srv := server(t, mem, viewer.Options{Token: tok})
	code, _ := get(t, srv, "/")
	assert.Equal(t, http.StatusUnauthorized, code)
	code, _ = get(t, srv, "/?token=wrong-token-wrong-token")
	assert.Equal(t, http.StatusUnauthorized, code)

	resp, err := noRedirect.Get(srv.URL + "/events?type=fact&token=" + tok)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	assert.Equal(t, "/events?type=fact", resp.Header.Get("Location"), "the token leaves the address bar")
	cookies := resp.Cookies()
	require.Len(t, cookies, 1)
	assert.True(t, cookies[0].HttpOnly)

	req, _ := http.NewRequest("GET", srv.URL+"/", nil)
	req.AddCookie(cookies[0])
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)

	req, _ = http.NewRequest("GET", srv.URL+"/", nil)
	req.Header.Set("Authorization", "Bearer "+tok)
	req.Host = "viewer.example" // with a token, any host name may be used
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

func TestNewAndCheckAddr(t *testing.T) {
	_, err := viewer.New(nil, viewer.Options{})
	assert.ErrorIs(t, err, viewer.ErrConfig)
	mem := demoStore(t, true)
	_, err = viewer.New(mem, viewer.Options{Token: "short"})
	assert.ErrorIs(t, err, viewer.ErrConfig)
	for _, tc := range []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:7070", "", true},
		{"localhost:0", "", true},
		{"[::1]:7070", "", true},
		{"0.0.0.0:7070", "", false},
		{":7070", "", false},
		{"192.168.1.5:7070", "", false},
		{"0.0.0.0:7070", "a-token-of-enough-length", true},
		{"nonsense", "", false},
	} {
		err := viewer.CheckAddr(tc.addr, tc.token)
		if tc.ok {
			assert.NoError(t, err, tc.addr)
		} else {
			assert.ErrorIs(t, err, viewer.ErrConfig, tc.addr)
		}
	}
	assert.Equal(t, "http://127.0.0.1:7070/", viewer.URL("127.0.0.1:7070", ""))
	assert.Equal(t, "http://127.0.0.1:7070/?token=a%2Bb", viewer.URL("127.0.0.1:7070", "a+b"))
}

// TestReadOnlyRefusesWrites: without Options.Write every writing action
// is refused and nothing changes.
func TestReadOnlyRefusesWrites(t *testing.T) {
	mem := demoStore(t, false)
	srv := server(t, mem, viewer.Options{})
	export, err := os.ReadFile("../testdata/import/export.md")
	require.NoError(t, err)
	for _, p := range []string{"/imports", "/import/1/commit", "/import/1/undo"} {
		resp, body := post(t, srv, p, url.Values{"text": {string(export)}})
		assert.Equal(t, http.StatusForbidden, resp.StatusCode, p)
		assert.Contains(t, body, "read-only")
	}
	bs, err := mem.Imports(context.Background())
	require.NoError(t, err)
	assert.Empty(t, bs)
	_, page := get(t, srv, "/imports")
	assert.NotContains(t, page, `name="csrf"`, "no form to submit")
}

// TestImportFlow: preview a pasted export, commit with choices, undo —
// through forms that carry the CSRF token.
func TestImportFlow(t *testing.T) {
	ctx := context.Background()
	mem := demoStore(t, false)
	srv := server(t, mem, viewer.Options{Write: true})
	export, err := os.ReadFile("../testdata/import/export.md")
	require.NoError(t, err)
	_, page := get(t, srv, "/imports")
	csrf := csrfOf(t, page)

	resp, body := post(t, srv, "/imports", url.Values{"text": {string(export)}, "scope": {"project:atlas"}})
	assert.Equal(t, http.StatusForbidden, resp.StatusCode, "no CSRF token")
	assert.Contains(t, body, "CSRF")
	resp, _ = post(t, srv, "/imports", url.Values{"text": {string(export)}, "csrf": {"00" + csrf[2:]}})
	assert.Equal(t, http.StatusForbidden, resp.StatusCode, "a wrong CSRF token")
	resp, body = post(t, srv, "/imports", url.Values{"text": {"no document here"}, "csrf": {csrf}})
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode, body)
	bs, err := mem.Imports(ctx)
	require.NoError(t, err)
	require.Empty(t, bs, "refused forms change nothing")

	resp, _ = post(t, srv, "/imports", url.Values{"text": {string(export)}, "scope": {"project:atlas"}, "csrf": {csrf}})
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	loc := resp.Header.Get("Location")
	require.Regexp(t, `^/import/[0-9]+$`, loc)
	code, page := get(t, srv, loc)
	require.Equal(t, http.StatusOK, code)
	must(t, page, "previewed")
	must(t, page, "needs confirmation")
	b, err := mem.Import(ctx, 1)
	require.NoError(t, err)
	require.NotEmpty(t, b.Preview.Candidates)

	// Accept the first candidate, reject the second, leave the rest.
	form := url.Values{"csrf": {csrf}}
	var accepted, rejected int = -1, -1
	for _, c := range b.Preview.Candidates {
		switch {
		case accepted < 0 && !c.Automatic:
			accepted = c.Index
			form.Set("c"+strconv.Itoa(c.Index), "accept")
		case rejected < 0:
			rejected = c.Index
			form.Set("c"+strconv.Itoa(c.Index), "reject")
		default:
			form.Set("c"+strconv.Itoa(c.Index), "pending")
		}
	}
	require.GreaterOrEqual(t, accepted, 0)
	bad := url.Values{"csrf": {csrf}, "c0": {"maybe"}}
	resp, _ = post(t, srv, loc+"/commit", bad)
	assert.Equal(t, http.StatusBadRequest, resp.StatusCode)

	resp, _ = post(t, srv, loc+"/commit", form)
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	_, page = get(t, srv, resp.Header.Get("Location"))
	must(t, page, "committed: ")
	b, err = mem.Import(ctx, 1)
	require.NoError(t, err)
	assert.Equal(t, "committed", b.State)
	for _, c := range b.Preview.Candidates {
		switch c.Index {
		case accepted:
			assert.NotEmpty(t, c.Applied, "accepted")
		case rejected:
			assert.Zero(t, c.EventID, "rejected: no card")
			assert.Contains(t, []string{"", "ignore"}, string(c.Applied), "rejected")
		}
	}
	resp, _ = post(t, srv, loc+"/commit", form)
	assert.Equal(t, http.StatusConflict, resp.StatusCode, "committing twice")

	resp, _ = post(t, srv, loc+"/undo", url.Values{"csrf": {csrf}})
	require.Equal(t, http.StatusSeeOther, resp.StatusCode)
	b, err = mem.Import(ctx, 1)
	require.NoError(t, err)
	assert.Equal(t, "undone", b.State)
	_, page = get(t, srv, "/imports")
	must(t, page, "undone")
}
