package commands

import (
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// DecodeOptions fills the struct dst points to from the request's options. Each field
// names its option with a tag, `option:"offer_draw"`; fields without a tag are left
// alone. Field types: string, bool, int, int64, float64, *discordgo.User (resolved
// from the interaction) and pointers to the scalar types, which stay nil when the
// option was not given. An option of the wrong type is an error (the payload does not
// fit the command's definition); options dst does not name are ignored.
func DecodeOptions(r *Request, dst any) error {
	v := reflect.ValueOf(dst)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("decode options into %T: want a pointer to a struct", dst)
	}
	v = v.Elem()
	t := v.Type()
	byName := make(map[string]*discordgo.ApplicationCommandInteractionDataOption, len(r.Options))
	for _, o := range r.Options {
		if o != nil {
			byName[o.Name] = o
		}
	}
	for i := 0; i < t.NumField(); i++ {
		name := t.Field(i).Tag.Get("option")
		if name == "" {
			continue
		}
		o, ok := byName[name]
		if !ok {
			continue
		}
		if err := setOption(v.Field(i), o, r.Resolved); err != nil {
			return fmt.Errorf("option %q: %w", name, err)
		}
	}
	return nil
}

var userType = reflect.TypeOf((*discordgo.User)(nil))

func setOption(f reflect.Value, o *discordgo.ApplicationCommandInteractionDataOption, res *discordgo.ApplicationCommandInteractionDataResolved) error {
	if f.Type() == userType {
		id, ok := o.Value.(string)
		if !ok || id == "" {
			return fmt.Errorf("user option value %v: want a user ID", o.Value)
		}
		if res != nil && res.Users[id] != nil {
			f.Set(reflect.ValueOf(res.Users[id]))
		} else {
			f.Set(reflect.ValueOf(&discordgo.User{ID: id}))
		}
		return nil
	}
	if f.Kind() == reflect.Pointer {
		elem := reflect.New(f.Type().Elem())
		if err := setScalarOption(elem.Elem(), o.Value); err != nil {
			return err
		}
		f.Set(elem)
		return nil
	}
	return setScalarOption(f, o.Value)
}

func setScalarOption(f reflect.Value, val any) error {
	switch f.Kind() {
	case reflect.String:
		switch x := val.(type) {
		case string:
			f.SetString(x)
		case float64:
			f.SetString(strconv.FormatFloat(x, 'f', -1, 64))
		default:
			return fmt.Errorf("value %v (%T): want a string", val, val)
		}
	case reflect.Bool:
		b, ok := val.(bool)
		if !ok {
			return fmt.Errorf("value %v (%T): want true or false", val, val)
		}
		f.SetBool(b)
	case reflect.Int, reflect.Int64:
		var n float64
		switch x := val.(type) {
		case float64:
			n = x
		case int64:
			n = float64(x)
		case int:
			n = float64(x)
		case string:
			p, err := strconv.ParseInt(x, 10, 64)
			if err != nil {
				return fmt.Errorf("value %q: want a whole number", x)
			}
			n = float64(p)
		default:
			return fmt.Errorf("value %v (%T): want a whole number", val, val)
		}
		if n != math.Trunc(n) || n > 1<<53 || n < -(1<<53) {
			return fmt.Errorf("value %v: want a whole number", n)
		}
		f.SetInt(int64(n))
	case reflect.Float64:
		x, ok := val.(float64)
		if !ok {
			return fmt.Errorf("value %v (%T): want a number", val, val)
		}
		f.SetFloat(x)
	default:
		return fmt.Errorf("unsupported field type %s", f.Type())
	}
	return nil
}
