package pg_test

import (
	"testing"

	"github.com/gambitchess/gambit/storage/storagetest"
)

// TestConformance runs the backends' shared suite on this one.
func TestConformance(t *testing.T) { storagetest.Conformance(t, storagetest.Postgres()) }
