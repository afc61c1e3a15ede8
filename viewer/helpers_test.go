package viewer_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
	"github.com/stratagate/stratagate/internal/sample"
	"github.com/stratagate/stratagate/viewer"
)

// hostile is stored text that would run script if a page did not escape
// it; it appears as a speaker, in content and in a thread name.
const hostile = `<script>document.title="pwned"</script><img src=x onerror="document.title='pwned'">`

// hostileThread is a thread whose name and messages carry markup.
const hostileThread = `evil"<b>thread`

// demoStore is the sample conversation, derived, extracted and projected,
// plus a thread of hostile text.
func demoStore(t testing.TB, readOnly bool) *stratagate.Memory {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "memory.sg")
	mem, err := stratagate.Open(path, nil)
	require.NoError(t, err)
	f, err := sample.Load("../testdata/conversation.json")
	require.NoError(t, err)
	for _, tr := range f.Turns() {
		_, err := mem.Append(ctx, tr)
		require.NoError(t, err)
	}
	at := time.Date(2024, 8, 1, 10, 0, 0, 0, time.UTC)
	for i := range 3 {
		_, err := mem.Append(ctx, stratagate.Turn{Thread: hostileThread, Messages: []stratagate.Message{
			{Role: "user", Speaker: hostile, Content: "I adopted a cat named " + hostile + " yesterday.", At: at.Add(time.Duration(i) * time.Hour)},
			{Role: "assistant", Speaker: "assistant", Content: "Noted " + hostile, At: at.Add(time.Duration(i)*time.Hour + time.Second)},
		}})
		require.NoError(t, err)
	}
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	require.NoError(t, mem.WaitIdle(wctx))
	if readOnly {
		require.NoError(t, mem.Close())
		mem, err = stratagate.Open(path, &stratagate.Options{ReadOnly: true})
		require.NoError(t, err)
	}
	t.Cleanup(func() { _ = mem.Close() })
	return mem
}

// server serves a viewer of mem on a loopback httptest server.
func server(t testing.TB, mem *stratagate.Memory, o viewer.Options) *httptest.Server {
	t.Helper()
	h, err := viewer.New(mem, o)
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// noRedirect is a client that reports redirects instead of following them.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func get(t testing.TB, srv *httptest.Server, path string) (int, string) {
	t.Helper()
	resp, err := noRedirect.Get(srv.URL + path)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

func post(t testing.TB, srv *httptest.Server, path string, form url.Values) (*http.Response, string) {
	t.Helper()
	resp, err := noRedirect.PostForm(srv.URL+path, form)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

var csrfRE = regexp.MustCompile(`name="csrf" value="([0-9a-f]+)"`)

// csrfOf reads the form token from a page.
func csrfOf(t testing.TB, page string) string {
	t.Helper()
	m := csrfRE.FindStringSubmatch(page)
	require.NotNil(t, m, "no CSRF field on the page")
	return m[1]
}

// firstID returns the first id in a link of the given prefix ("/event/").
func firstID(t testing.TB, page, prefix string) string {
	t.Helper()
	re := regexp.MustCompile(regexp.QuoteMeta(prefix) + `([0-9]+)`)
	m := re.FindStringSubmatch(page)
	require.NotNil(t, m, "no %s link", prefix)
	return m[1]
}

func must(t testing.TB, s, sub string) {
	t.Helper()
	if !strings.Contains(s, sub) {
		t.Fatalf("page lacks %q", sub)
	}
}
