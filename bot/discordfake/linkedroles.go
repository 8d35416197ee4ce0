// linkedroles.go: Linked Roles as Discord runs them: the application's role-connection
// metadata records (PUT and GET applications/{app}/role-connections/metadata, the bot's
// token; at most 5, keys of a-z, 0-9 and _, 1 to 50 characters), a user's role
// connection (PUT and GET users/@me/applications/{app}/role-connection, the user's
// bearer token with the role_connections.write scope; values only for registered
// keys, integers for the integer types), and the qualification of a member for a
// server's linked role, which Discord computes from the two (HasLinkedRole).

package discordfake

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// maxRoleMetadata is how many metadata records an application may have.
const maxRoleMetadata = 5

var roleMetadataKeyRE = regexp.MustCompile(`^[a-z0-9_]{1,50}$`)

// linkedState is the application's metadata, the users' connections and the servers'
// linked roles; Fake.mu guards it.
type linkedState struct {
	metadata    []discordgo.ApplicationRoleConnectionMetadata
	connections map[string]discordgo.ApplicationRoleConnection // by user
	roles       map[string][]RoleRequirement                   // by guild + "/" + role
}

func (l *linkedState) init() {
	l.connections = map[string]discordgo.ApplicationRoleConnection{}
	l.roles = map[string][]RoleRequirement{}
}

// RoleRequirement is one condition of a linked role, as a server's admin sets it in
// Discord: the metadata record Key compared with Value by the record's type.
type RoleRequirement struct {
	Key   string
	Value int64
}

// AddLinkedRole makes a role of a guild a linked role of the application with the
// requirements (all must hold), and returns the role's id.
func (f *Fake) AddLinkedRole(guildID string, reqs ...RoleRequirement) string {
	id := f.ids.next()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.linked.roles[guildID+"/"+id] = slices.Clone(reqs)
	return id
}

// RoleMetadata returns the application's metadata records as last registered.
func (f *Fake) RoleMetadata() []discordgo.ApplicationRoleConnectionMetadata {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.linked.metadata)
}

// RoleConnection returns the role connection the application has pushed for a user.
func (f *Fake) RoleConnection(userID string) (discordgo.ApplicationRoleConnection, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.linked.connections[userID]
	return c, ok
}

// HasLinkedRole reports whether a user qualifies for a linked role: every requirement
// holds for the user's role connection under the type of its metadata record. A
// requirement on a key no longer registered, or a value the user lacks, fails.
func (f *Fake) HasLinkedRole(guildID, roleID, userID string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	reqs, ok := f.linked.roles[guildID+"/"+roleID]
	conn, linked := f.linked.connections[userID]
	if !ok || !linked {
		return false
	}
	for _, r := range reqs {
		i := slices.IndexFunc(f.linked.metadata, func(m discordgo.ApplicationRoleConnectionMetadata) bool { return m.Key == r.Key })
		raw, has := conn.Metadata[r.Key]
		if i < 0 || !has {
			return false
		}
		v, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			return false
		}
		switch f.linked.metadata[i].Type {
		case discordgo.ApplicationRoleConnectionMetadataIntegerLessThanOrEqual:
			ok = v <= r.Value
		case discordgo.ApplicationRoleConnectionMetadataIntegerGreaterThanOrEqual:
			ok = v >= r.Value
		case discordgo.ApplicationRoleConnectionMetadataIntegerEqual:
			ok = v == r.Value
		case discordgo.ApplicationRoleConnectionMetadataIntegerNotEqual:
			ok = v != r.Value
		case discordgo.ApplicationRoleConnectionMetadataBooleanEqual:
			ok = (v != 0) == (r.Value != 0)
		case discordgo.ApplicationRoleConnectionMetadataBooleanNotEqual:
			ok = (v != 0) != (r.Value != 0)
		default:
			ok = false
		}
		if !ok {
			return false
		}
	}
	return true
}

// integerType reports whether a metadata type holds an integer (the boolean types hold
// 0 or 1, the datetime ones a date).
func integerType(t discordgo.ApplicationRoleConnectionMetadataType) bool {
	return t >= discordgo.ApplicationRoleConnectionMetadataIntegerLessThanOrEqual && t <= discordgo.ApplicationRoleConnectionMetadataIntegerNotEqual
}

