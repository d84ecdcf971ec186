package discordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"mime"
	"mime/multipart"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Request is one REST request the bot made, with the answer it got.
type Request struct {
	Method, Path string
	// Status is the answer's status, or 0 for a request abandoned while
	// InjectDelay held it before it took effect.
	Status int
	// Error is the JSON error body's message (and code), if any.
	Error string
	// Held is set for a request InjectDelay held. The log lists a request
	// as it takes effect or, held before taking effect (DelayBefore), as
	// its hold ends: after everything that completed while it was held.
	Held bool
	Time time.Time
	// BodySize is the size of the request body as uploaded, in bytes
	// (multipart file parts included): its Content-Length, or what was read
	// of it when the length was not given.
	BodySize int64
	// Payload is the JSON body, or a multipart body's payload_json part
	// (files left out); nil when the request was answered before its body
	// was read.
	Payload []byte
}

// RouteStats counts the REST requests of one route (method and path
// pattern, as in Discord's documentation).
type RouteStats struct {
	Route string
	// Exempt routes (interaction answers) do not count against the global
	// rate limit.
	Exempt bool
	// Requests received, bytes uploaded (bodies, files included), answers
	// with status 400 or above, and 429s among them.
	Requests, Bytes, Failed, Limited int64
}

func (s *Server) countRouteLocked(rt route, status int, size int64) {
	key := rt.method + " " + rt.path
	st := s.routeStats[key]
	if st == nil {
		st = &RouteStats{Route: key, Exempt: exempt(rt)}
		s.routeStats[key] = st
	}
	st.Requests++
	st.Bytes += size
	if status >= 400 || status == 0 {
		st.Failed++
	}
	if status == http.StatusTooManyRequests {
		st.Limited++
	}
}

// RouteStats returns the requests received so far by route, sorted by
// route; unlike Requests it is kept in Lean mode.
func (s *Server) RouteStats() []RouteStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]RouteStats, 0, len(s.routeStats))
	for _, st := range s.routeStats {
		out = append(out, *st)
	}
	slices.SortFunc(out, func(a, b RouteStats) int { return strings.Compare(a.Route, b.Route) })
	return out
}

// Requests lists every REST request received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// upload is one file part of a multipart request.
type upload struct {
	index       int
	filename    string
	contentType string
	data        []byte
}

// req is a parsed API request.
type req struct {
	r         *http.Request
	raw       []byte // JSON body or payload_json
	files     []upload
	multipart bool
}

func (rq *req) param(name string) string { return rq.r.PathValue(name) }

// decode unmarshals the JSON body into v.
func (rq *req) decode(v any) error {
	if len(rq.raw) == 0 {
		return fmt.Errorf("empty body")
	}
	return json.Unmarshal(rq.raw, v)
}

type handler func(rq *req) (int, any)

// apiError builds Discord's JSON error answer.
func apiError(status, code int, msg string) (int, any) {
	return status, map[string]any{"message": msg, "code": code}
}

func invalidForm(fe fieldErrors) (int, any) {
	return http.StatusBadRequest, map[string]any{"message": "Invalid Form Body", "code": 50035, "errors": fe}
}

