// Package discordtest is a loopback fake of Discord for end-to-end tests,
// what net/http/httptest is for HTTP: a real HTTP server speaking Discord's
// REST API (the /api/v9 paths discordgo v0.29.0 uses, and /api/v10) and a
// real gateway websocket, so an unmodified discordgo.Session exercises the
// same code paths as in production. Simulated users run slash commands,
// click buttons and pick select-menu values; tests read what each user sees.
//
// The fake is strict where Discord is: message and component limits answer
// 400 with code 50035 and an "errors" object naming the field, interactions
// must be answered within the deadline (3 s) and only once, interaction
// tokens expire after 15 minutes (by the injectable Clock), ephemeral
// messages are only visible to their user, and REST calls need the bot's
// channel permissions. Request bodies are also checked against Discord's
// OpenAPI schema (openapi.json) when it is available.
//
// A test:
//
//	srv := discordtest.NewTestServer(t, discordtest.Options{})
//	sess := discordtest.Connect(t, srv, func(s *discordgo.Session) {
//		s.AddHandler(myBot.OnInteraction) // handlers before the gateway opens
//	})
//	// ... the bot registers its commands through sess ...
//	alice := srv.AddUser("alice", "en-US")
//	it, err := alice.Command(srv.DefaultChannel(), "qwixx", "new", map[string]any{"players": 3})
//	msg, err := it.WaitResponse(ctx)    // the reply, or ErrInteractionFailed
//	it2, err := alice.Click(msg, "join") // refused if alice cannot see or click it
//	w := srv.Watch(srv.DefaultChannel())
//	ev, err := w.NextTimeout(time.Second) // the next create/update/delete
//
// Outside tests (the sandbox), use NewServer, set the bot session's Client
// to srv.Client() (or wrap any transport with NewRewriteTransport) and call
// Close when done. discordgo then fetches the gateway URL from GET /gateway
// and dials the fake's websocket by itself.
package discordtest
