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

// inline renders Discord markdown within one line (already escaped).
function inline(s) {
  return s
    .replace(/&lt;@!?(\d+)&gt;/g, (_, id) => `<span class="mention">@${esc(userName(id))}</span>`)
    .replace(/&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;/g, (_, t, st) => `<span class="ts" data-t="${t}" data-s="${st || "f"}">${esc(fmtTime(+t, st || "f"))}</span>`)
    .replace(/&lt;a?:(\w+):\d+&gt;/g, ":$1:")
    .replace(/`([^`]+)`/g, "<code>$1</code>")
    .replace(/\*\*(.+?)\*\*/g, "<b>$1</b>")
    .replace(/__(.+?)__/g, "<u>$1</u>")
    .replace(/~~(.+?)~~/g, "<s>$1</s>")
    .replace(/(^|[^*\w])\*([^*\s][^*]*?)\*(?!\w)/g, "$1<i>$2</i>")
    .replace(/(^|\W)_([^_\s][^_]*?)_(?!\w)/g, "$1<i>$2</i>")
    .replace(/\[([^\]]+)\]\((https?:[^)\s]+)\)/g, '<a href="$2" target="_blank" rel="noreferrer">$1</a>');
}

// markdown renders a message text: lines, quotes, headings and subtext.
function markdown(text) {
  const out = [];
  for (const raw of String(text || "").split("\n")) {
    let line = esc(raw), m;
    if ((m = line.match(/^&gt; ?(.*)$/))) out.push(`<blockquote>${inline(m[1])}</blockquote>`);
    else if ((m = line.match(/^(#{1,3}) (.*)$/))) out.push(`<b style="font-size:${[0, 24, 20, 16][m[1].length]}px">${inline(m[2])}</b>`);
    else if ((m = line.match(/^-# (.*)$/))) out.push(`<span class="subtext">${inline(m[1])}</span>`);
    else out.push(`<div class="line">${inline(line) || "&nbsp;"}</div>`);
  }
  return out.join("");
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
  if (e.title) h += `<div class="title">${inline(esc(e.title))}</div>`;
  if (e.description) h += `<div class="desc">${markdown(e.description)}</div>`;
  if (e.fields && e.fields.length) {
    h += `<div class="fields">` + e.fields.map(f =>
      `<div class="field${f.inline ? " inline" : ""}"><div class="fname">${inline(esc(f.name))}</div><div class="fvalue">${markdown(f.value)}</div></div>`).join("") + `</div>`;
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
    $(".dismiss", n).addEventListener("click", () => { state.dismissed.add(m.id); el.remove(); });
    body.appendChild(n);
  }
  el.append(avatar(m.author, m.bot), body);
  return el;
}

// follow keeps the newest message in view while the list is scrolled to
// the bottom (pictures load after their message is drawn).
function follow() {
  const list = $("#messages");
  if (state.stick) list.scrollTop = list.scrollHeight;
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
      oldEl.remove();
      group(next);
    }
    return;
  }
  state.msgs.set(m.id, m);
  const el = renderMessage(m);
  if (oldEl) {
    // Keep an open select menu open when only other messages change.
    oldEl.replaceWith(el);
  } else {
    let before = null;
    for (const other of list.children) {
      if (idLess(m.id, other.dataset.id)) { before = other; break; }
    }
    list.insertBefore(el, before);
  }
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

// connect follows the channel as the current user sees it.
function connect() {
  if (state.es) state.es.close();
  state.msgs.clear();
  $("#messages").innerHTML = "";
  document.body.dataset.ready = "";
  $("#conn").textContent = tr("connecting");
  const es = new EventSource("/api/events?user=" + encodeURIComponent(state.me));
  state.es = es;
  es.addEventListener("snapshot", e => {
    state.msgs.clear();
    $("#messages").innerHTML = "";
    for (const m of JSON.parse(e.data)) upsert(m);
    $("#conn").textContent = "";
    document.body.dataset.ready = state.me;
  });
  es.addEventListener("message", e => upsert(JSON.parse(e.data)));
  state.stick = true;
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
  applyWords();
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
  const list = $("#messages");
  list.addEventListener("scroll", () => { state.stick = list.scrollHeight - list.scrollTop - list.clientHeight < 40; });
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
  $("#guild-locale").addEventListener("change", async ev => {
    await post("/api/locale", { user: "", locale: ev.target.value });
    state.guildLocale = ev.target.value;
    markLocales();
  });
  document.addEventListener("click", ev => {
    for (const s of document.querySelectorAll(".select.open")) if (!s.contains(ev.target)) s.closeMenu();
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
