// Interactions over HTTP to one of several processes: the fake as Discord behind a load
// balancer that picks, for each interaction, the process it reaches.
package discordfake

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"time"
)

// ErrNoEndpoint is returned by SendInteractionTo when the application has no
// Interactions Endpoint URL (SetInteractionsURL was never called): Discord then delivers
// nothing over HTTP.
var ErrNoEndpoint = errors.New("discordfake: no interactions endpoint URL set")

// SendInteractionTo delivers an interaction built from spec as SendInteraction does over
// HTTP, but POSTs it to url, one of the processes behind the application's endpoint,
// as a load balancer in front of several processes would: the interaction is signed
// and checked the same way, and the HTTP response is taken as its callback. The
// application must have an endpoint URL (SetInteractionsURL), as on Discord, where
// interactions reach an application's processes only through it. An endpoint that
// cannot be reached (a process that died) leaves the interaction unanswered and
// returns the connection's error: Discord shows the user that the interaction failed,
// and sends it nowhere else.
func (f *Fake) SendInteractionTo(ctx context.Context, url string, spec InteractionSpec) (*InteractionResult, error) {
	if f.InteractionsURL() == "" {
		return nil, ErrNoEndpoint
	}
	if url == "" {
		return nil, fmt.Errorf("send interaction %s%s: no process URL", spec.Name, spec.CustomID)
	}
	payload, err := f.buildInteraction(spec)
	if err != nil {
		return nil, err
	}
	return f.sendTo(ctx, payload, url)
}

// ErrAlreadyAcknowledged is returned by RedeliverTo when the endpoint answered an
// interaction that already had its response: Discord refuses a second one (error
// 40060), so the user sees only the first.
var ErrAlreadyAcknowledged = errors.New("discordfake: interaction already acknowledged")

// RedeliverTo POSTs an interaction delivered before (res: its ID, token and payload)
// to url again, freshly signed, as a load balancer that retries a request on another
// process would, and returns the endpoint's HTTP status. An answer (200) is checked as
// a callback, as Discord checks one: for an interaction already answered it is refused
// and RedeliverTo returns ErrAlreadyAcknowledged; an answer Discord would accept
// (the first one had not arrived) is recorded as the callback and returns nil.
func (f *Fake) RedeliverTo(ctx context.Context, url string, res *InteractionResult) (int, error) {
	sig, ts := f.Sign(res.Payload, time.Now())
	status, ct, body, err := f.post(ctx, url, res.Payload, sig, ts)
	if err != nil {
		return 0, fmt.Errorf("redeliver interaction %s to %s: %w", res.ID, url, err)
	}
	if status != http.StatusOK {
		return status, nil
	}
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/interactions/"+res.ID+"/"+res.Token+"/callback", bytes.NewReader(body))
	req.Header.Set("Content-Type", ct)
	req.SetPathValue("id", res.ID)
	req.SetPathValue("token", res.Token)
	rec := httptest.NewRecorder()
	f.postCallback(rec, req)
	switch {
	case rec.Code == http.StatusNoContent:
		return status, nil
	case rec.Code == http.StatusBadRequest && strings.Contains(rec.Body.String(), strconv.Itoa(codeAlreadyAcknowledged)):
		return status, ErrAlreadyAcknowledged
	}
	return status, fmt.Errorf("interaction %s: the endpoint's second answer is not a valid callback: %d %s", res.ID, rec.Code, strings.TrimSpace(rec.Body.String()))
}
