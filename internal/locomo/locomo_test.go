package locomo

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate"
)

// defaultDataPath is LoCoMo conv-26, outside the repository (its licence
// is non-commercial), relative to this package's directory.
const defaultDataPath = "../../../shared/locomo/locomo-dev.json"

func dataPath(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("LoCoMo measurement skipped in -short mode")
	}
	p := os.Getenv("STRATAGATE_LOCOMO")
	if p == "" {
		p = defaultDataPath
	}
	if _, err := os.Stat(p); err != nil {
		t.Skipf("LoCoMo data not available (%v); set STRATAGATE_LOCOMO to locomo-dev.json", err)
	}
	return p
}

// TestLoCoMoEventTime ingests conv-26 as one thread with default options
// and logs how many temporal questions a card citing the gold evidence
// dates correctly. It asserts only that the report is consistent.
func TestLoCoMoEventTime(t *testing.T) {
	path := dataPath(t)
	begin := time.Now()
	convs, err := Load(path)
	require.NoError(t, err)
	var c *Conversation
	for i := range convs {
		if convs[i].ID == "conv-26" {
			c = &convs[i]
		}
	}
	require.NotNil(t, c, "conv-26 not in %s", path)

	ctx, cancel := context.WithTimeout(context.Background(), 55*time.Second)
	defer cancel()
	mem, err := stratagate.Open(filepath.Join(t.TempDir(), "conv-26.sg"), nil)
	require.NoError(t, err)
	defer mem.Close()
	m, err := Ingest(ctx, mem, c, c.ID, "global")
	require.NoError(t, err)
	require.Len(t, m.IDToDia, c.TurnCount())
	require.NoError(t, mem.WaitIdle(ctx))
	st, err := mem.Stats(ctx)
	require.NoError(t, err)
	require.Zero(t, st.BlocksFailed, "failed blocks")

	rep, err := MeasureEventTime(ctx, mem, c, m.IDToDia, []string{"global"})
	require.NoError(t, err)
	checkReport(t, rep)
	t.Logf("%d turns, %d messages, %d blocks, %s", len(c.Turns(c.ID, "global")), c.TurnCount(), st.Blocks, time.Since(begin).Round(time.Millisecond))
	t.Log(rep)
}