// route describes one REST endpoint.
type route struct {
	method, path string
	specRoute    string // "METHOD /path" in openapi.json, "" = no body schema
	auth         bool   // needs "Authorization: Bot <token>"
	h            handler
}

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /gateway", s.handleGateway)
	mux.HandleFunc("GET /gateway/", s.handleGateway)
	mux.HandleFunc("GET /cdn/attachments/{cid}/{aid}/{name}", s.handleCDN)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusNotFound, map[string]any{"message": "404: Not Found", "code": 0})
	})
	const wh = "/webhooks/{webhook_id}/{webhook_token}"
	for _, rt := range []route{
		{"GET", "/gateway", "", false, s.getGateway},
		{"GET", "/gateway/bot", "", true, s.getGatewayBot},
		{"GET", "/users/@me", "", true, s.getMe},
		{"POST", "/users/@me/channels", "POST /users/@me/channels", true, s.createDM},
		{"GET", "/applications/@me", "", true, s.getApplication},
		{"GET", "/applications/{app}/commands", "", true, s.getCommands},
		{"PUT", "/applications/{app}/commands", "PUT /applications/{application_id}/commands", true, s.putCommands},
		{"GET", "/applications/{app}/guilds/{guild}/commands", "", true, s.getCommands},
		{"PUT", "/applications/{app}/guilds/{guild}/commands", "PUT /applications/{application_id}/guilds/{guild_id}/commands", true, s.putCommands},
		{"POST", "/interactions/{iid}/{token}/callback", "POST /interactions/{interaction_id}/{interaction_token}/callback", false, s.callback},
		{"POST", "/webhooks/{app}/{token}", "POST " + wh, false, s.followup},
		{"GET", "/webhooks/{app}/{token}/messages/{mid}", "", false, s.webhookGet},
		{"PATCH", "/webhooks/{app}/{token}/messages/{mid}", "PATCH " + wh + "/messages/{message_id}", false, s.webhookEdit},
		{"DELETE", "/webhooks/{app}/{token}/messages/{mid}", "", false, s.webhookDelete},
		{"GET", "/channels/{cid}", "", true, s.getChannel},
		{"GET", "/channels/{cid}/messages", "", true, s.listMessages},
		{"POST", "/channels/{cid}/messages", "POST /channels/{channel_id}/messages", true, s.createMessage},
		{"GET", "/channels/{cid}/messages/{mid}", "", true, s.getMessage},
		{"PATCH", "/channels/{cid}/messages/{mid}", "PATCH /channels/{channel_id}/messages/{message_id}", true, s.editMessage},
		{"DELETE", "/channels/{cid}/messages/{mid}", "", true, s.deleteMessage},
		{"POST", "/channels/{cid}/threads", "POST /channels/{channel_id}/threads", true, s.startThread},
		{"POST", "/channels/{cid}/messages/{mid}/threads", "POST /channels/{channel_id}/messages/{message_id}/threads", true, s.startThread},
	} {
		mux.Handle(rt.method+" /api/{version}"+rt.path, s.wrap(rt))
	}
	return mux
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	if body == nil {
		w.WriteHeader(status)
		return
	}
	b, err := json.Marshal(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

var versionRE = regexp.MustCompile(`^v(9|10)$`)

// wrap runs the steps common to every endpoint: parsing, fault injection,
// authentication, rate limits, schema checks, locking and logging.
func (s *Server) wrap(rt route) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dl := s.takeDelay(r)
		if dl != nil && dl.phase == DelayBefore {
			s.preread(r)
			if why := s.hold(r, dl); why != "" { // hold logged the request
				if why == holdServerClosed {
					writeJSON(w, http.StatusServiceUnavailable, map[string]any{"message": "server closed", "code": 0})
				}
				return
			}
		}
		cr := &countingBody{ReadCloser: r.Body}
		r.Body = cr
		var payload []byte
		status, body := s.serve(rt, w, r, &payload)
		size := cr.n
		if r.ContentLength > size {
			size = r.ContentLength
		}
		s.mu.Lock()
		entry := Request{Method: r.Method, Path: r.URL.Path, Status: status, Held: dl != nil, Time: s.clock.Now(), BodySize: size, Payload: payload}
		if m, ok := body.(map[string]any); ok && status >= 400 {
			entry.Error = fmt.Sprintf("%v (%v)", m["message"], m["code"])
			if fe, ok := m["errors"].(fieldErrors); ok {
				entry.Error += ": " + fe.summary()
			}
		}
		s.countRouteLocked(rt, status, size)
		if !s.opts.Lean {
			s.requests = append(s.requests, entry)
			s.keepHistoryLocked()
		}
		s.notifyLocked()
		s.mu.Unlock()
		if status >= 400 {
			s.logf("discord", "%s %s → %d %s", r.Method, r.URL.Path, status, entry.Error)
		}
		if dl != nil && dl.phase == DelayAfter {
			if why := s.hold(r, dl); why == holdClientGone {
				return // the effect stays; the answer is never delivered
			}
		}
		if status == http.StatusNoContent {
			body = nil
		}
		writeJSON(w, status, body)
	})
}

