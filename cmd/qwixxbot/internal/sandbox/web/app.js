// The sandbox page: a small Discord client of the fake Discord. It draws
// the channel as the chosen user sees it (server-sent events from
// /api/events) and sends that user's commands, clicks and selections.
"use strict";

const $ = (s, el = document) => el.querySelector(s);
const state = {
  me: null,            // the user the page plays as
  users: [],
  guildLocale: "en-US",
  commands: [],
  msgs: new Map(),     // id -> message as last drawn
  stick: true,         // the list follows the newest message
  dismissed: new Set(),
  es: null,
  picked: null,        // the chosen command leaf {cmd, path, options}
  acFor: null,         // the option field whose autocomplete choices are shown
};

function esc(s) {
  return String(s).replace(/[&<>"']/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function userName(id) {
  if (id === state.botId) return "qwixxbot";
  const u = state.users.find(u => u.id === id);
  return u ? u.name : "unknown";
}

function myLocale() {
  const u = state.users.find(u => u.id === state.me);
  return u ? u.locale : "en-US";
}

// The page's own words (Discord's client follows the user's language;
// the bot's messages follow their own rules). {0}, {1} are arguments.
const WORDS = {
  en: {
    playAs: "Play as", computers: "Computer players join from the lobby, with its 🤖 button.",
    sandbox: "This is a sandbox: you may play every seat. Whoever opens this page can act as any player and read their private messages, so it answers only on this computer's own addresses.",
    yourLang: "Your language", serverLang: "Server language",
    placeholder: "Type / for commands · playing as {0}", picked: "Enter to send · Esc to cancel",
    only: "Only you can see this", dismiss: "Dismiss message", edited: "(edited)",
    thinking: "qwixxbot is thinking…", used: "{0} used {1}", select: "Make a selection",
    noOptions: "No options match your search", required: "{0} is required.",
    noMessages: "The bot reads no messages: type / and pick one of its commands.",
    unknownCmd: "There is no command {0}. The bot's commands: {1}.",
    empty: "Nothing here yet. Type {0} below to open a table; the others join with its buttons, or add computer players to it.",
    connecting: "connecting…", reconnecting: "reconnecting…", unreachable: "The sandbox is not reachable: {0}",
    yourName: "Your name", nameNote: "Enter to rename. Tables opened or joined afterwards use the new name.",
    nameInvalid: "A name has 1 to 32 characters.", nameTaken: "Another player is called {0}.", older: "You're viewing older messages", jumpPresent: "Jump to present",
  },
  de: {
    playAs: "Spielen als", computers: "Computerspieler kommen in der Lobby über ihren 🤖-Button dazu.",
    sandbox: "Dies ist eine Sandbox: Du darfst jeden Platz spielen. Wer diese Seite öffnet, kann als jeder Spieler handeln und dessen private Nachrichten lesen; deshalb antwortet sie nur unter den eigenen Adressen dieses Computers.",
    yourLang: "Deine Sprache", serverLang: "Sprache des Servers",
    placeholder: "Gib / für Befehle ein · du spielst als {0}", picked: "Enter zum Senden · Esc zum Abbrechen",
    only: "Nur für dich sichtbar", dismiss: "Nachricht verwerfen", edited: "(bearbeitet)",
    thinking: "qwixxbot denkt nach …", used: "{0} hat {1} verwendet", select: "Triff eine Auswahl",
    noOptions: "Keine Optionen passen zu deiner Suche", required: "{0} fehlt noch.",
    noMessages: "Der Bot liest keine Nachrichten: Gib / ein und wähle einen seiner Befehle.",
    unknownCmd: "Einen Befehl {0} gibt es nicht. Die Befehle des Bots: {1}.",
    empty: "Noch ist hier nichts. Gib unten {0} ein, um einen Tisch zu eröffnen; die anderen treten über seine Buttons bei, oder du fügst Computerspieler hinzu.",
    connecting: "verbinde …", reconnecting: "verbinde erneut …", unreachable: "Die Sandbox ist nicht erreichbar: {0}",
    yourName: "Dein Name", nameNote: "Enter benennt um. Danach eröffnete oder betretene Tische verwenden den neuen Namen.",
    nameInvalid: "Ein Name hat 1 bis 32 Zeichen.", nameTaken: "Ein anderer Spieler heißt schon {0}.", older: "Du siehst dir ältere Nachrichten an", jumpPresent: "Zur Gegenwart springen",
  },
  fr: {
    playAs: "Jouer en tant que", computers: "Les joueurs virtuels rejoignent la table depuis le salon d'attente, avec son bouton 🤖.",
    sandbox: "Ceci est un bac à sable : tu peux jouer à toutes les places. Quiconque ouvre cette page peut agir à la place de n'importe quel joueur et lire ses messages privés ; elle ne répond donc qu'aux adresses de cet ordinateur.",
    yourLang: "Ta langue", serverLang: "Langue du serveur",
    placeholder: "Tape / pour les commandes · tu joues en tant {0}", picked: "Entrée pour envoyer · Échap pour annuler",
    only: "Visible uniquement par toi", dismiss: "Ignorer le message", edited: "(modifié)",
    thinking: "qwixxbot réfléchit…", used: "{0} a utilisé {1}", select: "Fais un choix",
    noOptions: "Aucune option ne correspond à ta recherche", required: "{0} est obligatoire.",
    noMessages: "Le bot ne lit aucun message : tape / et choisis une de ses commandes.",
    unknownCmd: "La commande {0} n'existe pas. Les commandes du bot : {1}.",
    empty: "Rien ici pour l'instant. Tape {0} ci-dessous pour ouvrir une table ; les autres la rejoignent avec ses boutons, ou ajoute des joueurs virtuels.",
    connecting: "connexion…", reconnecting: "reconnexion…", unreachable: "La sandbox est injoignable : {0}",
    yourName: "Ton nom", nameNote: "Entrée pour renommer. Les tables ouvertes ou rejointes ensuite utilisent le nouveau nom.",
    nameInvalid: "Un nom compte de 1 à 32 caractères.", nameTaken: "Un autre joueur s'appelle déjà {0}.", older: "Tu consultes d'anciens messages", jumpPresent: "Revenir au présent",
  },
};

// tr gives the page's word for key in the user's language.
function tr(key, ...args) {
  const w = WORDS[myLocale().split("-")[0]] || WORDS.en;
  return (w[key] || WORDS.en[key]).replace(/\{(\d)\}/g, (_, i) => args[+i]);
}

// asName is a name as "playing as" takes it: in French "que Ben" but
// "qu'Anna" (elision before a vowel or a mute h).
function asName(name) {
  if (myLocale().split("-")[0] !== "fr") return name;
  return /^[aeiouyhàâäéèêëîïôöùûüœæ]/i.test(name) ? "qu'" + name : "que " + name;
}

// applyWords writes the page's fixed words in the user's language.
function applyWords() {
  document.documentElement.lang = myLocale().split("-")[0];
  for (const el of document.querySelectorAll("[data-w]")) el.textContent = tr(el.dataset.w);
  $("#messages").dataset.empty = tr("empty", usedName("qwixx new"));
  $("#input").placeholder = state.picked ? tr("picked") : tr("placeholder", asName(userName(state.me)));
}

// Discord's timestamp markup <t:unix:style>.
function fmtTime(sec, style) {
  const d = new Date(sec * 1000), loc = myLocale();
  if (style === "R") {
    const diff = Math.round((d - Date.now()) / 1000), rtf = new Intl.RelativeTimeFormat(loc, { numeric: "auto" });
    const a = Math.abs(diff);
    if (a < 60) return rtf.format(diff, "second");
    if (a < 3600) return rtf.format(Math.round(diff / 60), "minute");
    if (a < 86400) return rtf.format(Math.round(diff / 3600), "hour");
    return rtf.format(Math.round(diff / 86400), "day");
  }
  const opts = { t: { timeStyle: "short" }, T: { timeStyle: "medium" }, d: { dateStyle: "short" }, D: { dateStyle: "long" },
    F: { dateStyle: "full", timeStyle: "short" } }[style] || { dateStyle: "long", timeStyle: "short" };
  return new Intl.DateTimeFormat(loc, opts).format(d);
}

// ---- Discord's markdown ----
//
// The text is escaped first; what the markup makes of it is built from
// escaped text only. Code (blocks and inline), escaped characters and the
// markup's own HTML (mentions, timestamps, links) are held aside as
// placeholders (\0N\0, NUL being taken out of the text) so that no later
// rule reads into them, and put back at the end.

// held collects the HTML held aside while one text is rendered.
function mdHold(held, html) {
  return "\0" + (held.push(html) - 1) + "\0";
}

function mdRestore(held, s) {
  for (let i = 0; i < 8 && s.includes("\0"); i++) s = s.replace(/\0(\d+)\0/g, (_, n) => held[+n]);
  return s;
}

// mdCode holds code blocks (block) and inline code, and backslash-escaped
// characters, aside; the text is not escaped yet.
function mdCode(held, src, block) {
  if (block) {
    src = src.replace(/```(?:([A-Za-z0-9_+#.-]+)\n)?\n?([\s\S]*?)\n?```/g, (_, lang, code) =>
      mdHold(held, `<pre class="codeblock"${lang ? ` data-lang="${esc(lang)}"` : ""}><code>${esc(code)}</code></pre>`));
  }
  return src
    .replace(/``(?!`)([\s\S]+?)``|`([^`]+)`/g, (_, a, b) => mdHold(held, `<code>${esc(a !== undefined ? a.trim() : b)}</code>`))
    .replace(/\\([\\`*_~|>#\-[\]()<:.!+])/g, (_, c) => mdHold(held, esc(c)));
}

// mdTokens holds the markup's own elements aside (text already escaped):
// mentions, timestamps, custom emoji, masked links and bare links.
function mdTokens(held, s) {
  return s
    .replace(/&lt;@!?(\d+)&gt;/g, (_, id) => mdHold(held, `<span class="mention">@${esc(userName(id))}</span>`))
    .replace(/&lt;@&amp;(\d+)&gt;/g, () => mdHold(held, `<span class="mention">@role</span>`))
    .replace(/&lt;#(\d+)&gt;/g, (_, id) => mdHold(held, `<span class="mention">#${esc(id === state.channelId ? state.channelName : "unknown")}</span>`))
    .replace(/(^|[^\w@])@(everyone|here)\b/g, (_, pre, w) => pre + mdHold(held, `<span class="mention">@${w}</span>`))
    .replace(/&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;/g, (_, t, st) =>
      mdHold(held, `<span class="ts" data-t="${t}" data-s="${st || "f"}">${esc(fmtTime(+t, st || "f"))}</span>`))
    .replace(/&lt;a?:(\w+):\d+&gt;/g, (_, name) => mdHold(held, ":" + name + ":"))
    .replace(/\[([^\]\n]+)\]\((?:&lt;)?(https?:\/\/[^\s)]+?)(?:&gt;)?\)/g, (_, text, url) =>
      mdHold(held, `<a href="${url}" target="_blank" rel="noreferrer">${mdEmph(text)}</a>`))
    .replace(/(^|[\s(])(https?:\/\/[^\s\0]+[^\s\0.,:;!?)'"*_~|])/g, (_, pre, url) =>
      pre + mdHold(held, `<a href="${url}" target="_blank" rel="noreferrer">${url}</a>`));
}

// mdEmph draws bold, underline, strikethrough, spoilers and italics.
function mdEmph(s) {
  return s
    .replace(/\*\*\*(?!\s)([\s\S]+?)\*\*\*/g, "<b><i>$1</i></b>")
    .replace(/\*\*(?!\s)([\s\S]+?)\*\*/g, "<b>$1</b>")
    .replace(/__([\s\S]+?)__(?!_)/g, "<u>$1</u>")
    .replace(/~~([\s\S]+?)~~/g, "<s>$1</s>")
    .replace(/\|\|([\s\S]+?)\|\|/g, '<span class="spoiler" title="spoiler">$1</span>')
    .replace(/(^|[^*\w])\*(?![*\s])([\s\S]*?[^*\s])\*(?![*\w])/g, "$1<i>$2</i>")
    .replace(/(^|[^_\w])_(?![_\s])([\s\S]*?[^_\s])_(?![_\w])/g, "$1<i>$2</i>");
}

// inline renders Discord markdown within a line: a title, a field's name.
function inline(text) {
  const held = [];
  const s = mdCode(held, String(text || "").replace(/\0/g, ""), false);
  return mdRestore(held, mdEmph(mdTokens(held, esc(s))));
}

// markdown renders a message text as Discord does: code blocks, headers
// (#, ##, ###), subtext (-#), lists (-, *, 1.), block quotes (> and >>>
// for the rest of the message), and within lines the inline markup.
function markdown(text) {
  const held = [];
  const src = mdCode(held, String(text || "").replace(/\0/g, ""), true);
  const lines = mdTokens(held, esc(src)).split("\n");
  const out = [];
  let quote = null, list = null; // the open block quote's and list's HTML
  const endList = () => {
    if (!list) return;
    while (list.tags.length) list.html += `</li></${list.tags.pop()}>`;
    (quote || out).push(list.html);
    list = null;
  };
  const endQuote = () => {
    endList();
    if (quote) out.push(`<blockquote>${quote.join("")}</blockquote>`);
    quote = null;
  };
  for (let i = 0; i < lines.length; i++) {
    let m;
    if (!quote && (m = lines[i].match(/^&gt;&gt;&gt; ?([\s\S]*)$/))) {
      // >>> quotes the rest of the message.
      lines.splice(i, lines.length - i, ...[m[1], ...lines.slice(i + 1)].map(l => "&gt; " + l));
    }
    let line = lines[i];
    if ((m = line.match(/^&gt; (.*)$/)) || line === "&gt;") {
      if (!quote) { endList(); quote = []; }
      line = m ? m[1] : "";
    } else if (quote) {
      endQuote();
    }
    const sink = quote || out;
    if ((m = line.match(/^( *)(?:([-*])|(\d{1,9})\.) +(.*)$/))) {
      const depth = Math.min(Math.floor(m[1].length / 2), 9) + 1, tag = m[2] ? "ul" : "ol";
      if (!list) list = { html: "", tags: [] };
      if (depth <= list.tags.length) {
        while (list.tags.length > depth || list.tags.length === depth && list.tags[depth - 1] !== tag) list.html += `</li></${list.tags.pop()}>`;
        if (list.tags.length === depth) list.html += "</li><li>";
      }
      while (list.tags.length < depth) {
        list.html += `<${tag}${m[3] && m[3] !== "1" ? ` start="${+m[3]}"` : ""}><li>`;
        list.tags.push(tag);
      }
      list.html += mdEmph(m[4]);
      continue;
    }
    endList();
    if ((m = line.match(/^(#{1,3}) +(.+)$/))) sink.push(`<div class="h${m[1].length}">${mdEmph(m[2])}</div>`);
    else if ((m = line.match(/^-# +(.+)$/))) sink.push(`<div class="subtext">${mdEmph(m[1])}</div>`);
    else sink.push(`<div class="line">${mdEmph(line) || "&nbsp;"}</div>`);
  }
  endQuote();
  endList();
  return mdRestore(held, out.join(""));
}

function attURL(m, filename) {
  const a = m.attachments.find(a => a.filename === filename);
  return a ? a.url + "&user=" + encodeURIComponent(state.me) : "";
}

function imageURL(m, url) {
  if (!url) return "";
  return url.startsWith("attachment://") ? attURL(m, url.slice(13)) : url;
}

function emoji(e) {
  return e && e.name ? (e.id ? `:${esc(e.name)}:` : esc(e.name)) + " " : "";
}

function renderEmbed(m, e) {
  const el = document.createElement("div");
  el.className = "embed";
  if (e.color !== undefined && e.color !== null) el.style.borderLeftColor = "#" + e.color.toString(16).padStart(6, "0");
  let h = "";
  if (e.thumbnail && e.thumbnail.url) h += `<img class="thumb" src="${esc(imageURL(m, e.thumbnail.url))}" alt="">`;
  if (e.author && e.author.name) h += `<div class="eauthor">${esc(e.author.name)}</div>`;
  if (e.title) h += `<div class="title">${inline(e.title)}</div>`;
  if (e.description) h += `<div class="desc">${markdown(e.description)}</div>`;
  if (e.fields && e.fields.length) {
    h += `<div class="fields">` + e.fields.map(f =>
      `<div class="field${f.inline ? " inline" : ""}"><div class="fname">${inline(f.name)}</div><div class="fvalue">${markdown(f.value)}</div></div>`).join("") + `</div>`;
  }
  if (e.image && e.image.url) h += `<img class="image" src="${esc(imageURL(m, e.image.url))}" alt="" onload="follow()">`;
  if (e.footer && e.footer.text) h += `<div class="footer">${esc(e.footer.text)}</div>`;
  el.innerHTML = h;
  return el;
}

// renderComponents draws action rows with buttons and select menus.
function renderComponents(m, comps, parent) {
  for (const c of comps || []) {
    if (c.type === 1) {
      const row = document.createElement("div");
      row.className = "row";
      renderComponents(m, c.components, row);
      parent.appendChild(row);
    } else if (c.type === 2) {
      if (c.style === 5) {
        const a = document.createElement("a");
        a.className = "btn s5";
        a.href = c.url;
        a.target = "_blank";
        a.innerHTML = emoji(c.emoji) + esc(c.label || "") + " ↗";
        parent.appendChild(a);
        continue;
      }
      const b = document.createElement("button");
      b.type = "button";
      b.className = "btn s" + (c.style || 1);
      b.dataset.cid = c.custom_id || "";
      b.disabled = !!c.disabled;
      b.innerHTML = emoji(c.emoji) + esc(c.label || "");
      b.addEventListener("click", () => click(m, c.custom_id, b));
      parent.appendChild(b);
    } else if (c.type >= 3 && c.type <= 8) {
      parent.appendChild(renderSelect(m, c));
    } else if (c.type === 10 && c.content) {
      const d = document.createElement("div");
      d.className = "content";
      d.innerHTML = markdown(c.content);
      parent.appendChild(d);
    } else if (c.components) {
      renderComponents(m, c.components, parent);
    }
  }
}

// renderSelect draws a string select menu: a box that opens a list. One
// value is sent at once; several are sent when the list closes, as in
// Discord.
function renderSelect(m, c) {
  const el = document.createElement("div");
  el.className = "select" + (c.disabled ? " disabled" : "");
  el.dataset.cid = c.custom_id;
  const opts = c.options || [];
  const min = c.min_values === undefined ? 1 : c.min_values, max = c.max_values === undefined ? 1 : c.max_values;
  const initial = opts.filter(o => o.default).map(o => o.value);
  let chosen = initial.slice();
  const box = document.createElement("div");
  box.className = "box";
  const menu = document.createElement("div");
  menu.className = "menu";
  menu.hidden = true;
  const drawBox = () => {
    const labels = opts.filter(o => chosen.includes(o.value)).map(o => emoji(o.emoji) + esc(o.label));
    box.innerHTML = (labels.length ? `<span class="val">${labels.join(", ")}</span>` : `<span class="ph">${esc(c.placeholder || tr("select"))}</span>`) + "<span>▾</span>";
  };
  const close = () => {
    menu.hidden = true;
    el.classList.remove("open");
    const same = chosen.length === initial.length && chosen.every(v => initial.includes(v));
    if (!same && chosen.length >= min) select(m, c.custom_id, chosen, el);
  };
  for (const o of opts) {
    const d = document.createElement("div");
    d.className = "opt" + (chosen.includes(o.value) ? " on" : "");
    d.dataset.value = o.value;
    d.innerHTML = `<span>${emoji(o.emoji)}${esc(o.label)}${o.description ? `<small>${esc(o.description)}</small>` : ""}</span>` +
      (max > 1 || min === 0 ? `<span class="check"></span>` : "");
    d.addEventListener("click", () => {
      if (max === 1) {
        chosen = chosen.includes(o.value) && min === 0 ? [] : [o.value];
        close();
        drawBox();
        return;
      }
      if (chosen.includes(o.value)) chosen = chosen.filter(v => v !== o.value);
      else if (chosen.length < max) chosen.push(o.value);
      d.classList.toggle("on", chosen.includes(o.value));
      drawBox();
    });
    menu.appendChild(d);
  }
  if (max > 1 || min === 0) {
    const done = document.createElement("button");
    done.type = "button";
    done.className = "btn s1 done";
    done.textContent = "✓";
    done.addEventListener("click", close);
    menu.appendChild(done);
  }
  box.addEventListener("click", () => {
    if (c.disabled) return;
    if (menu.hidden) {
      document.querySelectorAll(".select.open").forEach(s => s !== el && s.closeMenu && s.closeMenu());
      menu.hidden = false;
      el.classList.add("open");
      if (state.scrollIntent) state.scrollIntent();
      menu.scrollIntoView({ block: "nearest" });
    } else close();
  });
  el.closeMenu = close;
  drawBox();
  el.append(box, menu);
  return el;
}

// AVATARS are Discord's default avatar colours: each sandbox user gets
// their own, in the order of the sidebar.
const AVATARS = ["#5865f2", "#3ba55c", "#faa61a", "#ed4245", "#eb459f", "#757e8a"];

function avatar(name, bot) {
  const a = document.createElement("div");
  a.className = "avatar";
  a.textContent = bot ? "Q" : (name || "?").slice(0, 1);
  if (!bot) {
    let i = state.users.findIndex(u => u.name === name);
    if (i < 0) {
      i = 0;
      for (const ch of name || "?") i = (i * 31 + ch.codePointAt(0)) % AVATARS.length;
    }
    a.style.background = AVATARS[i % AVATARS.length];
  }
  return a;
}

function renderMessage(m) {
  const el = document.createElement("div");
  el.className = "msg" + (m.ephemeral ? " ephemeral" : "");
  el.dataset.id = m.id;
  el.dataset.version = m.version;
  const body = document.createElement("div");
  body.className = "body";
  const time = new Date(m.time).toLocaleTimeString(myLocale(), { hour: "2-digit", minute: "2-digit" });
  body.innerHTML = (m.used_by ? `<div class="used">↱ ${esc(tr("used", m.used_by, usedName(m.used_command)))}</div>` : "") + `<div class="head"><span class="author">${esc(m.author)}</span>${m.bot ? '<span class="tag">APP</span>' : ""}` +
    `<span class="time">${esc(time)}</span>${m.edited ? `<span class="edited">${esc(tr("edited"))}</span>` : ""}</div>`;
  const content = document.createElement("div");
  content.className = "content";
  content.innerHTML = m.loading ? `<span class="loading">${esc(tr("thinking"))}</span>` : markdown(m.content);
  if (m.loading || m.content) body.appendChild(content);
  const inEmbeds = new Set();
  for (const e of m.embeds || []) {
    for (const u of [e.image && e.image.url, e.thumbnail && e.thumbnail.url]) if (u && u.startsWith("attachment://")) inEmbeds.add(u.slice(13));
  }
  const atts = document.createElement("div");
  atts.className = "attachments";
  for (const a of m.attachments) {
    if (inEmbeds.has(a.filename)) continue;
    if (a.image) {
      const img = document.createElement("img");
      img.src = attURL(m, a.filename);
      img.alt = a.filename;
      img.addEventListener("load", follow);
      atts.appendChild(img);
    } else {
      const l = document.createElement("a");
      l.href = attURL(m, a.filename);
      l.textContent = "📎 " + a.filename;
      atts.appendChild(l);
    }
  }
  body.appendChild(atts);
  for (const e of m.embeds || []) body.appendChild(renderEmbed(m, e));
  renderComponents(m, m.components, body);
  if (m.ephemeral) {
    const n = document.createElement("div");
    n.className = "ephnote";
    n.innerHTML = `👁 ${esc(tr("only"))} · <a class="dismiss">${esc(tr("dismiss"))}</a>`;
    $(".dismiss", n).addEventListener("click", () => { state.dismissed.add(m.id); sizes.unobserve(el); el.remove(); });
    body.appendChild(n);
  }
  el.append(avatar(m.author, m.bot), body);
  return el;
}

// follow keeps the newest message fully in view while the list follows
// the channel (state.stick), as Discord does: until the user scrolls up.
// It runs whenever a message or the list changes size (a picture loads, a
// message is edited, the window or the composer changes).
function follow() {
  const list = $("#messages");
  if (!state.stick) return;
  list.scrollTop = list.scrollHeight;
  state.followed = list.scrollHeight;
}

// atBottom says whether the list shows its end.
function atBottom(list) {
  return list.scrollHeight - list.scrollTop - list.clientHeight < 24;
}

// setStick starts or stops following the channel; while the user reads
// older messages, the "jump to present" bar is shown.
function setStick(on) {
  state.stick = on;
  $("#jump").hidden = on;
}

// The list follows new messages until the user scrolls away from its end
// (wheel, touch, keys, the scroll bar, or anything that scrolls the list
// while it keeps its height: finding text in the page, a focused button).
// A scroll that comes with a change of the list's height is the page's
// (a picture grew the list before it was followed): the list follows on.
// Reaching the end again resumes following.
const sizes = new ResizeObserver(() => follow());
function setupScroll() {
  const list = $("#messages");
  let intent = -1e9;
  const user = () => { intent = performance.now(); };
  list.addEventListener("wheel", user, { passive: true });
  list.addEventListener("touchmove", user, { passive: true });
  list.addEventListener("pointerdown", ev => { if (ev.target === list) user(); });
  document.addEventListener("keydown", ev => {
    if (["PageUp", "PageDown", "Home", "End", "ArrowUp", "ArrowDown", " "].includes(ev.key) && ev.target instanceof Element && !ev.target.closest("input, select, textarea, button")) user();
  });
  state.scrollIntent = user;
  list.addEventListener("scroll", () => {
    if (atBottom(list)) setStick(true);
    else if (performance.now() - intent < 1500 || list.scrollHeight === state.followed) setStick(false);
    else follow();
  });
  $("#jump").addEventListener("click", () => { setStick(true); follow(); });
  sizes.observe(list);
}

// group hides the header of a message that follows one of the same author
// within seven minutes, as Discord does.
function group(el) {
  if (!el) return;
  const prev = el.previousElementSibling;
  const p = prev && state.msgs.get(prev.dataset.id), m = state.msgs.get(el.dataset.id);
  el.classList.toggle("cont", !!(p && m && p.author === m.author && m.time - p.time < 7 * 60 * 1000 && !m.ephemeral && !p.ephemeral));
}

function idLess(a, b) {
  return a.length !== b.length ? a.length < b.length : a < b;
}

// upsert draws a message's newest state in its place (by ID order).
function upsert(m) {
  const list = $("#messages");
  const old = state.msgs.get(m.id);
  if (old && old.version > m.version && !m.deleted) return;
  const oldEl = list.querySelector(`.msg[data-id="${m.id}"]`);
  if (m.deleted || state.dismissed.has(m.id)) {
    state.msgs.delete(m.id);
    if (oldEl) {
      const next = oldEl.nextElementSibling;
      sizes.unobserve(oldEl);
      oldEl.remove();
      group(next);
    }
    return;
  }
  state.msgs.set(m.id, m);
  const el = renderMessage(m);
  if (oldEl) {
    sizes.unobserve(oldEl);
    oldEl.replaceWith(el);
  } else {
    let before = null;
    for (const other of list.children) {
      if (idLess(m.id, other.dataset.id)) { before = other; break; }
    }
    list.insertBefore(el, before);
  }
  sizes.observe(el);
  group(el);
  group(el.nextElementSibling);
  follow();
}

function toast(text) {
  const t = $("#toast");
  t.textContent = text || "";
  t.hidden = !text;
}

async function post(path, body) {
  try {
    const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const j = await r.json();
    toast(j.error || "");
    return j;
  } catch (e) {
    toast(tr("unreachable", e));
    return { error: String(e) };
  }
}

async function click(m, cid, btn) {
  btn.classList.add("busy");
  await post("/api/click", { user: state.me, message: m.id, custom_id: cid });
  btn.classList.remove("busy");
}

async function select(m, cid, values, el) {
  el.classList.add("busy");
  await post("/api/select", { user: state.me, message: m.id, custom_id: cid, values });
  el.classList.remove("busy");
}

// clearList empties the channel.
function clearList() {
  state.msgs.clear();
  for (const el of document.querySelectorAll("#messages .msg")) sizes.unobserve(el);
  $("#messages").innerHTML = "";
}

// connect follows the channel as the current user sees it.
function connect() {
  if (state.es) state.es.close();
  clearList();
  document.body.dataset.ready = "";
  $("#conn").textContent = tr("connecting");
  const es = new EventSource("/api/events?user=" + encodeURIComponent(state.me));
  state.es = es;
  es.addEventListener("snapshot", e => {
    clearList();
    for (const m of JSON.parse(e.data)) upsert(m);
    $("#conn").textContent = "";
    document.body.dataset.ready = state.me;
  });
  es.addEventListener("message", e => upsert(JSON.parse(e.data)));
  setStick(true);
  es.onerror = () => { $("#conn").textContent = tr("reconnecting"); };
}

function drawUsers() {
  const box = $("#users");
  box.innerHTML = "";
  for (const u of state.users) {
    const d = document.createElement("div");
    d.className = "user" + (u.id === state.me ? " me" : "");
    d.dataset.user = u.name;
    d.append(avatar(u.name, false), document.createTextNode(u.name));
    d.addEventListener("click", () => switchUser(u.id));
    box.appendChild(d);
  }
  $("#user-locale").value = myLocale();
  if (document.activeElement !== $("#user-name")) $("#user-name").value = userName(state.me);
  applyWords();
}

// rename gives the user the page plays as a new name (a sandbox user's
// name, as the fake Discord sends it to the bot), e.g. to try the pictures
// with a right-to-left or Indic name.
async function rename() {
  const field = $("#user-name"), name = field.value.trim(), me = state.me;
  if (name === userName(me)) return;
  const n = [...name].length;
  if (n < 1 || n > 32 || /\p{Cc}/u.test(name)) { toast(tr("nameInvalid")); return; }
  if (state.users.some(u => u.id !== me && u.name === name)) { toast(tr("nameTaken", name)); return; }
  const j = await post("/api/rename", { user: me, name });
  if (j.error) return;
  state.users.find(u => u.id === me).name = name;
  field.blur();
  drawUsers();
  for (const m of [...state.msgs.values()]) upsert(m);
}

function switchUser(id) {
  if (id === state.me) return;
  state.me = id;
  state.dismissed.clear();
  localStorage.setItem("qwixx-sandbox-user", id);
  drawUsers();
  resetComposer();
  markLocales();
  connect();
}

// ---- slash commands ----

// loc picks a localised name or description for the user's locale.
function loc(obj, field) {
  const l = myLocale(), m = obj[field + "_localizations"];
  if (m) {
    if (m[l]) return m[l];
    const short = l.split("-")[0];
    if (m[short]) return m[short];
  }
  return obj[field];
}

// leaves lists every command path one can run: /cmd, /cmd sub, /cmd group sub.
function leaves() {
  const out = [];
  for (const c of state.commands) {
    if (c.type && c.type !== 1) continue;
    const subs = (c.options || []).filter(o => o.type === 1 || o.type === 2);
    if (!subs.length) { out.push({ cmd: c, path: [], leaf: c }); continue; }
    for (const s of subs) {
      if (s.type === 1) out.push({ cmd: c, path: [s], leaf: s });
      else for (const s2 of s.options || []) out.push({ cmd: c, path: [s, s2], leaf: s2 });
    }
  }
  return out;
}

// usedName names a command path run ("qwixx new") as the user's client
// shows it.
function usedName(path) {
  const x = leaves().find(x => pathOf(x) === path);
  return x ? leafName(x) : "/" + path;
}

// pathOf is a command leaf's registered path: "qwixx new".
function pathOf(x) {
  return [x.cmd.name, ...x.path.map(p => p.name)].join(" ");
}

function leafName(x) {
  return "/" + [loc(x.cmd, "name"), ...x.path.map(p => loc(p, "name"))].join(" ");
}

let sugIndex = 0;
function suggest() {
  const box = $("#suggest"), text = $("#input").value;
  if (state.picked || !text.startsWith("/")) { box.hidden = true; return; }
  const q = text.slice(1).trim().toLowerCase();
  const found = leaves().filter(x => {
    const canon = "/" + pathOf(x);
    return leafName(x).toLowerCase().includes(q) || canon.toLowerCase().includes(q);
  });
  box.innerHTML = "";
  sugIndex = Math.min(sugIndex, Math.max(0, found.length - 1));
  found.forEach((x, i) => {
    const d = document.createElement("div");
    d.className = "sug" + (i === sugIndex ? " sel" : "");
    d.dataset.cmd = pathOf(x);
    const opts = (x.leaf.options || []).map(o => (o.required ? "" : "[") + loc(o, "name") + (o.required ? "" : "]")).join(" ");
    d.innerHTML = `<span class="name">${esc(leafName(x))}</span><span class="opts">${esc(opts)}</span><span class="d">${esc(loc(x.leaf, "description") || "")}</span>`;
    d.addEventListener("mousedown", ev => { ev.preventDefault(); pick(x); });
    box.appendChild(d);
  });
  box.hidden = found.length === 0;
  box.found = found;
}

// pick chooses a command: its options become fields beside it.
function pick(x) {
  state.picked = x;
  $("#suggest").hidden = true;
  const chip = $("#cmdchip");
  chip.textContent = leafName(x);
  chip.hidden = false;
  $("#input").value = "";
  $("#input").placeholder = tr("picked");
  const box = $("#cmdopts");
  box.innerHTML = "";
  for (const o of x.leaf.options || []) {
    const f = document.createElement("span");
    f.className = "optf";
    f.dataset.option = o.name;
    const label = document.createElement("label");
    label.textContent = loc(o, "name") + ":";
    label.title = loc(o, "description") || "";
    let input;
    if (o.choices && o.choices.length) {
      input = document.createElement("select");
      input.innerHTML = (o.required ? "" : `<option value="">—</option>`) +
        o.choices.map((c, i) => `<option value="${i}">${esc(loc(c, "name"))}</option>`).join("");
      input.choices = o.choices;
    } else if (o.type === 5) {
      input = document.createElement("select");
      input.innerHTML = (o.required ? "" : `<option value="">—</option>`) + `<option value="true">True</option><option value="false">False</option>`;
    } else if (o.type === 6 || o.type === 9) {
      input = document.createElement("select");
      input.innerHTML = (o.required ? "" : `<option value="">—</option>`) +
        state.users.map(u => `<option value="${esc(u.id)}">@${esc(u.name)}</option>`).join("");
    } else if (o.autocomplete) {
      // The bot proposes the values as the user types (Discord's
      // autocomplete): choices appear above the composer.
      input = document.createElement("input");
      input.type = "text";
      input.size = 14;
      input.autocomplete = "off";
      let timer = 0;
      const ask = () => { clearTimeout(timer); timer = setTimeout(() => autocomplete(input), 150); };
      input.addEventListener("focus", ask);
      input.addEventListener("input", () => { input.acValue = undefined; ask(); });
      input.addEventListener("blur", () => setTimeout(() => { if (state.acFor === input) hideAutocomplete(); }, 150));
    } else {
      input = document.createElement("input");
      input.type = o.type === 4 || o.type === 10 ? "number" : "text";
      if (o.min_value !== undefined) input.min = o.min_value;
      if (o.max_value !== undefined) input.max = o.max_value;
      if (o.type === 4) input.step = 1;
      input.size = 6;
    }
    input.option = o;
    // Esc cancels the command here too, as the placeholder says.
    input.addEventListener("keydown", ev => {
      if (ev.key === "Escape") { ev.preventDefault(); resetComposer(); $("#input").focus(); }
    });
    f.append(label, input);
    box.appendChild(f);
  }
  $("#input").focus();
}

// pickedOptions reads the option fields of the picked command. strict
// refuses a missing required option (sending); otherwise (autocompleting)
// missing ones are left out, and the field being typed into is sent as
// typed.
function pickedOptions(strict, focused) {
  const options = {};
  for (const f of document.querySelectorAll("#cmdopts .optf")) {
    const input = $("select, input", f), o = input.option;
    if (input === focused) { options[o.name] = input.value; continue; }
    if (input.value === "") {
      if (o.required && strict) { toast(tr("required", loc(o, "name"))); return null; }
      continue;
    }
    if (input.choices) options[o.name] = input.choices[+input.value].value;
    else if (input.acValue !== undefined && input.value === input.acName) options[o.name] = input.acValue;
    else if (o.type === 5) options[o.name] = input.value === "true";
    else if (o.type === 4 || o.type === 10) options[o.name] = Number(input.value);
    else options[o.name] = input.value;
  }
  return options;
}

// autocomplete asks the bot for the choices of the option being typed
// into and lists them above the composer; picking one fills the field.
async function autocomplete(input) {
  const x = state.picked;
  if (!x || document.activeElement !== input) return;
  const body = { user: state.me, name: x.cmd.name, sub: x.path.map(p => p.name).join(" "),
    options: pickedOptions(false, input), focused: input.option.name };
  const asked = input.value;
  const j = await post("/api/autocomplete", body);
  if (state.picked !== x || document.activeElement !== input || input.value !== asked) return;
  const box = $("#suggest");
  box.innerHTML = "";
  box.found = null;
  state.acFor = input;
  const choices = j.choices || [];
  if (!choices.length) {
    box.innerHTML = `<div class="sug acnone">${esc(j.error || tr("noOptions"))}</div>`;
  }
  for (const c of choices) {
    const d = document.createElement("div");
    d.className = "sug ac";
    d.dataset.value = String(c.value);
    d.innerHTML = `<span class="name">${esc(loc(c, "name"))}</span>`;
    d.addEventListener("mousedown", ev => {
      ev.preventDefault();
      input.value = loc(c, "name");
      input.acName = input.value;
      input.acValue = c.value;
      hideAutocomplete();
    });
    box.appendChild(d);
  }
  box.hidden = false;
}

function hideAutocomplete() {
  state.acFor = null;
  $("#suggest").hidden = true;
}

function resetComposer() {
  state.picked = null;
  state.acFor = null;
  $("#cmdchip").hidden = true;
  $("#cmdopts").innerHTML = "";
  $("#input").value = "";
  drawUsers();
  suggest();
}

async function send() {
  const x = state.picked;
  if (!x) {
    const box = $("#suggest");
    if (!box.hidden && box.found && box.found.length) pick(box.found[sugIndex]);
    else if ($("#input").value.trim().startsWith("/")) toast(tr("unknownCmd", $("#input").value.trim().split(/\s+/)[0], leaves().map(leafName).join(", ")));
    else if ($("#input").value.trim()) toast(tr("noMessages"));
    return;
  }
  const options = pickedOptions(true, null);
  if (!options) return;
  const body = { user: state.me, name: x.cmd.name, sub: x.path.map(p => p.name).join(" "), options };
  resetComposer();
  await post("/api/command", body);
}

function setupComposer() {
  const input = $("#input");
  input.addEventListener("input", () => { sugIndex = 0; suggest(); });
  input.addEventListener("keydown", ev => {
    const box = $("#suggest");
    if (ev.key === "Escape") { resetComposer(); return; }
    if (!box.hidden && box.found) {
      if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
        ev.preventDefault();
        sugIndex = (sugIndex + (ev.key === "ArrowDown" ? 1 : box.found.length - 1)) % box.found.length;
        suggest();
      } else if (ev.key === "Tab") {
        ev.preventDefault();
        pick(box.found[sugIndex]);
      }
    }
    if (ev.key === "Backspace" && input.value === "" && state.picked) resetComposer();
  });
  $("#composer").addEventListener("submit", ev => { ev.preventDefault(); send(); });
  $("#user-locale").addEventListener("change", async ev => {
    await post("/api/locale", { user: state.me, locale: ev.target.value });
    state.users.find(u => u.id === state.me).locale = ev.target.value;
    resetComposer();
    // The client's own words on the messages shown change with it.
    for (const m of [...state.msgs.values()]) upsert(m);
    markLocales();
  });
  $("#user-name").addEventListener("change", rename);
  $("#user-name").addEventListener("keydown", ev => {
    if (ev.key === "Escape") { ev.target.value = userName(state.me); ev.target.blur(); }
  });
  $("#guild-locale").addEventListener("change", async ev => {
    await post("/api/locale", { user: "", locale: ev.target.value });
    state.guildLocale = ev.target.value;
    markLocales();
  });
  document.addEventListener("click", ev => {
    for (const s of document.querySelectorAll(".select.open")) if (!s.contains(ev.target)) s.closeMenu();
    const spoiler = ev.target instanceof Element && ev.target.closest(".spoiler");
    if (spoiler) spoiler.classList.add("shown");
  });
}

// markLocales shows on the page which locales are in force (tests wait
// for it after switching).
function markLocales() {
  document.body.dataset.locales = myLocale() + "|" + state.guildLocale;
}

// The commands are registered by the bot when it connects; fetch them
// again until they are there.
async function loadWorld() {
  const r = await fetch("/api/world");
  const w = await r.json();
  state.users = w.users;
  state.guildLocale = w.guild_locale;
  state.commands = w.commands || [];
  state.botId = w.bot.id;
  state.channelId = w.channel_id;
  state.channelName = w.channel;
  return w;
}

async function main() {
  await loadWorld();
  const saved = localStorage.getItem("qwixx-sandbox-user");
  state.me = state.users.some(u => u.id === saved) ? saved : state.users[0].id;
  const asParam = new URLSearchParams(location.search).get("as");
  const byName = state.users.find(u => u.name === asParam);
  if (byName) state.me = byName.id;
  drawUsers();
  $("#guild-locale").value = state.guildLocale;
  markLocales();
  setupComposer();
  setupScroll();
  connect();
  setInterval(() => {
    for (const t of document.querySelectorAll(".ts")) t.textContent = fmtTime(+t.dataset.t, t.dataset.s);
  }, 5000);
  while (!state.commands.length) {
    await new Promise(r => setTimeout(r, 1000));
    await loadWorld();
  }
  applyWords();
}

main();
