package results

import (
	"encoding/json"
	"errors"
	"simctl/sim/msg"
)

// jsonProblem says what is wrong with a JSON document in the user's terms:
// encoding/json's messages name Go types ("cannot unmarshal string into Go
// struct field Result.sides of type results.SideResult"), which mean
// nothing to someone holding a file.
func jsonProblem(err error) msg.Text {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return msg.New("not valid JSON (byte %d: %v)", syn.Offset, syn)
	case errors.As(err, &typ) && typ.Field != "":
		return msg.New("its field %q holds a JSON %s where simctl writes %s", typ.Field, typ.Value, jsonKind(typ.Type.Kind().String()))
	case errors.As(err, &typ):
		return msg.New("it is a JSON %s, not an object", typ.Value)
	}
	return msg.New("not valid JSON")
}

// jsonKind names a Go kind as the JSON value it decodes from.
func jsonKind(k string) msg.Text {
	switch k {
	case "struct", "map":
		return msg.New("an object")
	case "slice", "array":
		return msg.New("a list")
	case "string":
		return msg.New("a string")
	case "bool":
		return msg.New("true or false")
	}
	return msg.New("a number")
}