// countingBody counts the bytes read from a request body.
type countingBody struct {
	io.ReadCloser
	n int64
}

func (c *countingBody) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	c.n += int64(n)
	return n, err
}

// serve answers one request; *payload receives its JSON (see
// Request.Payload).
func (s *Server) serve(rt route, w http.ResponseWriter, r *http.Request, payload *[]byte) (int, any) {
	if !versionRE.MatchString(r.PathValue("version")) {
		return apiError(http.StatusNotFound, 0, "404: Not Found")
	}
	s.countRequest(rt)
	if st, body, hit := s.injectFault(w, r, rt); hit {
		return st, body
	}
	if rt.auth && r.Header.Get("Authorization") != "Bot "+s.opts.Token {
		return apiError(http.StatusUnauthorized, 0, "401: Unauthorized")
	}
	if st, body, limited := s.rateLimit(w, r, rt); limited {
		return st, body
	}
	rq := &req{r: r}
	if st, body := s.readBody(rq); st != 0 {
		return st, body
	}
	*payload = rq.raw
	if len(rq.raw) > 0 && !json.Valid(rq.raw) {
		return apiError(http.StatusBadRequest, 50109, "The request body contains invalid JSON.")
	}
	if rt.specRoute != "" && s.spec != nil && len(rq.raw) > 0 {
		specRoute := rt.specRoute
		if r.PathValue("mid") == "@original" {
			specRoute = strings.Replace(specRoute, "{message_id}", "@original", 1)
		}
		if err := s.spec.validate(specRoute, rq.raw); err != nil {
			s.mu.Lock()
			s.violations = append(s.violations, SchemaViolation{Method: r.Method, Path: r.URL.Path,
				Route: specRoute, Body: string(rq.raw), Err: err.Error()})
			s.mu.Unlock()
			s.logf("discord", "schema violation %s %s: %v", r.Method, r.URL.Path, err)
			if !s.opts.SchemaReportOnly {
				// Report Discord's own, more precise, form errors when
				// the body breaks one of its documented limits too.
				fe := prevalidate(specRoute, rq.raw)
				if len(fe) == 0 {
					fe.add("", "SCHEMA_VALIDATION_FAILED", err.Error())
				}
				return invalidForm(fe)
			}
		}
	}
	if strings.HasPrefix(rt.path, "/webhooks/") {
		s.awaitPosted(r.PathValue("token"))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return apiError(http.StatusServiceUnavailable, 0, "server closed")
	}
	status, body := rt.h(rq)
	if status < 400 {
		if f := s.takeFaultLocked(r, true); f != nil {
			return f.status, map[string]any{"message": http.StatusText(f.status), "code": 0}
		}
	}
	return status, body
}

