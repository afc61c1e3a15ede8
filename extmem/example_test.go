package extmem_test

import (
	"fmt"

	"github.com/stratagate/stratagate/extmem"
)

func ExampleParse() {
	reply := "Here is what I remember:\n\n```json\n" + `{
  "format": "stratagate.external-memory.v2",
  "exported_at": "2024-10-02T18:30:00Z",
  "memories": [
    {"kind": "preference", "title": "Tea, not coffee",
     "original_text": "I gave up coffee, I only drink \"proper\" tea now.",
     "temporal": {"precision": "unknown", "basis": "unknown"}},
    {"kind": "event", "summary": "Adopted a cat from the shelter.",
     "temporal": {"original_text": "two weeks ago", "mentioned_at": "2024-09-20",
                  "precision": "week", "basis": "relative", "status": "completed"}}
  ]
}` + "\n```\nAnything else?"
	doc, err := extmem.Parse(reply)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range doc.Memories {
		tm := c.Temporal
		fmt.Printf("%s: %s (%s)\n", c.Kind, c.Title, tm.Precision)
		if !tm.HappenedStart.IsZero() {
			fmt.Printf("  happened %s to %s\n", tm.HappenedStart.Format("2006-01-02"), tm.HappenedEnd.Format("2006-01-02"))
		}
		if c.Verbatim.OriginalText != "" {
			fmt.Printf("  verbatim %s\n", c.Verbatim.OriginalText)
		}
	}
	fmt.Println(c0Fingerprint(doc))
	// Output:
	// preference: Tea, not coffee (unknown)
	//   verbatim I gave up coffee, I only drink \"proper\" tea now.
	// event: Adopted a cat from the shelter (week)
	//   happened 2024-09-02 to 2024-09-09
	// tea not coffee | i gave up coffee i only drink proper tea now
}

func c0Fingerprint(d *extmem.Document) string { return d.Memories[0].Fingerprint() }