func (f *Fake) putRoleMetadata(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("app") != f.AppID {
		fail(w, http.StatusForbidden, codeMissingAccess, "Missing Access")
		return
	}
	raw, _, err := readBody(r)
	var recs []discordgo.ApplicationRoleConnectionMetadata
	if err == nil {
		err = json.Unmarshal(raw, &recs)
	}
	if err != nil {
		fail(w, http.StatusBadRequest, codeGeneral, "400: Bad Request: decode role connection metadata: "+errText(err))
		return
	}
	e := &formErrors{}
	if len(recs) > maxRoleMetadata {
		e.add("_root", "BASE_TYPE_MAX_LENGTH", "Must be %d or fewer in length.", maxRoleMetadata)
	}
	seen := map[string]bool{}
	for i, m := range recs {
		p := strconv.Itoa(i) + "."
		if !roleMetadataKeyRE.MatchString(m.Key) {
			e.add(p+"key", "STRING_TYPE_REGEX", "String value did not match validation regex.")
		}
		if seen[m.Key] {
			e.add(p+"key", "APPLICATION_ROLE_CONNECTIONS_METADATA_DUPLICATE_KEY", "Keys must be unique.")
		}
		seen[m.Key] = true
		checkLen(e, p+"name", m.Name, 1, 100)
		checkLen(e, p+"description", m.Description, 1, 200)
		if m.Type < discordgo.ApplicationRoleConnectionMetadataIntegerLessThanOrEqual || m.Type > discordgo.ApplicationRoleConnectionMetadataBooleanNotEqual {
			e.add(p+"type", "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6, 7, 8}.")
		}
	}
	if !e.empty() {
		failForm(w, e)
		return
	}
	f.mu.Lock()
	f.linked.metadata = slices.Clone(recs)
	f.notifyLocked()
	f.mu.Unlock()
	writeJSON(w, http.StatusOK, recs)
}

func (f *Fake) getRoleMetadata(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("app") != f.AppID {
		fail(w, http.StatusForbidden, codeMissingAccess, "Missing Access")
		return
	}
	writeJSON(w, http.StatusOK, f.RoleMetadata())
}

// bearerUser returns the user of the request's bearer token if it has scope; it answers
// 401 itself and returns false.
func (f *Fake) bearerUser(w http.ResponseWriter, r *http.Request, scope string) (string, bool) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	user, scopes, valid := f.TokenUser(tok)
	if !ok || !valid || !slices.Contains(scopes, scope) {
		fail(w, http.StatusUnauthorized, codeGeneral, "401: Unauthorized")
		return "", false
	}
	return user, true
}

func (f *Fake) putRoleConnection(w http.ResponseWriter, r *http.Request) {
	user, ok := f.bearerUser(w, r, "role_connections.write")
	if !ok {
		return
	}
	if r.PathValue("app") != f.AppID {
		fail(w, http.StatusNotFound, codeUnknownApplication, "Unknown Application")
		return
	}
	raw, _, err := readBody(r)
	var c discordgo.ApplicationRoleConnection
	if err == nil {
		err = json.Unmarshal(raw, &c)
	}
	if err != nil {
		fail(w, http.StatusBadRequest, codeGeneral, "400: Bad Request: decode role connection: "+errText(err))
		return
	}
	e := &formErrors{}
	checkLen(e, "platform_name", c.PlatformName, 0, 50)
	checkLen(e, "platform_username", c.PlatformUsername, 0, 100)
	f.mu.Lock()
	defer f.mu.Unlock()
	for k, v := range c.Metadata {
		i := slices.IndexFunc(f.linked.metadata, func(m discordgo.ApplicationRoleConnectionMetadata) bool { return m.Key == k })
		switch {
		case i < 0:
			e.add("metadata."+k, "APPLICATION_ROLE_CONNECTIONS_METADATA_UNKNOWN_KEY", "No metadata record has this key.")
		case integerType(f.linked.metadata[i].Type):
			if _, err := strconv.ParseInt(v, 10, 64); err != nil {
				e.add("metadata."+k, "NUMBER_TYPE_COERCE", "Value %q is not int.", v)
			}
		}
	}
	if !e.empty() {
		failForm(w, e)
		return
	}
	if c.Metadata == nil {
		c.Metadata = map[string]string{}
	}
	f.linked.connections[user] = c
	f.notifyLocked()
	writeJSON(w, http.StatusOK, c)
}

func (f *Fake) getRoleConnection(w http.ResponseWriter, r *http.Request) {
	user, ok := f.bearerUser(w, r, "role_connections.write")
	if !ok {
		return
	}
	f.mu.Lock()
	c, linked := f.linked.connections[user]
	f.mu.Unlock()
	if !linked {
		c = discordgo.ApplicationRoleConnection{Metadata: map[string]string{}}
	}
	writeJSON(w, http.StatusOK, c)
}
