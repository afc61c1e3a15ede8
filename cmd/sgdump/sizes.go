package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"

	"github.com/stratagate/stratagate"
)

// sizesOut is stats -sizes: what each top-level bucket holds, largest
// first, and the file per message and per turn.
type sizesOut struct {
	Buckets []bucketSizeOut `json:"buckets"`
	// Total sums the buckets; FileBytes minus Total.AllocBytes is bbolt's
	// meta and freelist pages and the free pages kept for reuse.
	Total         bucketSizeOut `json:"total"`
	Turns         uint64        `json:"turns"`
	FileBytes     int64         `json:"file_bytes"`
	FilePerMsg    float64       `json:"file_bytes_per_message"`
	FilePerTurn   float64       `json:"file_bytes_per_turn"`
	PayloadPerMsg float64       `json:"payload_bytes_per_message"`
}

type bucketSizeOut struct {
	Name       string  `json:"name"`
	Keys       int     `json:"keys"`
	KeyBytes   int64   `json:"key_bytes"`
	ValueBytes int64   `json:"value_bytes"`
	Bytes      int64   `json:"bytes"` // key plus value bytes
	Pages      int     `json:"pages"`
	AllocBytes int64   `json:"alloc_bytes"`
	PerMsg     float64 `json:"bytes_per_message"` // Bytes over the file's messages
}

func newSizes(s stratagate.Stats, turns uint64) *sizesOut {
	per := func(n int64, d int) float64 { return float64(n) / float64(max(1, d)) }
	o := &sizesOut{Turns: turns, FileBytes: s.FileBytes, Total: bucketSizeOut{Name: "total"}}
	for name, b := range s.Sizes {
		bo := bucketSizeOut{
			Name: name, Keys: b.Keys, KeyBytes: b.KeyBytes, ValueBytes: b.ValueBytes, Bytes: b.Bytes(),
			Pages: b.Pages, AllocBytes: b.AllocBytes, PerMsg: per(b.Bytes(), s.Messages),
		}
		o.Buckets = append(o.Buckets, bo)
		t := &o.Total
		t.Keys, t.KeyBytes, t.ValueBytes, t.Bytes = t.Keys+bo.Keys, t.KeyBytes+bo.KeyBytes, t.ValueBytes+bo.ValueBytes, t.Bytes+bo.Bytes
		t.Pages, t.AllocBytes = t.Pages+bo.Pages, t.AllocBytes+bo.AllocBytes
	}
	o.Total.PerMsg = per(o.Total.Bytes, s.Messages)
	slices.SortFunc(o.Buckets, func(a, b bucketSizeOut) int {
		return cmp.Or(cmp.Compare(b.AllocBytes, a.AllocBytes), cmp.Compare(b.Bytes, a.Bytes), cmp.Compare(a.Name, b.Name))
	})
	if o.Buckets == nil {
		o.Buckets = []bucketSizeOut{}
	}
	o.FilePerMsg = per(s.FileBytes, s.Messages)
	o.FilePerTurn = float64(s.FileBytes) / float64(max(1, turns))
	o.PayloadPerMsg = o.Total.PerMsg
	return o
}

func (o *sizesOut) write(w io.Writer) error {
	tw := newTable(w)
	fmt.Fprintln(tw, "BUCKET\tKEYS\tKEY BYTES\tVALUE BYTES\tBYTES\tPAGES\tPAGE BYTES\tBYTES/MSG")
	row := func(b bucketSizeOut) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f\n", b.Name, b.Keys, b.KeyBytes, b.ValueBytes, b.Bytes, b.Pages, b.AllocBytes, b.PerMsg)
	}
	for _, b := range o.Buckets {
		row(b)
	}
	row(o.Total)
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "file %d bytes: %.1f per message, %.1f per turn (%d turns); key+value payload %.1f per message\n",
		o.FileBytes, o.FilePerMsg, o.FilePerTurn, o.Turns, o.PayloadPerMsg)
	return nil
}
