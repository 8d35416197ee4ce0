// context.go: the context of a command's store work: it ends when the user interrupts
// the command (Ctrl-C or SIGTERM), so a database that stops answering never leaves a
// tool hanging beyond the user's patience, and nothing is committed after the user
// gave up.

package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// commandContext returns the context of one command run and the function that
// releases its signal handler.
func commandContext() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
