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
// channel permissions. An edit's "attachments" (channel message, webhook
// message, or a type 7 interaction answer) keeps the message's attachments
// it names by id and removes the others, appends only the uploaded files
// it names by upload index (files[n] is id n), and any other id is refused
// (400, 50035, at attachments.N.id); an edit without "attachments" keeps
// the message's attachments. Request bodies are also checked against Discord's
// OpenAPI schema: the part of openapi.json the fake's routes take, embedded
// (discord-openapi-subset.json, written by go generate from
// shared/discord-api-spec/openapi.json beside the repository).
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
// # Forged and unusual interactions
//
// Command, Click and Select behave like a Discord client and refuse what
// one could not send. To test the bot's defences, User.ForgeCommand sends a
// command whose data object is exactly what the test gives (any name or
// options tree, wrong option types, missing required options, unknown
// subcommands), and User.ForgeInteraction any interaction type a user can
// cause (2 command, 3 component, 4 autocomplete, 5 modal submit) with any
// data and source message; ForgeClick and ForgeComponent forge component
// clicks. Everything around data (id, token, member or user, locale,
// guild_locale, channel, app_permissions) is filled in as for a real one,
// and the bot's obligations are the same: one callback within the
// deadline (autocomplete: type 8, whose choices
// Interaction.AutocompleteChoices returns).
//
// Interactions come from wherever the test says: AddGuild and AddChannel
// make more guilds and channels (every user is a member of every guild),
// Server.DMChannel or User.DMChannel a user's DM channel, where
// interactions carry "user" instead of "member" and no guild_id.
// Options.OmitInteractionAttachments or Server.SetOmitInteractionAttachments
// leave "attachments" out of the message object of component and modal
// interactions, as Discord may.
//
// Server.InteractionStats counts interactions sent, answered, failed and
// pending, and refused callbacks (duplicate, late); Server.Unanswered lists
// the unanswered ones with their custom_id or command for diagnostics.
//
// # Reading channels
//
// Server.Messages and User.Messages copy a channel; Server.Newest and
// User.Newest (and User.LastMessage) return only its newest message visible
// to everyone or to the user, in amortised constant time.
//
// # Faults
//
// InjectServerErrors and InjectRateLimit make the next requests matching a
// route (a path substring, optionally after a method: "POST /messages")
// fail. InjectDelay holds matching requests for a while, either before they
// take effect (DelayBefore: nothing applied; abandoned if the client goes
// away) or after (DelayAfter: applied, the client has not heard back).
// HeldRequests, Held and WaitHeld tell a test when a request is in that
// window, for example to kill the bot's process there; ReleaseHeld ends the
// holds early and Close never hangs on them.
//
// DropGateway cuts the gateway connections once (sessions stay
// resumable); SetGatewayDown and GatewayDown keep the gateway down: live
// connections are closed with 1001 Going Away and new websocket upgrades
// are answered 503, so discordgo retries with its backoff and RESUMEs once
// the gateway is back. REST stays up. Events meanwhile are queued for
// replay on RESUME, except interactions that failed by their deadline
// before the bot came back: the bot never sees those.
//
// Every change (messages, interactions, callbacks, gateway connections,
// held requests) wakes Server.Wait, so tests wait for events instead of
// sleeping; the injectable Clock (a clock.Fake from bot/clock) drives
// timestamps and token expiry.
//
// # Rate limits
//
// Every answer carries X-RateLimit-Limit, -Remaining, -Reset (epoch
// seconds), -Reset-After (seconds) and -Bucket. By default the limits are
// generous (50 requests per second of real time per route and channel) and
// a bot never meets them. Options.RateLimits (RateLimitOptions, or later
// Server.SetRateLimits) with Enabled switches on Discord's, measured by the
// Clock, so tests advance a clock.Fake instead of sleeping:
//
//   - the global limit: Global requests (50) per GlobalWindow (1 s) per bot
//     token (per Authorization header; anonymous requests share one),
//     across all routes and connections. Interaction answers are exempt:
//     POST /interactions/{id}/{token}/callback and everything under
//     /webhooks/{application_id}/{token}. Over it: 429 with Retry-After,
//     X-RateLimit-Global: true, X-RateLimit-Scope: global and no bucket
//     headers, as in Discord's documentation.
//   - per-route buckets, counted per bucket and major parameter (channel,
//     guild, webhook or interaction id and token), the other ids ignored.
//     Routes sharing a bucket share its X-RateLimit-Bucket hash and its
//     counter (reading one message and listing messages; follow-ups and
//     edits of one interaction's messages; the two ways to start a
//     thread). POST /channels/{channel_id}/messages allows ChannelPosts
//     (5) per ChannelPostWindow (5 s) in each channel and PATCH of a
//     channel message ChannelEdits (5) per ChannelEditWindow (5 s): the
//     X-RateLimit-Limit 5 and Reset-After 5 that bots commonly observe
//     on these routes. Other routes allow Route (50) per RouteWindow
//     (1 s), so the global limit binds first. Over a bucket: 429 with the bucket headers,
//     X-RateLimit-Scope: user and Retry-After.
//   - edits of messages older than OldEditAge (1 hour): OldEdits (3) per
//     OldEditWindow (5 minutes) per channel, then 429 with X-RateLimit-Scope:
//     shared and code 30046 ("Maximum number of edits to messages older than
//     1 hour reached. Try again later."). Discord publishes no figure for
//     this limit (asked to document it, it answered that it does not put
//     rate limit details in its documentation, discord-api-docs#4413). Bots
//     report meeting it after a few edits; one author estimated 3 edits per
//     channel per 20 seconds. 3 per 5 minutes is an approximation chosen to
//     be stricter than that, so that a design that works here does not
//     rely on editing old messages often.
//
// Every 429 has the JSON body {"message": "You are being rate limited.",
// "retry_after": <seconds, float>, "global": <bool>} ("code" and Discord's
// message for 30046), and Retry-After is the wait in whole seconds rounded
// up. The windows are fixed: they start at the first request and reset when
// they end. Server.RateLimitStats counts requests against the global limit,
// exempt ones and 429s by scope, also by route, whether or not the limits
// are on (InjectRateLimit's 429s included), for load figures.
//
// A real discordgo session honours all of this (it waits out
// X-RateLimit-Reset-After and retry_after), but it sleeps in real time: a
// test that lets discordgo run into the limits either advances the
// clock.Fake while discordgo sleeps or gives RateLimitOptions a real-time
// Clock and windows of a few hundred milliseconds.
//
// # User-installed apps
//
// Server.AddGroupDM and Server.AddGuildWithoutBot make places the bot is
// not a member of, and User.InstallApp installs the application for a user
// (integration type USER_INSTALL). A global command is usable there only by
// a user who installed the app, and only if its integration_types include
// USER_INSTALL and its contexts the place's (GUILD 0, BOT_DM 1,
// PRIVATE_CHANNEL 2; contexts left out allow all). Interactions carry
// context and authorizing_integration_owners ("0": the guild's install,
// "1": the user's; a click on a message is authorized by the installs that
// authorized the interaction that made it). The bot's channel REST in such
// places answers 403 Missing Access (50001), and an interaction authorized
// by a user's install alone may create UserInstallFollowups (5) follow-ups.
// See userinstall.go.
//
// # Outside tests
//
// Outside tests (the sandbox), use NewServer, set the bot session's Client
// to srv.Client() (or wrap any transport with NewRewriteTransport) and call
// Close when done. discordgo then fetches the gateway URL from GET /gateway
// and dials the fake's websocket by itself.
package discordtest
