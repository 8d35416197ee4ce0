package discordfake

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	_ "image/gif"  // attachment sizes for GIFs
	_ "image/jpeg" // attachment sizes for JPEGs
	_ "image/png"  // attachment sizes for PNGs
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"

	"github.com/bwmarrin/discordgo"
)

// Limits Discord applies to what a bot sends.
const (
	maxBodyBytes = 32 << 20
	maxFiles     = 10
	// maxFileBytes is the size of one attachment a bot may upload (10 MiB).
	maxFileBytes = 10 << 20
	// maxComponentsV2 is the number of components, nested ones included, of a
	// Components V2 message.
	maxComponentsV2   = 40
	maxContentRunes   = 2000
	maxEmbeds         = 10
	maxEmbedTotal     = 6000
	maxActionRows     = 5
	maxRowButtons     = 5
	maxCustomID       = 100
	maxChoices        = 25
	maxSelectOptions  = 25
	maxModalTitle     = 45
	maxTextInputLabel = 45
)

// Payload is a message-like body the bot sent: an interaction callback's
// data, a followup, a channel message or an edit. Slices are shared with the
// fake's records: read them, do not modify them.
type Payload struct {
	Content         string
	TTS             bool
	Flags           discordgo.MessageFlags
	Embeds          []*discordgo.MessageEmbed
	Components      []discordgo.MessageComponent
	AllowedMentions *discordgo.MessageAllowedMentions
	Reference       *discordgo.MessageReference
	// Attachments are the files of the message, with their bytes.
	Attachments []Attachment
	// Choices answers an autocomplete interaction.
	Choices []*discordgo.ApplicationCommandOptionChoice
	// CustomID and Title belong to a modal.
	CustomID, Title string
	// JSON is the JSON body (or payload_json part) exactly as sent.
	JSON json.RawMessage

	customIDs []string
	tree      []wireComponent
}

// Attachment is one file the bot uploaded.
type Attachment struct {
	ID          string
	Filename    string
	ContentType string
	Description string
	Data        []byte
	// URL serves Data from the fake.
	URL string
	// Width and Height are set for PNG, GIF and JPEG images.
	Width, Height int
}

// Ephemeral reports whether the ephemeral flag (64) is set.
func (p Payload) Ephemeral() bool { return p.Flags&discordgo.MessageFlagsEphemeral != 0 }

// CustomIDs returns the custom IDs of every component, in order.
func (p Payload) CustomIDs() []string { return append([]string(nil), p.customIDs...) }

// HasCustomID reports whether a component carries id.
func (p Payload) HasCustomID(id string) bool {
	for _, c := range p.customIDs {
		if c == id {
			return true
		}
	}
	return false
}

// File returns the attachment with the given file name.
func (p Payload) File(name string) (Attachment, bool) {
	for _, a := range p.Attachments {
		if a.Filename == name {
			return a, true
		}
	}
	return Attachment{}, false
}

// upload is one file part of a multipart body.
type upload struct {
	index       int
	filename    string
	contentType string
	data        []byte
}

// readBody returns the JSON of a request (the body, or the payload_json part
// of a multipart body) and the uploaded files.
func readBody(r *http.Request) (json.RawMessage, []upload, error) {
	body := http.MaxBytesReader(nil, r.Body, maxBodyBytes)
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		raw, err := io.ReadAll(body)
		if err != nil {
			return nil, nil, fmt.Errorf("read body: %w", err)
		}
		if len(bytes.TrimSpace(raw)) != 0 {
			return nil, nil, errors.New("body without a Content-Type")
		}
		return nil, nil, nil
	}
	mt, params, err := mime.ParseMediaType(ct)
	if err != nil {
		return nil, nil, fmt.Errorf("parse Content-Type %q: %w", ct, err)
	}
	switch mt {
	case "application/json":
		raw, err := io.ReadAll(body)
		if err != nil {
			return nil, nil, fmt.Errorf("read body: %w", err)
		}
		return raw, nil, nil
	case "multipart/form-data":
		return readMultipart(multipart.NewReader(body, params["boundary"]))
	default:
		return nil, nil, fmt.Errorf("unsupported Content-Type %q", mt)
	}
}

