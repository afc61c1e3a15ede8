package viewer_test

import (
	"bytes"
	"context"
	"image/png"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/viewer"
)

// chromium finds a headless-capable Chromium: $STRATAGATE_CHROMIUM, else
// the usual names on PATH.
func chromium() string {
	if p := os.Getenv("STRATAGATE_CHROMIUM"); p != "" {
		return p
	}
	for _, n := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// browse runs headless Chromium on url with extra flags and returns stdout.
func browse(t *testing.T, bin, profile, u string, flags ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
		"--hide-scrollbars", "--user-data-dir=" + profile, "--window-size=1280,900", "--virtual-time-budget=3000"}, flags...)
	cmd := exec.CommandContext(ctx, bin, append(args, u)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	require.NoError(t, cmd.Run(), "chromium %v: %s", flags, errb.String())
	return out.String()
}

// TestBrowser loads the main pages of the demo store in a real browser:
// the rendered DOM (after the page's script ran) must hold the drawing and
// the escaped text, and a screenshot must not be blank. With
// STRATAGATE_SCREENSHOTS=DIR the screenshots are kept there (docs/img).
func TestBrowser(t *testing.T) {
	bin := chromium()
	if bin == "" {
		if os.Getenv("STRATAGATE_REQUIRE_BROWSER") != "" {
			t.Fatal("STRATAGATE_REQUIRE_BROWSER is set (CI) but no headless Chromium was found")
		}
		t.Skip("headless Chromium not found (install the Debian package chromium, or set STRATAGATE_CHROMIUM): the browser test is skipped")
	}
	mem := demoStore(t, true)
	srv := server(t, mem, viewer.Options{})
	_, events := get(t, srv, "/events")
	ev := firstID(t, events, "/event/")
	shots := os.Getenv("STRATAGATE_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	require.NoError(t, os.MkdirAll(shots, 0o755))
	profile := t.TempDir()
	pages := []struct {
		name, path string
		want       []string
		minCircles int
	}{
		{"overview", "/", []string{"<h1>Overview</h1>", "team-atlas"}, 0},
		{"thread", "/thread?name=team-atlas", []string{"Block #", `class="depth"`}, 0},
		{"events", "/events", []string{"Events on two clocks", `class="happened`}, 10},
		{"graph", "/graph", []string{"Graph as of now", `class="node kind-person"`}, 5},
		{"event", "/event/" + ev, []string{"Cited messages", "✓ SHA-256"}, 0},
		{"ask", "/ask?q=" + url.QueryEscape("Which package manager does Atlas use now?"), []string{"sufficient", "Gate trace"}, 0},
		{"hostile", "/thread?" + url.Values{"name": {hostileThread}}.Encode(), []string{"&lt;script&gt;"}, 0},
	}
	for _, p := range pages {
		t.Run(p.name, func(t *testing.T) {
			dom := browse(t, bin, profile, srv.URL+p.path, "--dump-dom")
			for _, w := range p.want {
				assert.Contains(t, dom, w)
			}
			assert.GreaterOrEqual(t, strings.Count(dom, "<circle"), p.minCircles, "SVG drawn")
			assert.NotContains(t, dom, "pwned</title>", "stored markup never runs")
			assert.NotContains(t, dom, "<img src=\"x\"", "stored markup never becomes an element")
			file := filepath.Join(shots, p.name+".png")
			browse(t, bin, profile, srv.URL+p.path, "--screenshot="+file)
			b, err := os.ReadFile(file)
			require.NoError(t, err)
			img, err := png.Decode(bytes.NewReader(b))
			require.NoError(t, err)
			bounds := img.Bounds()
			require.Equal(t, 1280, bounds.Dx())
			colours := map[uint32]bool{}
			for y := bounds.Min.Y; y < bounds.Max.Y; y += 7 {
				for x := bounds.Min.X; x < bounds.Max.X; x += 7 {
					r, g, b, _ := img.At(x, y).RGBA()
					colours[r>>8<<16|g>>8<<8|b>>8] = true
				}
			}
			assert.Greater(t, len(colours), 8, "the screenshot is not blank")
		})
	}
}