// readBody reads a JSON or multipart body into rq.
func (s *Server) readBody(rq *req) (int, any) {
	r := rq.r
	limit := int64(s.opts.AttachmentSizeLimit)*maxAttachments + 1<<20
	var data []byte
	var err error
	if n := r.ContentLength; n >= 0 && n <= limit {
		// Read in one piece: growing the buffer as io.ReadAll does was a
		// tenth of the fake's time under load.
		data = make([]byte, n)
		_, err = io.ReadFull(r.Body, data)
	} else {
		data, err = io.ReadAll(io.LimitReader(r.Body, limit+1))
	}
	if err != nil {
		return apiError(http.StatusBadRequest, 0, "reading body: "+err.Error())
	}
	if int64(len(data)) > limit {
		return apiError(http.StatusRequestEntityTooLarge, 40005, "Request entity too large")
	}
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mt != "multipart/form-data" {
		rq.raw = data
		return 0, nil
	}
	rq.multipart = true
	mr := multipart.NewReader(bytes.NewReader(data), params["boundary"])
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return apiError(http.StatusBadRequest, 50035, "malformed multipart body: "+err.Error())
		}
		name := part.FormName()
		var buf bytes.Buffer
		if strings.HasPrefix(name, "files[") {
			buf.Grow(min(len(data), 64<<10)) // a picture, tens of KiB
		}
		_, err = buf.ReadFrom(part)
		b := buf.Bytes()
		if err != nil {
			return apiError(http.StatusBadRequest, 50035, "malformed multipart body: "+err.Error())
		}
		switch {
		case name == "payload_json":
			rq.raw = b
		case strings.HasPrefix(name, "files[") && strings.HasSuffix(name, "]"):
			idx, err := strconv.Atoi(name[len("files[") : len(name)-1])
			if err != nil {
				return apiError(http.StatusBadRequest, 50035, "bad file field "+name)
			}
			if len(b) > s.opts.AttachmentSizeLimit {
				return apiError(http.StatusRequestEntityTooLarge, 40005, "Request entity too large")
			}
			rq.files = append(rq.files, upload{index: idx, filename: part.FileName(),
				contentType: part.Header.Get("Content-Type"), data: b})
		}
	}
	return 0, nil
}

func (s *Server) handleCDN(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range s.messages {
		if m.ChannelID != r.PathValue("cid") {
			continue
		}
		for _, a := range m.Attachments {
			if a.ID == r.PathValue("aid") && a.Filename == r.PathValue("name") {
				w.Header().Set("Content-Type", a.ContentType)
				_, _ = w.Write(a.Data)
				return
			}
		}
	}
	http.NotFound(w, r)
}

// ---- rate limits and fault injection ----

type fault struct {
	n          int
	route      string // substring of the path; "" = any
	status     int
	retryAfter time.Duration
	global     bool
	after      bool // the request takes effect; only its answer is the error
}

type faults struct {
	list []*fault
}

// InjectRateLimit makes the next n requests whose path contains route
// ("" = any; a method may precede it: "POST /messages") answer 429 with Retry-After, X-RateLimit-* headers and
// {"message":"You are being rate limited.","retry_after":…,"global":…}.
func (s *Server) InjectRateLimit(n int, route string, retryAfter time.Duration, global bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults.list = append(s.faults.list, &fault{n: n, route: route, status: http.StatusTooManyRequests, retryAfter: retryAfter, global: global})
}

// InjectServerErrors makes the next n requests whose path contains route
// ("" = any; a method may precede it: "PATCH /messages/") answer status (for example 502 Bad Gateway, which discordgo
// retries, or 500, which it does not). The requests have no effect.
func (s *Server) InjectServerErrors(n int, route string, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults.list = append(s.faults.list, &fault{n: n, route: route, status: status})
}

// InjectServerErrorsAfter is InjectServerErrors for requests that take
// effect before the error is answered, as when Discord's edge times out
// (504) on a request its back end carried out: the client cannot tell
// whether its request went through. Requests refused for another reason
// (authorisation, rate limit, a bad body) answer that refusal and do not
// count.
func (s *Server) InjectServerErrorsAfter(n int, route string, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults.list = append(s.faults.list, &fault{n: n, route: route, status: status, after: true})
}

// ClearFaults drops every injected server error and rate limit not used
// yet.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults.list = nil
}

// takeFaultLocked takes one use of the first fault for r that applies
// before the request (after false) or after it; nil if none. Call with
// s.mu held.
func (s *Server) takeFaultLocked(r *http.Request, after bool) *fault {
	for i, f := range s.faults.list {
		if f.n <= 0 || f.after != after || !routeMatches(f.route, r) {
			continue
		}
		f.n--
		if f.n == 0 {
			s.faults.list = slices.Delete(s.faults.list, i, i+1)
		}
		s.logf("fault", "%s %s → injected %d (after: %t)", r.Method, r.URL.Path, f.status, after)
		return f
	}
	return nil
}

