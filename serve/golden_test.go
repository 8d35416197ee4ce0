package serve

import "flag"

// update rewrites the package's golden files (the review card, the web screenshots)
// instead of comparing with them: go test ./serve -run 'TestStoryReviewOfATrap|TestWebScreenshots' -update
var update = flag.Bool("update", false, "rewrite the golden files under testdata/")
