package model

import (
	"reflect"

	"github.com/stratagate/stratagate/redact"
)

// Secrets never leave through a prompt: NewRequest renders a copy of the
// input whose strings went through redact.String. The copy is made only
// when some string holds a secret; the input itself (which a local
// heuristic model reads, and which may alias stored records) is never
// changed.

// needsRedaction reports whether any string reachable from v holds a
// secret.
func needsRedaction(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		return redact.Contains(v.String())
	case reflect.Pointer, reflect.Interface:
		return !v.IsNil() && needsRedaction(v.Elem())
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && needsRedaction(v.Field(i)) {
				return true
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if needsRedaction(v.Index(i)) {
				return true
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if needsRedaction(it.Key()) || needsRedaction(it.Value()) {
				return true
			}
		}
	}
	return false
}

// redacted returns a deep copy of v with every reachable string redacted.
// Unexported fields (a time.Time's) are copied as they are.
func redacted(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.String:
		out := reflect.New(v.Type()).Elem()
		out.SetString(redact.String(v.String()))
		return out
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type().Elem())
		out.Elem().Set(redacted(v.Elem()))
		return out
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(redacted(v.Elem()))
		return out
	case reflect.Struct:
		out := reflect.New(v.Type()).Elem()
		out.Set(v)
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				out.Field(i).Set(redacted(v.Field(i)))
			}
		}
		return out
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			out.Index(i).Set(redacted(v.Index(i)))
		}
		return out
	case reflect.Array:
		out := reflect.New(v.Type()).Elem()
		for i := range v.Len() {
			out.Index(i).Set(redacted(v.Index(i)))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeMapWithSize(v.Type(), v.Len())
		it := v.MapRange()
		for it.Next() {
			out.SetMapIndex(redacted(it.Key()), redacted(it.Value()))
		}
		return out
	}
	return v
}

// redactedInput returns input, or a redacted copy of it when it holds a
// secret.
func redactedInput(input any) any {
	v := reflect.ValueOf(input)
	if !v.IsValid() || !needsRedaction(v) {
		return input
	}
	return redacted(v).Interface()
}
