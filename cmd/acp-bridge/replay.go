package main

import (
	"context"
	"errors"
)

// runReplay is filled in below.
func runReplay(ctx context.Context, e *env, args []string) error {
	return errors.New("replay: not built yet")
}
