package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/stratagate/stratagate"
)

var verifyCommand = &command{
	name: "verify", summary: "audit every invariant; exit 1 on errors",
	define: noFlags(runVerify),
}

func runVerify(e *env, args []string) error {
	if len(args) > 0 {
		return usagef("verify takes no arguments")
	}
	mem, err := e.memory()
	if err != nil {
		return err
	}
	rep, err := mem.Verify(e.ctx)
	if err != nil {
		return err
	}
	errs := 0
	for _, v := range rep.Violations {
		if v.Kind == stratagate.ViolationError {
			errs++
		}
	}
	warns := len(rep.Violations) - errs
	err = e.emit(rep, func(w io.Writer) error {
		if len(rep.Violations) > 0 {
			tw := newTable(w)
			fmt.Fprintln(tw, "KIND\tCHECK\tID\tKEY\tDETAIL")
			for _, v := range rep.Violations {
				id := "-"
				if v.ID != 0 {
					id = fmt.Sprint(v.ID)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", v.Kind, v.Check, id, dash(v.Key), v.Detail)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
		}
		verdict := "OK"
		if !rep.OK {
			verdict = "FAILED"
		}
		fmt.Fprintf(w, "verify: %s: %s, %s; checked %s\n", verdict, plural(errs, "error"), plural(warns, "warning"), checkedSummary(rep.Checked))
		return nil
	})
	if err != nil {
		return err
	}
	if !rep.OK {
		return failf("verify: %s: %s found", e.db, plural(errs, "error"))
	}
	return nil
}

// checkedSummary renders the counts as "12 blocks, 140 messages, ...".
func checkedSummary(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d %s", m[k], k)
	}
	return strings.Join(parts, ", ")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
