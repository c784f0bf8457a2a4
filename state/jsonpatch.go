package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
)

// JSON Patch (RFC 6902) on decoded JSON, for AG-UI's ACTIVITY_DELTA and
// STATE_DELTA. Small enough to write here rather than add a dependency to
// the wasm.

// patchOp is one JSON Patch operation.
type patchOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	From  string          `json:"from"`
	Value json.RawMessage `json:"value"`
}

var errPatch = errors.New("json patch does not apply")

// decodeJSON decodes a JSON value keeping numbers exact.
func decodeJSON(raw []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// applyJSONPatch applies the operations of patch to doc (a JSON value) and
// returns the new document. The patch applies whole or not at all.
func applyJSONPatch(doc, patch json.RawMessage) (json.RawMessage, error) {
	var ops []patchOp
	if err := json.Unmarshal(patch, &ops); err != nil {
		return nil, err
	}
	var root any
	if len(bytes.TrimSpace(doc)) > 0 {
		var err error
		if root, err = decodeJSON(doc); err != nil {
			return nil, err
		}
	}
	for _, op := range ops {
		var err error
		if root, err = applyOp(root, op); err != nil {
			return nil, err
		}
	}
	return json.Marshal(root)
}

func applyOp(root any, op patchOp) (any, error) {
	path, err := parsePointer(op.Path)
	if err != nil {
		return nil, err
	}
	switch op.Op {
	case "add", "replace", "test":
		if len(op.Value) == 0 {
			return nil, errPatch
		}
		v, err := decodeJSON(op.Value)
		if err != nil {
			return nil, err
		}
		switch op.Op {
		case "add":
			return addAt(root, path, v)
		case "replace":
			if _, err := getAt(root, path); err != nil {
				return nil, err
			}
			if root, _, err = removeAt(root, path); err != nil {
				return nil, err
			}
			return addAt(root, path, v)
		default:
			got, err := getAt(root, path)
			if err != nil || !reflect.DeepEqual(got, v) {
				return nil, errPatch
			}
			return root, nil
		}
	case "remove":
		root, _, err = removeAt(root, path)
		return root, err
	case "move", "copy":
		from, err := parsePointer(op.From)
		if err != nil {
			return nil, err
		}
		v, err := getAt(root, from)
		if err != nil {
			return nil, err
		}
		if op.Op == "move" {
			if strings.HasPrefix(op.Path+"/", op.From+"/") && op.Path != op.From {
				return nil, errPatch // into its own child
			}
			if root, _, err = removeAt(root, from); err != nil {
				return nil, err
			}
		} else {
			raw, _ := json.Marshal(v) // a deep copy
			v, _ = decodeJSON(raw)
		}
		return addAt(root, path, v)
	}
	return nil, errPatch
}

// parsePointer splits a JSON Pointer (RFC 6901) into its unescaped tokens.
func parsePointer(p string) ([]string, error) {
	if p == "" {
		return nil, nil
	}
	if p[0] != '/' {
		return nil, errPatch
	}
	toks := strings.Split(p[1:], "/")
	for i, t := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return toks, nil
}

func arrayIndex(tok string, n int, allowEnd bool) (int, error) {
	if allowEnd && tok == "-" {
		return n, nil
	}
	i, err := strconv.Atoi(tok)
	if err != nil || i < 0 || i > n || (i == n && !allowEnd) || (len(tok) > 1 && tok[0] == '0') {
		return 0, errPatch
	}
	return i, nil
}

func getAt(node any, path []string) (any, error) {
	for _, tok := range path {
		switch c := node.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return nil, errPatch
			}
			node = v
		case []any:
			i, err := arrayIndex(tok, len(c), false)
			if err != nil {
				return nil, err
			}
			node = c[i]
		default:
			return nil, errPatch
		}
	}
	return node, nil
}

// addAt adds v at path and returns the new root.
func addAt(node any, path []string, v any) (any, error) {
	if len(path) == 0 {
		return v, nil
	}
	tok, rest := path[0], path[1:]
	switch c := node.(type) {
	case map[string]any:
		if len(rest) == 0 {
			c[tok] = v
			return c, nil
		}
		child, ok := c[tok]
		if !ok {
			return nil, errPatch
		}
		nc, err := addAt(child, rest, v)
		if err != nil {
			return nil, err
		}
		c[tok] = nc
		return c, nil
	case []any:
		if len(rest) == 0 {
			i, err := arrayIndex(tok, len(c), true)
			if err != nil {
				return nil, err
			}
			c = append(c, nil)
			copy(c[i+1:], c[i:])
			c[i] = v
			return c, nil
		}
		i, err := arrayIndex(tok, len(c), false)
		if err != nil {
			return nil, err
		}
		nc, err := addAt(c[i], rest, v)
		if err != nil {
			return nil, err
		}
		c[i] = nc
		return c, nil
	}
	return nil, errPatch
}

// removeAt removes the value at path; it returns the new root and the
// removed value.
func removeAt(node any, path []string) (any, any, error) {
	if len(path) == 0 {
		return nil, node, nil
	}
	tok, rest := path[0], path[1:]
	switch c := node.(type) {
	case map[string]any:
		child, ok := c[tok]
		if !ok {
			return nil, nil, errPatch
		}
		if len(rest) == 0 {
			delete(c, tok)
			return c, child, nil
		}
		nc, old, err := removeAt(child, rest)
		if err != nil {
			return nil, nil, err
		}
		c[tok] = nc
		return c, old, nil
	case []any:
		i, err := arrayIndex(tok, len(c), false)
		if err != nil {
			return nil, nil, err
		}
		if len(rest) == 0 {
			old := c[i]
			return append(c[:i], c[i+1:]...), old, nil
		}
		nc, old, err := removeAt(c[i], rest)
		if err != nil {
			return nil, nil, err
		}
		c[i] = nc
		return c, old, nil
	}
	return nil, nil, errPatch
}
