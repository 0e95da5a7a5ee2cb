package results

import (
	"encoding/json"
	"errors"
	"fmt"
)

// jsonProblem says what is wrong with a JSON document in the user's terms:
// encoding/json's messages name Go types ("cannot unmarshal string into Go
// struct field Result.sides of type results.SideResult"), which mean
// nothing to someone holding a file.
func jsonProblem(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("not valid JSON (byte %d: %v)", syn.Offset, syn)
	case errors.As(err, &typ) && typ.Field != "":
		return fmt.Sprintf("its field %q holds a JSON %s where simctl writes %s", typ.Field, typ.Value, jsonKind(typ.Type.Kind().String()))
	case errors.As(err, &typ):
		return fmt.Sprintf("it is a JSON %s, not an object", typ.Value)
	}
	return "not valid JSON"
}

// jsonKind names a Go kind as the JSON value it decodes from.
func jsonKind(k string) string {
	switch k {
	case "struct", "map":
		return "an object"
	case "slice", "array":
		return "a list"
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	}
	return "a number"
}
