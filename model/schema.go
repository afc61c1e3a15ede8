package model

import "encoding/json"

// A small JSON Schema builder for the reply schemas in prompt_text.go.
// Maps marshal with sorted keys, so a schema's bytes (and so its prompt
// id) are stable.

type schema = map[string]any

func str(maxLen int) schema { return schema{"type": "string", "maxLength": maxLen} }

func strMin(minLen, maxLen int) schema {
	return schema{"type": "string", "minLength": minLen, "maxLength": maxLen}
}

func enum(values ...string) schema { return schema{"type": "string", "enum": values} }

func pattern(p string) schema { return schema{"type": "string", "pattern": p} }

func ids(maxItems int) schema {
	return schema{"type": "array", "maxItems": maxItems, "items": schema{"type": "integer", "minimum": 1}}
}

func array(items schema, maxItems int) schema {
	return schema{"type": "array", "maxItems": maxItems, "items": items}
}

// object is a closed object: required lists the properties that must be
// present (the others may be omitted).
func object(props schema, required ...string) schema {
	if required == nil {
		required = []string{}
	}
	return schema{"type": "object", "properties": props, "required": required, "additionalProperties": false}
}

func mustJSON(s schema) []byte {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err) // a literal schema that does not marshal is a programming error
	}
	return b
}
