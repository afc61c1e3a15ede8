// Package sample loads the sample conversation in testdata/ (its schema is
// described in testdata/README.md) for the demo, tests and benchmarks.
package sample

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/stratagate/stratagate"
)

// File is the decoded sample conversation.
type File struct {
	Threads   []Thread   `json:"threads"`
	Questions []Question `json:"questions"`
}

// Thread is one thread of turns with its scope.
type Thread struct {
	Thread string `json:"thread"`
	Scope  string `json:"scope"`
	Turns  []Turn `json:"turns"`
}

// Turn is one completed exchange with its receipt id.
type Turn struct {
	Receipt  string    `json:"receipt"`
	Messages []Message `json:"messages"`
}

// Message is one message as written in the file.
type Message struct {
	Role       string    `json:"role"`
	Speaker    string    `json:"speaker"`
	At         time.Time `json:"at"`
	Content    string    `json:"content"`
	ToolName   string    `json:"tool_name"`
	ToolCallID string    `json:"tool_call_id"`
}

// Question is a demo question with its gold answer and evidence receipts.
type Question struct {
	Question         string   `json:"question"`
	Answer           string   `json:"answer"`
	EvidenceReceipts []string `json:"evidence_receipts"`
}

// Load reads and strictly decodes the file at path.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("sample: %s: %w", path, err)
	}
	return &f, nil
}

// TurnCount returns the number of turns over all threads.
func (f *File) TurnCount() int {
	n := 0
	for _, th := range f.Threads {
		n += len(th.Turns)
	}
	return n
}

// Turns returns the threads' turns as StrataGate turns, thread by thread in
// file order (interleave them yourself if you need wall-clock order).
func (f *File) Turns() []stratagate.Turn {
	var out []stratagate.Turn
	for _, th := range f.Threads {
		for _, t := range th.Turns {
			st := stratagate.Turn{Thread: th.Thread, Scope: th.Scope, ReceiptID: t.Receipt}
			for _, m := range t.Messages {
				st.Messages = append(st.Messages, stratagate.Message{
					Role: m.Role, Speaker: m.Speaker, Content: m.Content,
					ToolName: m.ToolName, ToolCallID: m.ToolCallID, At: m.At,
				})
			}
			out = append(out, st)
		}
	}
	return out
}
