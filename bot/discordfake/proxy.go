// The answers of a rate-limit proxy between the bots and Discord, which the fake plays
// when a Failure says FromProxy.
package discordfake

import (
	"math"
	"net/http"
	"strconv"
	"time"
)

// writeProxy429 answers as nirn-proxy does when a request cannot reach the cluster node
// that holds its bucket: a 429 it makes up itself, marked generated-by-proxy, asking
// for a retry after whole seconds, with the user scope and Discord's body. Like the
// proxy, it writes its header names in lower case; clients must read them whatever
// their case.
func writeProxy429(w http.ResponseWriter, after time.Duration) {
	secs := int(math.Ceil(after.Seconds()))
	if secs < 1 {
		secs = 1
	}
	h := w.Header()
	for k, v := range map[string]string{
		"generated-by-proxy":    "true",
		"x-ratelimit-scope":     "user",
		"x-ratelimit-limit":     "1",
		"x-ratelimit-remaining": "0",
		"x-ratelimit-reset":     strconv.FormatInt(time.Now().Add(time.Duration(secs)*time.Second).Unix(), 10),
		"retry-after":           strconv.Itoa(secs),
		"content-type":          "application/json",
	} {
		h[k] = []string{v}
	}
	if sw, ok := w.(*statusWriter); ok {
		sw.errText = "You are being rate limited. (by the proxy)"
	}
	w.WriteHeader(http.StatusTooManyRequests)
	w.Write([]byte(`{"global":false,"message":"You are being rate limited.","retry_after":` + strconv.Itoa(secs) + `}`))
}
