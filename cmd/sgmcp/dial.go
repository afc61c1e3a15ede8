package main

import (
	"context"

	"github.com/stratagate/stratagate/capture"
)

// dialStore returns how hook and import reach a running server holding
// db, or nil while no such path exists: they then open the file
// themselves.
func dialStore(db string) func(ctx context.Context) (capture.Store, error) {
	return nil
}