func readMultipart(mr *multipart.Reader) (json.RawMessage, []upload, error) {
	var payload json.RawMessage
	var files []upload
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("read multipart body: %w", err)
		}
		data, err := io.ReadAll(part)
		if err != nil {
			return nil, nil, fmt.Errorf("read part %q: %w", part.FormName(), err)
		}
		name := part.FormName()
		switch {
		case name == "payload_json":
			payload = data
		case strings.HasPrefix(name, "files[") && strings.HasSuffix(name, "]"):
			idx, err := strconv.Atoi(name[len("files[") : len(name)-1])
			if err != nil || idx < 0 {
				return nil, nil, fmt.Errorf("part %q: bad file index", name)
			}
			files = append(files, upload{idx, part.FileName(), part.Header.Get("Content-Type"), data})
		case part.FileName() != "":
			// Older clients name the part "file" or "fileN".
			files = append(files, upload{len(files), part.FileName(), part.Header.Get("Content-Type"), data})
		default:
			return nil, nil, fmt.Errorf("unexpected form field %q", name)
		}
	}
	if len(files) > maxFiles {
		return nil, nil, fmt.Errorf("%d files: at most %d", len(files), maxFiles)
	}
	return payload, files, nil
}

// attachmentRef is an entry of a payload's attachments array: a new file
// (id = its index) or an existing attachment to keep (id = snowflake).
type attachmentRef struct {
	ID          json.RawMessage `json:"id"`
	Filename    string          `json:"filename"`
	Description string          `json:"description"`
}

func (a attachmentRef) id() string { return strings.Trim(string(a.ID), `"`) }

// wirePayload is the JSON shape of a Payload. Pointers tell present fields
// from absent ones, which matters for edits.
type wirePayload struct {
	Content         *string                                     `json:"content"`
	TTS             bool                                        `json:"tts"`
	Flags           *discordgo.MessageFlags                     `json:"flags"`
	Embeds          *[]*discordgo.MessageEmbed                  `json:"embeds"`
	Components      *[]json.RawMessage                          `json:"components"`
	AllowedMentions *discordgo.MessageAllowedMentions           `json:"allowed_mentions"`
	Reference       *discordgo.MessageReference                 `json:"message_reference"`
	Attachments     *[]attachmentRef                            `json:"attachments"`
	Choices         []*discordgo.ApplicationCommandOptionChoice `json:"choices"`
	CustomID        string                                      `json:"custom_id"`
	Title           string                                      `json:"title"`
	StickerIDs      []string                                    `json:"sticker_ids"`
	Poll            json.RawMessage                             `json:"poll"`
}

// decoded is a payload together with what was present in it.
type decoded struct {
	Payload
	wire   wirePayload
	files  []upload
	hasAny bool // content, embeds, components, files, stickers or poll
}

// decodePayload decodes a message-like JSON body. raw may be empty when the
// body only carries files.
func decodePayload(raw json.RawMessage, files []upload) (*decoded, error) {
	d := &decoded{files: files}
	d.JSON = raw
	if len(bytes.TrimSpace(raw)) != 0 {
		dec := json.NewDecoder(bytes.NewReader(raw))
		if err := dec.Decode(&d.wire); err != nil {
			return nil, fmt.Errorf("decode payload: %w", err)
		}
	}
	w := &d.wire
	if w.Content != nil {
		d.Content = *w.Content
	}
	d.TTS = w.TTS
	if w.Flags != nil {
		d.Flags = *w.Flags
	}
	if w.Embeds != nil {
		d.Embeds = *w.Embeds
	}
	d.AllowedMentions = w.AllowedMentions
	d.Reference = w.Reference
	d.Choices = w.Choices
	d.CustomID, d.Title = w.CustomID, w.Title
	if w.Components != nil {
		for i, c := range *w.Components {
			mc, err := discordgo.MessageComponentFromJSON(c)
			if err != nil {
				return nil, fmt.Errorf("decode component %d: %w", i, err)
			}
			d.Components = append(d.Components, mc)
			var wc wireComponent
			if err := json.Unmarshal(c, &wc); err != nil {
				return nil, fmt.Errorf("decode component %d: %w", i, err)
			}
			d.tree = append(d.tree, wc)
		}
		d.customIDs = collectCustomIDs(d.tree, nil)
	}
	d.hasAny = d.Content != "" || len(d.Embeds) > 0 || len(d.Components) > 0 || len(files) > 0 ||
		len(w.StickerIDs) > 0 || (len(w.Poll) > 0 && string(w.Poll) != "null")
	return d, nil
}

