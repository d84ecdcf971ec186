package discordtest

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
	"net/url"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

func ptrEsc(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1") }

func TestProto(t *testing.T) {
	t0 := time.Now()
	f, _ := os.Open("/work/shared/discord-api-spec/openapi.json")
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil { t.Fatal(err) }
	t.Log("parse", time.Since(t0))
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("file:///openapi.json", doc); err != nil { t.Fatal(err) }
	routes := [][2]string{{"/interactions/{interaction_id}/{interaction_token}/callback","post"},{"/webhooks/{webhook_id}/{webhook_token}","post"},{"/webhooks/{webhook_id}/{webhook_token}/messages/@original","patch"},{"/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}","patch"},{"/channels/{channel_id}/messages","post"},{"/channels/{channel_id}/messages/{message_id}","patch"},{"/applications/{application_id}/commands","put"},{"/applications/{application_id}/guilds/{guild_id}/commands","put"},{"/channels/{channel_id}/threads","post"},{"/channels/{channel_id}/messages/{message_id}/threads","post"}}
	for _, r := range routes {
		t1 := time.Now()
		ptr := "/paths/" + ptrEsc(r[0]) + "/" + r[1] + "/requestBody/content/" + ptrEsc("application/json") + "/schema"
		u := (&url.URL{Scheme: "file", Path: "/openapi.json", Fragment: ptr}).String()
		sch, err := c.Compile(u)
		if err != nil { t.Fatal(u, err) }
		_ = sch
		t.Log(r, time.Since(t1), u)
	}
	t.Log("total", time.Since(t0))
	sch, _ := c.Compile((&url.URL{Scheme: "file", Path: "/openapi.json", Fragment: "/paths/" + ptrEsc("/interactions/{interaction_id}/{interaction_token}/callback") + "/post/requestBody/content/" + ptrEsc("application/json") + "/schema"}).String())
	for _, body := range []string{`{"type":4,"data":{"tts":false,"content":"hi","components":null,"embeds":null}}`, `{"type":4,"data":{"content":5}}`, `{"type":7,"data":{"tts":false,"content":"","components":[],"embeds":null}}`,
	 `{"type":4,"data":{"tts":false,"content":"hi","components":[{"type":1,"components":[{"type":2,"custom_id":"a","label":"x","style":1,"disabled":false,"emoji":null,"url":""}]}],"embeds":null}}`} {
		var v any
		json.Unmarshal([]byte(body), &v)
		err := sch.Validate(v)
		t.Logf("%s => %v", body, err)
	}
}
