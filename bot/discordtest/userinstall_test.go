package discordtest

import (
	"net/http"
	"testing"

	"github.com/bwmarrin/discordgo"
)

// A user-installed app (USER_INSTALL): its commands registered for that
// integration type are usable by a user who installed it, in a group DM
// and in a server without the bot, as the contexts allow; the interaction
// says its context and which installation authorized it; the bot's
// channel REST there answers 403 Missing Access; a click on its message in
// a group DM by another member is authorized by the installing user. A
// command of the guild install only (the default) is usable nowhere the
// bot is not.
func TestUserInstalledAppContexts(t *testing.T) {
	h := newHarness(t, Options{})
	got := make(chan *discordgo.Interaction, 8)
	h.handle(func(s *discordgo.Session, i *discordgo.InteractionCreate) {
		got <- i.Interaction
		r := reply("hello")
		r.Data.Components = []discordgo.MessageComponent{row(button("again"))}
		s.InteractionRespond(i.Interaction, r)
	})
	guildOnly := []*discordgo.ApplicationCommand{{Name: "help", Description: "How to play"}}
	everywhere := []*discordgo.ApplicationCommand{{Name: "roll", Description: "Roll dice",
		IntegrationTypes: &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall},
		Contexts:         &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel}}}
	if _, err := h.sess.ApplicationCommandBulkOverwrite(h.srv.ApplicationID(), "", append(guildOnly, everywhere...)); err != nil {
		t.Fatal(err)
	}
	carol := h.srv.AddUser("carol", "en-US")
	group := h.srv.AddGroupDM("friends", h.alice, carol)
	foreign, foreignCh := h.srv.AddGuildWithoutBot("Elsewhere", "fr")

	// Not installed: nothing usable where the bot is not.
	for _, ch := range []string{group, foreignCh} {
		if _, err := h.alice.Command(ch, "roll", "", nil); err == nil {
			t.Fatalf("a user who did not install the app ran /roll in %s", ch)
		}
	}
	h.alice.InstallApp()
	if _, err := h.alice.Command(group, "help", "", nil); err == nil {
		t.Fatal("a guild-install command ran in a group DM")
	}
	if _, err := h.alice.Command(h.srv.DefaultChannel(), "zzz", "", nil); err == nil {
		t.Fatal("an unknown command ran")
	}
	// In the group DM: context 2, authorized by alice's install.
	it, err := h.alice.Command(group, "roll", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	i := recv(t, got)
	if i.Context != discordgo.InteractionContextPrivateChannel || i.GuildID != "" || i.User == nil || i.User.ID != h.alice.ID {
		t.Fatalf("group DM interaction: context %d, guild %q, user %v", i.Context, i.GuildID, i.User)
	}
	if own := i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationUserInstall]; own != h.alice.ID {
		t.Fatalf("owners %v", i.AuthorizingIntegrationOwners)
	}
	msg, err := it.WaitResponse(ctx(t))
	if err != nil || msg.Content != "hello" {
		t.Fatalf("answer in the group DM: %v %v", msg, err)
	}
	// Carol (who did not install the app) clicks its message: alice's
	// install authorizes the click.
	click, err := carol.Click(msg, "again")
	if err != nil {
		t.Fatal(err)
	}
	i = recv(t, got)
	if _, err := click.WaitResponse(ctx(t)); err != nil {
		t.Fatal(err)
	}
	if i.Member != nil || i.User == nil || i.User.ID != carol.ID || i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationUserInstall] != h.alice.ID {
		t.Fatalf("carol's click: user %v, owners %v", i.User, i.AuthorizingIntegrationOwners)
	}
	// At most 5 follow-ups for an interaction of the user install alone.
	for n := 1; n <= UserInstallFollowups+1; n++ {
		_, err := h.sess.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "more"})
		if (n <= UserInstallFollowups) != (err == nil) {
			t.Fatalf("follow-up %d: %v", n, err)
		}
	}
	// The bot's channel REST there: 403 Missing Access.
	_, err = h.sess.ChannelMessageSend(group, "hi")
	if st, code := restErr(t, err); st != http.StatusForbidden || code != 50001 {
		t.Fatalf("a post to the group DM: %d %d", st, code)
	}
	// In a server without the bot: context 0, the guild's ID, alice's install.
	if _, err := h.alice.Command(foreignCh, "roll", "", nil); err != nil {
		t.Fatal(err)
	}
	i = recv(t, got)
	if i.Context != discordgo.InteractionContextGuild || i.GuildID != foreign || i.Member == nil ||
		i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationUserInstall] != h.alice.ID ||
		i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationGuildInstall] != "" {
		t.Fatalf("bot-less server interaction: context %d guild %q owners %v", i.Context, i.GuildID, i.AuthorizingIntegrationOwners)
	}
	if _, err = h.sess.ChannelMessageSend(foreignCh, "hi"); err == nil {
		t.Fatal("the bot posted in a server it is not in")
	}
	// In the server with the bot both installs authorize it.
	if _, err := h.alice.Command(h.srv.DefaultChannel(), "roll", "", nil); err != nil {
		t.Fatal(err)
	}
	i = recv(t, got)
	if i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationGuildInstall] != h.srv.DefaultGuild() ||
		i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationUserInstall] != h.alice.ID {
		t.Fatalf("owners in the bot's server %v", i.AuthorizingIntegrationOwners)
	}
	// Carol (not installed) is not in bob's way: she cannot run it, and
	// bob cannot even see the group DM.
	if _, err := carol.Command(group, "roll", "", nil); err == nil {
		t.Fatal("carol ran a command of an app she did not install")
	}
	if _, err := h.bob.Command(group, "roll", "", nil); err == nil {
		t.Fatal("bob used a group DM he is not in")
	}
}
