// Interactions over HTTP to one of several processes: the fake as Discord behind a load
// balancer that picks, for each interaction, the process it reaches.
package discordfake

import (
	"context"
	"errors"
	"fmt"
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
