//go:build race

package dead

// raceEnabled is true under the race detector, which slows the search tenfold: the
// longest walks over the corpora then take a sample.
const raceEnabled = true