func (s *Server) injectFault(w http.ResponseWriter, r *http.Request, rt route) (int, any, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if f := s.takeFaultLocked(r, false); f != nil {
		if f.status != http.StatusTooManyRequests {
			return f.status, map[string]any{"message": http.StatusText(f.status), "code": 0}, true
		}
		secs := f.retryAfter.Seconds()
		hd := w.Header()
		hd.Set("Retry-After", strconv.Itoa(int(math.Ceil(secs))))
		hd.Set("X-RateLimit-Limit", strconv.Itoa(simpleBucketLimit))
		hd.Set("X-RateLimit-Remaining", "0")
		hd.Set("X-RateLimit-Reset-After", fmt.Sprintf("%.3f", secs))
		hd.Set("X-RateLimit-Reset", fmt.Sprintf("%.3f", float64(s.clock.Now().Add(f.retryAfter).UnixMilli())/1000))
		hd.Set("X-RateLimit-Bucket", "injected")
		scope := "user"
		if f.global {
			hd.Set("X-RateLimit-Global", "true")
			scope = "global"
		}
		hd.Set("X-RateLimit-Scope", scope)
		s.countLimitedLocked(rt, scope)
		return http.StatusTooManyRequests, map[string]any{"message": "You are being rate limited.", "retry_after": secs, "global": f.global}, true
	}
	return 0, nil, false
}

// ---- small endpoints ----

func (s *Server) getGateway(*req) (int, any) {
	return http.StatusOK, map[string]any{"url": s.GatewayURL()}
}

func (s *Server) getGatewayBot(*req) (int, any) {
	return http.StatusOK, map[string]any{"url": s.GatewayURL(), "shards": max(s.opts.Shards, 1),
		"session_start_limit": map[string]any{"total": 1000, "remaining": 999, "reset_after": 14400000, "max_concurrency": max(s.opts.MaxConcurrency, 1)}}
}

func (s *Server) getMe(*req) (int, any) {
	u := s.users[s.botID].json()
	u["verified"] = true
	u["mfa_enabled"] = false
	u["flags"] = 0
	return http.StatusOK, u
}

func (s *Server) getApplication(*req) (int, any) {
	return http.StatusOK, map[string]any{"id": s.appID, "name": s.opts.BotName, "description": "",
		"bot_public": true, "bot_require_code_grant": false, "verify_key": "", "flags": 0,
		"bot": s.users[s.botID].json(), "icon": nil}
}

func (s *Server) createDM(rq *req) (int, any) {
	var body struct {
		RecipientID string `json:"recipient_id"`
	}
	if err := rq.decode(&body); err != nil || s.users[body.RecipientID] == nil {
		fe := fieldErrors{}
		fe.add("recipient_id", "BASE_TYPE_REQUIRED", "Unknown user")
		return invalidForm(fe)
	}
	c := s.dmLocked(body.RecipientID)
	j := c.json()
	j["recipients"] = []any{s.users[body.RecipientID].json()}
	return http.StatusOK, j
}

// prevalidate runs the stateless form checks of a route on a body.
func prevalidate(specRoute string, raw []byte) fieldErrors {
	switch {
	case strings.HasSuffix(specRoute, "/callback"):
		var cb struct {
			Type int             `json:"type"`
			Data json.RawMessage `json:"data"`
		}
		if json.Unmarshal(raw, &cb) != nil {
			return fieldErrors{}
		}
		if cb.Type == 9 {
			var md modalData
			fe := fieldErrors{}
			if json.Unmarshal(cb.Data, &md) == nil {
				validateModal(fe, "data", &md)
			}
			return fe
		}
		p, fe := parsePayload(cb.Data, "data")
		validateContent(fe, "data", p)
		return fe
	case strings.HasSuffix(specRoute, "/commands"):
		var defs []cmdDef
		if json.Unmarshal(raw, &defs) != nil {
			return fieldErrors{}
		}
		return validateCommands(defs)
	case strings.HasSuffix(specRoute, "/threads") || strings.HasSuffix(specRoute, "/channels"):
		return fieldErrors{}
	}
	p, fe := parsePayload(raw, "")
	validateContent(fe, "", p)
	return fe
}
