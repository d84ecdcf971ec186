package discordtest

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// specRoutes are the operations whose request bodies are checked: the
// routes the fake serves that take a body, as "METHOD /path" of openapi.json.
var specRoutes = []string{
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

// spec holds the compiled request-body schemas of openapi.json.
type spec struct {
	schemas     map[string]*jsonschema.Schema
	compileTime time.Duration
}

var specCache struct {
	sync.Mutex
	m map[string]*specEntry
}

type specEntry struct {
	once sync.Once
	sp   *spec
	err  error
}

// loadSpec compiles the schemas of specRoutes from the openapi.json at path,
// once per process and path.
func loadSpec(path string) (*spec, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("discordtest: spec path: %w", err)
	}
	specCache.Lock()
	if specCache.m == nil {
		specCache.m = map[string]*specEntry{}
	}
	e := specCache.m[abs]
	if e == nil {
		e = &specEntry{}
		specCache.m[abs] = e
	}
	specCache.Unlock()
	e.once.Do(func() { e.sp, e.err = compileSpec(abs) })
	return e.sp, e.err
}

func pointerEscape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func compileSpec(path string) (*spec, error) {
	start := time.Now()
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("discordtest: reading spec: %w", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("discordtest: parsing %s: %w", path, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	const docURL = "file:///discord/openapi.json"
	if err := c.AddResource(docURL, doc); err != nil {
		return nil, fmt.Errorf("discordtest: adding spec: %w", err)
	}
	sp := &spec{schemas: map[string]*jsonschema.Schema{}}
	for _, r := range specRoutes {
		method, p, _ := strings.Cut(r, " ")
		ptr := "/paths/" + pointerEscape(p) + "/" + strings.ToLower(method) +
			"/requestBody/content/" + pointerEscape("application/json") + "/schema"
		u := (&url.URL{Scheme: "file", Path: "/discord/openapi.json", Fragment: ptr}).String()
		sch, err := c.Compile(u)
		if err != nil {
			return nil, fmt.Errorf("discordtest: compiling schema of %s: %w", r, err)
		}
		sp.schemas[r] = sch
	}
	sp.compileTime = time.Since(start)
	return sp, nil
}

// validate checks a JSON body against the schema of route ("METHOD /path").
// Routes without a schema always pass.
func (sp *spec) validate(route string, body []byte) error {
	sch := sp.schemas[route]
	if sch == nil {
		return nil
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("body is not JSON: %w", err)
	}
	if err := sch.Validate(v); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return schemaError{ve}
		}
		return err
	}
	return nil
}

// schemaError shortens jsonschema's report to its innermost causes.
type schemaError struct{ ve *jsonschema.ValidationError }

func (e schemaError) Error() string {
	var leaves []string
	var walk func(u jsonschema.OutputUnit)
	walk = func(u jsonschema.OutputUnit) {
		if u.Error != nil && len(u.Errors) == 0 {
			leaves = append(leaves, fmt.Sprintf("at '%s': %s", u.InstanceLocation, u.Error))
		}
		for _, c := range u.Errors {
			walk(c)
		}
	}
	walk(*e.ve.DetailedOutput())
	slices.Sort(leaves)
	leaves = slices.Compact(leaves)
	if len(leaves) > 8 {
		leaves = append(leaves[:8], "…")
	}
	return "does not match Discord's schema: " + strings.Join(leaves, "; ")
}

// SchemaViolation is a request body that failed Discord's OpenAPI schema.
type SchemaViolation struct {
	Method, Path string
	// Route is the openapi.json operation, e.g. "POST /channels/{channel_id}/messages".
	Route string
	Body  string
	Err   string
}

// SchemaStatus returns nil when request bodies are checked against
// openapi.json, or the reason they are not (file absent, disabled, broken).
func (s *Server) SchemaStatus() error {
	if s.spec != nil {
		return nil
	}
	return s.specE
}

// SchemaCompileTime is how long compiling openapi.json took (once per
// process; later servers reuse it).
func (s *Server) SchemaCompileTime() time.Duration {
	if s.spec == nil {
		return 0
	}
	return s.spec.compileTime
}

// SchemaViolations lists every request body that failed the schema.
func (s *Server) SchemaViolations() []SchemaViolation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.violations)
}
