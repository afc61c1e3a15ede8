package main

import "github.com/stratagate/stratagate/capture"

// projectScope returns the default project scope of a working directory:
// the scope capture files that directory's sessions under
// (capture.ProjectScope), so that what a hook captures and what the
// server serves meet.
func projectScope(cwd string) (string, error) {
	return capture.ProjectScope(cwd), nil
}
