// instants.go: instants as both backends store them (the leases' expiries and beats).

package codec

import "time"

// UnixNanos is an instant as stored: unix nanoseconds, 0 for the zero instant.
func UnixNanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

// FromUnixNanos reads an instant stored by UnixNanos.
func FromUnixNanos(ns int64) time.Time {
	if ns == 0 {
		return time.Time{}
	}
	return time.Unix(0, ns).UTC()
}
