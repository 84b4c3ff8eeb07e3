package main

import (
	"context"
	"errors"
)

// runBridge runs the bridge between the IDE on stdin/stdout and the agent.
func runBridge(ctx context.Context, e *env, args []string) error {
	return errors.New("bridge: not built yet")
}

func runDemo(ctx context.Context, e *env, args []string) error {
	return errors.New("demo: not built yet")
}

func runReplay(ctx context.Context, e *env, args []string) error {
	return errors.New("replay: not built yet")
}
