package main

import (
	"fmt"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// inputSchema infers the input schema of In and makes it portable and
// tolerant: every slice is a plain "array" (the inference's ["null","array"]
// is refused by single-type clients), objects accept extra properties (the
// handler itself refuses unknown names after mapping aliases, with a message
// saying the right one), and only the listed fields are required (a field
// with an alias cannot be required, or the alias would never get through a
// validating client).
func inputSchema[In any](required ...string) *jsonschema.Schema {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("schema of %T: %v", *new(In), err))
	}
	fixSchema(s, true)
	s.Required = required
	return s
}

// outputSchema infers the output schema of Out with every slice a plain
// "array". Output slice fields are omitempty, so a nil slice is absent
// rather than null.
func outputSchema[Out any]() *jsonschema.Schema {
	s, err := jsonschema.For[Out](nil)
	if err != nil {
		panic(fmt.Sprintf("schema of %T: %v", *new(Out), err))
	}
	fixSchema(s, false)
	return s
}

// fixSchema rewrites type lists ["null", T] to T throughout s; for an
// input schema it also drops additionalProperties:false and the inferred
// required lists of nested objects.
func fixSchema(s *jsonschema.Schema, input bool) {
	if s == nil {
		return
	}
	if len(s.Types) > 0 {
		types := slices.DeleteFunc(slices.Clone(s.Types), func(t string) bool { return t == "null" })
		if len(types) == 1 {
			s.Type, s.Types = types[0], nil
		} else {
			s.Types = types
		}
	}
	if input && s.Type == "object" {
		s.AdditionalProperties = nil
		s.Required = nil
	}
	for _, p := range s.Properties {
		fixSchema(p, input)
	}
	fixSchema(s.Items, input)
	fixSchema(s.AdditionalProperties, input)
}
