package openaitest

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
)

// Validate reports whether v (a value decoded by encoding/json) satisfies
// the JSON schema s, for the keywords OpenAI's structured outputs and tool
// parameters use: type (a name or a list of names), enum, const,
// properties, required, additionalProperties (false or a schema), items,
// anyOf, minItems and maxItems. Unknown keywords are ignored. The error
// names the first place that fails, as a JSON path ("$.terms[0].word").
func Validate(s map[string]any, v any) error { return validate(s, v, "$") }

func validate(s map[string]any, v any, at string) error {
	if s == nil {
		return nil
	}
	if alts, ok := s["anyOf"].([]any); ok {
		var first error
		for _, a := range alts {
			as, _ := a.(map[string]any)
			err := validate(as, v, at)
			if err == nil {
				return nil
			}
			if first == nil {
				first = err
			}
		}
		return fmt.Errorf("%s matches no schema of anyOf (first: %w)", at, first)
	}
	if t, ok := s["type"]; ok {
		var names []string
		switch tt := t.(type) {
		case string:
			names = []string{tt}
		case []any:
			for _, n := range tt {
				if str, ok := n.(string); ok {
					names = append(names, str)
				}
			}
		case []string:
			names = tt
		}
		if !slices.ContainsFunc(names, func(n string) bool { return isType(n, v) }) {
			return fmt.Errorf("%s is %s, want %v", at, typeName(v), names)
		}
	}
	if e, ok := s["enum"]; ok {
		if !slices.ContainsFunc(list(e), func(x any) bool { return equal(x, v) }) {
			return fmt.Errorf("%s = %v is not one of the enum %v", at, v, list(e))
		}
	}
	if c, ok := s["const"]; ok && !equal(c, v) {
		return fmt.Errorf("%s = %v, want the const %v", at, v, c)
	}
	switch vv := v.(type) {
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		for _, r := range list(s["required"]) {
			name, _ := r.(string)
			if _, ok := vv[name]; !ok {
				return fmt.Errorf("%s lacks the required property %q", at, name)
			}
		}
		keys := make([]string, 0, len(vv))
		for k := range vv {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if ps, ok := props[k].(map[string]any); ok {
				if err := validate(ps, vv[k], at+"."+k); err != nil {
					return err
				}
				continue
			}
			switch ap := s["additionalProperties"].(type) {
			case bool:
				if !ap {
					return fmt.Errorf("%s has the property %q, which the schema does not allow", at, k)
				}
			case map[string]any:
				if err := validate(ap, vv[k], at+"."+k); err != nil {
					return err
				}
			}
		}
	case []any:
		if n, ok := number(s["minItems"]); ok && float64(len(vv)) < n {
			return fmt.Errorf("%s has %d items, fewer than minItems %g", at, len(vv), n)
		}
		if n, ok := number(s["maxItems"]); ok && float64(len(vv)) > n {
			return fmt.Errorf("%s has %d items, more than maxItems %g", at, len(vv), n)
		}
		if items, ok := s["items"].(map[string]any); ok {
			for i, x := range vv {
				if err := validate(items, x, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// list returns a schema keyword's array, whether it came from JSON ([]any)
// or from Go ([]string).
func list(x any) []any {
	switch xx := x.(type) {
	case []any:
		return xx
	case []string:
		out := make([]any, len(xx))
		for i, s := range xx {
			out[i] = s
		}
		return out
	}
	return nil
}

func number(x any) (float64, bool) {
	switch n := x.(type) {
	case float64:
		return n, true
	case int:
		return float64(n), true
	}
	return 0, false
}

func isType(name string, v any) bool {
	switch name {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "number":
		_, ok := v.(float64)
		return ok
	case "integer":
		f, ok := v.(float64)
		return ok && f == math.Trunc(f)
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "null":
		return v == nil
	}
	return false
}

func typeName(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

func equal(a, b any) bool {
	if n, ok := number(a); ok {
		m, ok := number(b)
		return ok && n == m
	}
	return reflect.DeepEqual(a, b)
}
