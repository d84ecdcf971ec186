// Package openapisub cuts from Discord's OpenAPI document (openapi.json)
// the part the fake Discord validates request bodies against: the request
// body schemas of Routes and everything they reference, at the same JSON
// pointers as in the whole document, so one compiler reads either.
package openapisub

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Routes are the operations whose request bodies the fake checks: the
// routes it serves that take a JSON body, as "METHOD /path" of
// openapi.json.
var Routes = []string{
	"POST /interactions/{interaction_id}/{interaction_token}/callback",
	"POST /webhooks/{webhook_id}/{webhook_token}",
	"PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original",
	"PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
	"POST /channels/{channel_id}/messages",
	"PATCH /channels/{channel_id}/messages/{message_id}",
	"PUT /applications/{application_id}/commands",
	"PUT /applications/{application_id}/guilds/{guild_id}/commands",
	"POST /channels/{channel_id}/threads",
	"POST /channels/{channel_id}/messages/{message_id}/threads",
	"POST /users/@me/channels",
}

// BodyPointer is the JSON pointer of route's request body schema.
func BodyPointer(route string) string {
	method, path, _ := strings.Cut(route, " ")
	return "/paths/" + escape(path) + "/" + strings.ToLower(method) +
		"/requestBody/content/" + escape("application/json") + "/schema"
}

func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func unescape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}

// Subset reads the whole document spec and returns the part of it Routes
// need (see the package doc), as indented JSON with sorted keys: the same
// spec gives the same bytes.
func Subset(spec []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(spec))
	dec.UseNumber() // numbers as written
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("openapisub: parsing the spec: %w", err)
	}
	out := map[string]any{"openapi": doc["openapi"]}
	if info, ok := doc["info"].(map[string]any); ok {
		out["info"] = map[string]any{"title": info["title"], "version": info["version"]}
	}
	todo := make([]string, 0, len(Routes))
	for _, r := range Routes {
		todo = append(todo, BodyPointer(r))
	}
	done := map[string]bool{}
	for len(todo) > 0 {
		ptr := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if done[ptr] {
			continue
		}
		done[ptr] = true
		v, err := lookup(doc, ptr)
		if err != nil {
			return nil, err
		}
		if err := place(out, ptr, v); err != nil {
			return nil, err
		}
		for _, ref := range refs(v, nil) {
			p, ok := strings.CutPrefix(ref, "#")
			if !ok {
				return nil, fmt.Errorf("openapisub: %s refers outside the document: %s", ptr, ref)
			}
			todo = append(todo, p)
		}
	}
	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		return nil, fmt.Errorf("openapisub: writing the subset: %w", err)
	}
	return append(b, '\n'), nil
}

// lookup is the value at JSON pointer ptr of doc.
func lookup(doc any, ptr string) (any, error) {
	v := doc
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("openapisub: %s: %q is not an object's member", ptr, tok)
		}
		if v, ok = m[unescape(tok)]; !ok {
			return nil, fmt.Errorf("openapisub: the spec has no %s", ptr)
		}
	}
	return v, nil
}

// place puts v at ptr in out, making the objects on the way.
func place(out map[string]any, ptr string, v any) error {
	toks := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	m := out
	for _, tok := range toks[:len(toks)-1] {
		k := unescape(tok)
		next, ok := m[k].(map[string]any)
		if !ok {
			if m[k] != nil {
				return fmt.Errorf("openapisub: %s is inside a value already copied", ptr)
			}
			next = map[string]any{}
			m[k] = next
		}
		m = next
	}
	m[unescape(toks[len(toks)-1])] = v
	return nil
}

// refs appends the "$ref" values found in v, in a fixed order.
func refs(v any, acc []string) []string {
	switch x := v.(type) {
	case map[string]any:
		if r, ok := x["$ref"].(string); ok {
			acc = append(acc, r)
		}
		for _, k := range slices.Sorted(maps.Keys(x)) {
			acc = refs(x[k], acc)
		}
	case []any:
		for _, e := range x {
			acc = refs(e, acc)
		}
	}
	return acc
}

// FindSpec looks for shared/discord-api-spec/openapi.json in the working
// directory and its parents and returns its path, or "" if there is none.
// The environment variable DISCORDTEST_OPENAPI overrides the search.
func FindSpec() string {
	if p := os.Getenv("DISCORDTEST_OPENAPI"); p != "" {
		return p
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(dir, "shared", "discord-api-spec", "openapi.json")
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
