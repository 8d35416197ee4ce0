package discordfake

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

// formErrors collects "Invalid Form Body" problems by field path, as
// Discord reports them (error code 50035).
type formErrors struct {
	prefix string // prepended to every path, such as "data."
	byPath map[string][]string
	order  []string
}

func (e *formErrors) add(path, code, format string, args ...any) {
	path = e.prefix + path
	if e.byPath == nil {
		e.byPath = map[string][]string{}
	}
	if _, ok := e.byPath[path]; !ok {
		e.order = append(e.order, path)
	}
	e.byPath[path] = append(e.byPath[path], code+": "+fmt.Sprintf(format, args...))
}

func (e *formErrors) empty() bool { return len(e.order) == 0 }

// String lists the problems, one "path: code: message" per line.
func (e *formErrors) String() string {
	var b strings.Builder
	for _, p := range e.order {
		for _, m := range e.byPath[p] {
			fmt.Fprintf(&b, "%s: %s\n", p, m)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// tree nests the problems the way Discord does:
// {"content": {"_errors": [{"code": ..., "message": ...}]}}.
func (e *formErrors) tree() map[string]any {
	root := map[string]any{}
	paths := append([]string(nil), e.order...)
	sort.Strings(paths)
	for _, p := range paths {
		node := root
		for _, seg := range strings.Split(p, ".") {
			next, ok := node[seg].(map[string]any)
			if !ok {
				next = map[string]any{}
				node[seg] = next
			}
			node = next
		}
		var list []map[string]string
		for _, m := range e.byPath[p] {
			code, msg, _ := strings.Cut(m, ": ")
			list = append(list, map[string]string{"code": code, "message": msg})
		}
		node["_errors"] = list
	}
	return root
}

func runes(s string) int { return utf8.RuneCountInString(s) }

func checkLen(e *formErrors, path, s string, min, max int) {
	n := runes(s)
	switch {
	case n < min && min == 1 && n == 0:
		e.add(path, "BASE_TYPE_REQUIRED", "This field is required")
	case n < min:
		e.add(path, "BASE_TYPE_BAD_LENGTH", "Must be between %d and %d in length.", min, max)
	case n > max:
		e.add(path, "BASE_TYPE_MAX_LENGTH", "Must be %d or fewer in length.", max)
	}
}

// checkMessage checks a message body against Discord's limits.
func checkMessage(d *decoded, e *formErrors) {
	checkLen(e, "content", d.Content, 0, maxContentRunes)
	if len(d.files) > maxFiles {
		e.add("files", "BASE_TYPE_MAX_LENGTH", "Must be %d or fewer in length.", maxFiles)
	}
	for i, f := range d.files {
		if len(f.data) > maxFileBytes {
			e.add(fmt.Sprintf("files.%d", i), "BASE_TYPE_MAX_LENGTH", "File %q is %d bytes: files must be %d bytes or smaller.", f.filename, len(f.data), maxFileBytes)
		}
	}
	checkEmbeds(d.Embeds, e)
	v2 := d.Flags&discordgo.MessageFlagsIsComponentsV2 != 0
	if v2 {
		if n := countComponents(d.tree); n > maxComponentsV2 {
			e.add("components", "BASE_TYPE_MAX_LENGTH", "A message has %d components: at most %d, nested ones included.", n, maxComponentsV2)
		}
		if d.Content != "" {
			e.add("content", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2")
		}
		if len(d.Embeds) > 0 {
			e.add("embeds", "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2")
		}
	} else {
		checkRows(d.tree, e)
	}
	checkUniqueCustomIDs(d.customIDs, e)
	if am := d.AllowedMentions; am != nil {
		for i, p := range am.Parse {
			switch p {
			case discordgo.AllowedMentionTypeRoles, discordgo.AllowedMentionTypeUsers, discordgo.AllowedMentionTypeEveryone:
			default:
				e.add(fmt.Sprintf("allowed_mentions.parse.%d", i), "ENUM_TYPE_COERCE", "Value must be one of ('roles', 'users', 'everyone').")
			}
			if p == discordgo.AllowedMentionTypeUsers && len(am.Users) > 0 {
				e.add("allowed_mentions", "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE", "parse:[\"users\"] and users: [ids...] are mutually exclusive.")
			}
			if p == discordgo.AllowedMentionTypeRoles && len(am.Roles) > 0 {
				e.add("allowed_mentions", "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE", "parse:[\"roles\"] and roles: [ids...] are mutually exclusive.")
			}
		}
		if len(am.Users) > 100 {
			e.add("allowed_mentions.users", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.")
		}
	}
}

func checkEmbeds(embeds []*discordgo.MessageEmbed, e *formErrors) {
	if len(embeds) > maxEmbeds {
		e.add("embeds", "BASE_TYPE_MAX_LENGTH", "Must be %d or fewer in length.", maxEmbeds)
	}
	total := 0
	for i, em := range embeds {
		if em == nil {
			e.add(fmt.Sprintf("embeds.%d", i), "BASE_TYPE_REQUIRED", "This field is required")
			continue
		}
		p := fmt.Sprintf("embeds.%d.", i)
		checkLen(e, p+"title", em.Title, 0, 256)
		checkLen(e, p+"description", em.Description, 0, 4096)
		total += runes(em.Title) + runes(em.Description)
		if em.Footer != nil {
			checkLen(e, p+"footer.text", em.Footer.Text, 0, 2048)
			total += runes(em.Footer.Text)
		}
		if em.Author != nil {
			checkLen(e, p+"author.name", em.Author.Name, 0, 256)
			total += runes(em.Author.Name)
		}
		if len(em.Fields) > 25 {
			e.add(p+"fields", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
		}
		for j, fl := range em.Fields {
			if fl == nil {
				continue
			}
			checkLen(e, fmt.Sprintf("%sfields.%d.name", p, j), fl.Name, 1, 256)
			checkLen(e, fmt.Sprintf("%sfields.%d.value", p, j), fl.Value, 1, 1024)
			total += runes(fl.Name) + runes(fl.Value)
		}
	}
	if total > maxEmbedTotal {
		e.add("embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of %d", maxEmbedTotal)
	}
}

func isSelect(t discordgo.ComponentType) bool {
	switch t {
	case discordgo.SelectMenuComponent, discordgo.UserSelectMenuComponent, discordgo.RoleSelectMenuComponent,
		discordgo.MentionableSelectMenuComponent, discordgo.ChannelSelectMenuComponent:
		return true
	}
	return false
}

// checkRows checks the classic layout: up to 5 action rows, each holding up
// to 5 buttons or exactly one select menu.
func checkRows(rows []wireComponent, e *formErrors) {
	if len(rows) > maxActionRows {
		e.add("components", "BASE_TYPE_MAX_LENGTH", "Must be %d or fewer in length.", maxActionRows)
	}
	for i, row := range rows {
		p := fmt.Sprintf("components.%d", i)
		if row.Type != discordgo.ActionsRowComponent {
			e.add(p+".type", "UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (1,). Components other than action rows need the IS_COMPONENTS_V2 flag.")
			continue
		}
		if len(row.Components) == 0 {
			e.add(p+".components", "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
		}
		buttons, selects := 0, 0
		for j, c := range row.Components {
			cp := fmt.Sprintf("%s.components.%d", p, j)
			switch {
			case c.Type == discordgo.ButtonComponent:
				buttons++
				checkButton(c, cp, e)
			case isSelect(c.Type):
				selects++
				checkSelect(c, cp, e)
			default:
				e.add(cp+".type", "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "Component type %d is not allowed in an action row of a message.", c.Type)
			}
		}
		if buttons > maxRowButtons {
			e.add(p+".components", "BASE_TYPE_MAX_LENGTH", "Must be %d or fewer in length.", maxRowButtons)
		}
		if selects > 0 && len(row.Components) > 1 {
			e.add(p+".components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "The specified component exceeds the maximum width")
		}
	}
}

func checkButton(c wireComponent, p string, e *formErrors) {
	switch discordgo.ButtonStyle(c.Style) {
	case discordgo.LinkButton:
		if c.URL == "" {
			e.add(p+".url", "BUTTON_COMPONENT_URL_REQUIRED", "A url is required")
		}
		if c.CustomID != "" {
			e.add(p+".custom_id", "BUTTON_COMPONENT_CUSTOM_ID_INVALID", "A custom id cannot be used with a link button")
		}
	case discordgo.PremiumButton:
		if c.SKUID == "" {
			e.add(p+".sku_id", "BASE_TYPE_REQUIRED", "This field is required")
		}
	case discordgo.PrimaryButton, discordgo.SecondaryButton, discordgo.SuccessButton, discordgo.DangerButton:
		checkLen(e, p+".custom_id", c.CustomID, 1, maxCustomID)
		if c.URL != "" {
			e.add(p+".url", "BUTTON_COMPONENT_URL_INVALID", "A url can only be used with a link button")
		}
	default:
		e.add(p+".style", "ENUM_TYPE_COERCE", "Value %d is not a valid button style.", c.Style)
	}
	if discordgo.ButtonStyle(c.Style) != discordgo.PremiumButton {
		if c.Label == "" && (len(c.Emoji) == 0 || string(c.Emoji) == "null") {
			e.add(p, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A button needs a label or an emoji")
		}
		checkLen(e, p+".label", c.Label, 0, 80)
	}
}

func checkSelect(c wireComponent, p string, e *formErrors) {
	checkLen(e, p+".custom_id", c.CustomID, 1, maxCustomID)
	checkLen(e, p+".placeholder", c.Placeholder, 0, 150)
	lo, hi := 1, 1
	if c.MinValues != nil {
		lo = *c.MinValues
	}
	if c.MaxValues != nil {
		hi = *c.MaxValues
	}
	if lo < 0 || lo > 25 {
		e.add(p+".min_values", "NUMBER_TYPE_MAX", "Must be between 0 and 25.")
	}
	if hi < 1 || hi > 25 {
		e.add(p+".max_values", "NUMBER_TYPE_MAX", "Must be between 1 and 25.")
	}
	if lo > hi {
		e.add(p+".min_values", "SELECT_COMPONENT_MIN_VALUES_TOO_LARGE", "min_values must be less than or equal to max_values")
	}
	if c.Type != discordgo.SelectMenuComponent {
		return
	}
	if len(c.Options) == 0 || len(c.Options) > maxSelectOptions {
		e.add(p+".options", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and %d in length.", maxSelectOptions)
	}
	if hi > len(c.Options) && len(c.Options) > 0 {
		e.add(p+".max_values", "SELECT_COMPONENT_MAX_VALUES_TOO_LARGE", "max_values must be less than or equal to the number of options")
	}
	seen := map[string]bool{}
	for k, o := range c.Options {
		op := fmt.Sprintf("%s.options.%d", p, k)
		checkLen(e, op+".label", o.Label, 1, 100)
		checkLen(e, op+".value", o.Value, 1, 100)
		checkLen(e, op+".description", o.Description, 0, 100)
		if seen[o.Value] {
			e.add(op+".value", "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "The specified option value is already used")
		}
		seen[o.Value] = true
	}
}

func checkUniqueCustomIDs(ids []string, e *formErrors) {
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			e.add("components", "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id %q is duplicated", id)
		}
		seen[id] = true
	}
}

// checkModal checks a modal callback: a title, a custom ID and one to five
// action rows each holding one text input.
func checkModal(d *decoded, e *formErrors) {
	checkLen(e, "custom_id", d.CustomID, 1, maxCustomID)
	checkLen(e, "title", d.Title, 1, maxModalTitle)
	if len(d.tree) == 0 || len(d.tree) > maxActionRows {
		e.add("components", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and %d in length.", maxActionRows)
	}
	for i, row := range d.tree {
		p := fmt.Sprintf("components.%d", i)
		if row.Type != discordgo.ActionsRowComponent || len(row.Components) != 1 || row.Components[0].Type != discordgo.TextInputComponent {
			e.add(p, "MODAL_ROW_INVALID", "A modal row must be an action row holding one text input")
			continue
		}
		in := row.Components[0]
		ip := p + ".components.0"
		checkLen(e, ip+".custom_id", in.CustomID, 1, maxCustomID)
		checkLen(e, ip+".label", in.Label, 1, maxTextInputLabel)
		checkLen(e, ip+".value", in.Value, 0, 4000)
		checkLen(e, ip+".placeholder", in.Placeholder, 0, 100)
		if in.Style != int(discordgo.TextInputShort) && in.Style != int(discordgo.TextInputParagraph) {
			e.add(ip+".style", "ENUM_TYPE_COERCE", "Value %d is not a valid text input style.", in.Style)
		}
		if in.MaxLength != nil && (*in.MaxLength < 1 || *in.MaxLength > 4000) {
			e.add(ip+".max_length", "NUMBER_TYPE_MAX", "Must be between 1 and 4000.")
		}
		if in.MinLength != nil && (*in.MinLength < 0 || *in.MinLength > 4000) {
			e.add(ip+".min_length", "NUMBER_TYPE_MAX", "Must be between 0 and 4000.")
		}
	}
	checkUniqueCustomIDs(d.customIDs, e)
}

// checkChoices checks an autocomplete answer.
func checkChoices(d *decoded, e *formErrors) {
	if len(d.Choices) > maxChoices {
		e.add("choices", "BASE_TYPE_MAX_LENGTH", "Must be %d or fewer in length.", maxChoices)
	}
	for i, c := range d.Choices {
		p := fmt.Sprintf("choices.%d", i)
		if c == nil {
			e.add(p, "BASE_TYPE_REQUIRED", "This field is required")
			continue
		}
		checkLen(e, p+".name", c.Name, 1, 100)
		if s, ok := c.Value.(string); ok {
			checkLen(e, p+".value", s, 0, 100)
		}
	}
}