// newAttachments turns the uploaded files into attachments with fresh IDs,
// taking descriptions from the attachments array.
func (f *Fake) newAttachments(d *decoded, channelID string) []Attachment {
	var out []Attachment
	for _, u := range d.files {
		a := Attachment{ID: f.ids.next(), Filename: u.filename, ContentType: u.contentType, Data: u.data}
		if a.ContentType == "" || a.ContentType == "application/octet-stream" {
			a.ContentType = http.DetectContentType(u.data)
		}
		if d.wire.Attachments != nil {
			for _, ref := range *d.wire.Attachments {
				if ref.id() == strconv.Itoa(u.index) {
					a.Description = ref.Description
					if ref.Filename != "" {
						a.Filename = ref.Filename
					}
				}
			}
		}
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(u.data)); err == nil {
			a.Width, a.Height = cfg.Width, cfg.Height
		}
		a.URL = fmt.Sprintf("%s/attachments/%s/%s/%s", f.srv.URL, channelID, a.ID, a.Filename)
		out = append(out, a)
	}
	return out
}

// wireComponent is the JSON shape of any component, enough to check layout.
type wireComponent struct {
	Type        discordgo.ComponentType `json:"type"`
	CustomID    string                  `json:"custom_id"`
	Style       int                     `json:"style"`
	Label       string                  `json:"label"`
	URL         string                  `json:"url"`
	SKUID       string                  `json:"sku_id"`
	Emoji       json.RawMessage         `json:"emoji"`
	Placeholder string                  `json:"placeholder"`
	MinValues   *int                    `json:"min_values"`
	MaxValues   *int                    `json:"max_values"`
	MinLength   *int                    `json:"min_length"`
	MaxLength   *int                    `json:"max_length"`
	Value       string                  `json:"value"`
	Disabled    bool                    `json:"disabled"`
	Options     []selectOption          `json:"options"`
	Components  []wireComponent         `json:"components"`
	Accessory   *wireComponent          `json:"accessory"`
}

// selectOption is one option of a string select menu.
type selectOption struct {
	Label       string `json:"label"`
	Value       string `json:"value"`
	Description string `json:"description"`
}

// countComponents counts components and every component nested in them.
func countComponents(cs []wireComponent) int {
	n := 0
	for _, c := range cs {
		n += 1 + countComponents(c.Components)
		if c.Accessory != nil {
			n += countComponents([]wireComponent{*c.Accessory})
		}
	}
	return n
}

func collectCustomIDs(cs []wireComponent, out []string) []string {
	for _, c := range cs {
		if c.CustomID != "" {
			out = append(out, c.CustomID)
		}
		out = collectCustomIDs(c.Components, out)
		if c.Accessory != nil {
			out = collectCustomIDs([]wireComponent{*c.Accessory}, out)
		}
	}
	return out
}

// findComponent returns the component with a custom ID.
func findComponent(cs []wireComponent, id string) *wireComponent {
	for i := range cs {
		c := &cs[i]
		if c.CustomID == id {
			return c
		}
		if found := findComponent(c.Components, id); found != nil {
			return found
		}
		if c.Accessory != nil {
			if found := findComponent([]wireComponent{*c.Accessory}, id); found != nil {
				return found
			}
		}
	}
	return nil
}
