package extmem_test

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stratagate/stratagate/extmem"
)

// docs/IMPORT.md quotes the export prompt verbatim, and its example
// document parses as the page says.
func TestImportDoc(t *testing.T) {
	data, err := os.ReadFile("../docs/IMPORT.md")
	require.NoError(t, err)
	page := string(data)
	assert.Contains(t, page, "~~~~text\n"+extmem.ExportPrompt()+"~~~~\n", "the prompt section is out of date")
	assert.Contains(t, page, "## The import flow\n")

	d, err := extmem.Parse(page)
	require.NoError(t, err)
	require.Len(t, d.Memories, 2)
	tea, cat := d.Memories[0], d.Memories[1]
	assert.Equal(t, "Tea, not coffee", tea.Title)
	assert.True(t, tea.Temporal.HappenedStart.IsZero())
	assert.Equal(t, []string{`I only drink \"proper\" tea now`}, tea.Verbatim.Quotes)
	assert.Equal(t, time.Date(2024, 9, 2, 0, 0, 0, 0, time.UTC), cat.Temporal.HappenedStart)
	assert.Equal(t, time.Date(2024, 9, 9, 0, 0, 0, 0, time.UTC), cat.Temporal.HappenedEnd)
	assert.Equal(t, []string{"Marta"}, cat.Temporal.Participants)
	for _, c := range d.Memories {
		assert.Empty(t, c.Warnings)
	}
}
