// Package linkedroles keeps the users' Linked Roles connections: a user links their
// Discord account on the verification page (OAuth2, scope role_connections.write), and
// the service pushes their role-connection metadata, the best rating per category
// across the servers' ladders and the rated games played, then again whenever a rated
// game of theirs ends. A server's admins gate a role on it in Discord ("blitz rating at
// least 1800"); Discord decides who qualifies.
//
// The grant (access and refresh tokens) is sealed (AES-256-GCM, with a key derived from
// the application's client secret) before it reaches the store, and is never logged.
// An expired access token (or one Discord refuses) is refreshed first; a refresh token
// is good once, so the refresh is claimed in the store (the record written from its
// stored version) before it is made: of two processes pushing at once, one refreshes
// and pushes, the other leaves the push to it; a claim older than a minute is a dead
// process's and is taken over. A grant Discord refuses to refresh (the user removed
// the application) ends the link. Metadata equal to what was last pushed is not
// pushed again. The service speaks no Discord itself: Discord (package web) does.
package linkedroles
