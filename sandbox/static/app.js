// The sandbox's web client: one member of the loopback Discord at a time (sandbox/web.py).
"use strict";
(() => {
  const $ = (sel) => document.querySelector(sel);
  const esc = Markdown.esc;
  const COLORS = ["#5865f2", "#3ba55c", "#faa61a", "#ed4245", "#eb459e", "#9b59b6", "#1abc9c", "#e67e22"];
  const state = { world: null, member: null, channel: null, messages: new Map(), order: [],
    source: null, entries: [], active: -1, failed: new Set(), hidden: new Set() };
  const STORE = "ddz-sandbox";
  const CARD_ICON = '<svg viewBox="0 0 24 24" width="60%" height="60%" aria-hidden="true"><rect x="5" y="2.5" width="14" height="19" rx="2.5" fill="#fff"/><path d="M12 7.2c1.6 2.1 3.6 3.4 3.6 5.3a2 2 0 0 1-3.1 1.7l.6 2.6h-2.2l.6-2.6a2 2 0 0 1-3.1-1.7c0-1.9 2-3.2 3.6-5.3Z" fill="#5865f2"/></svg>';
  const EYE_ICON = '<svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true"><path fill="currentColor" d="M12 5C5.6 5 2 12 2 12s3.6 7 10 7 10-7 10-7-3.6-7-10-7Zm0 11.5a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9Zm0-2.3a2.2 2.2 0 1 0 0-4.4 2.2 2.2 0 0 0 0 4.4Z"/></svg>';

  // Discord's own words, in the member's language (the bot's words come from the bot).
  const UI = {
    en: { only: "Only you can see this", dismiss: "Dismiss message", used: "used", thinking: "is thinking",
      edited: "(edited)", today: "Today at", message: "Message", failed: "This interaction failed",
      noanswer: "The application did not respond", channels: "Text channels", online: "Online",
      playing: "Playing as", select: "Make a selection", welcome: "Welcome to", begin: "Type /ddz to begin.",
      matching: "Commands matching", required: "required", onlyslash: "Only slash commands reach the bot here: type / to see them.",
      topic: "Sandbox: the real bot on a loopback Discord. Nothing leaves this machine.", playas: "Play as" },
    es: { only: "Solo tú puedes ver esto", dismiss: "Descartar mensaje", used: "ha usado", thinking: "está pensando",
      edited: "(editado)", today: "Hoy a las", message: "Enviar mensaje a", failed: "Esta interacción ha fallado",
      noanswer: "La aplicación no ha respondido", channels: "Canales de texto", online: "En línea",
      playing: "Jugando como", select: "Elige una opción", welcome: "Te damos la bienvenida a", begin: "Escribe /ddz para empezar.",
      matching: "Comandos que coinciden con", required: "obligatorio", onlyslash: "Aquí solo los comandos con / llegan al bot: escribe / para verlos.",
      topic: "Sandbox: el bot de verdad en un Discord local. Nada sale de esta máquina.", playas: "Jugar como" },
    "zh-CN": { only: "仅你可见", dismiss: "忽略消息", used: "使用了", thinking: "正在思考",
      edited: "（已编辑）", today: "今天", message: "发消息到", failed: "此交互失败",
      noanswer: "应用程序未响应", channels: "文字频道", online: "在线",
      playing: "当前身份", select: "请选择", welcome: "欢迎来到", begin: "输入 /ddz 开始。",
      matching: "匹配的命令", required: "必填", onlyslash: "这里只有斜杠命令能发给机器人：输入 / 查看。",
      topic: "沙盒：真正的机器人连着本机模拟的 Discord，什么都不会离开这台机器。", playas: "扮演" },
    "zh-TW": { only: "只有你看得到", dismiss: "關閉訊息", used: "使用了", thinking: "正在思考",
      edited: "（已編輯）", today: "今天", message: "傳送訊息到", failed: "此互動失敗",
      noanswer: "應用程式沒有回應", channels: "文字頻道", online: "線上",
      playing: "目前身分", select: "請選擇", welcome: "歡迎來到", begin: "輸入 /ddz 開始。",
      matching: "符合的指令", required: "必填", onlyslash: "這裡只有斜線指令能傳給機器人：輸入 / 查看。",
      topic: "沙盒：真正的機器人連著本機模擬的 Discord，什麼都不會離開這台電腦。", playas: "扮演" },
  };
  // A locale's own words (zh-CN, zh-TW), else its language's (en-GB → en, es-419 → es).
  const uiOf = (locale) => UI[locale] || UI[locale.slice(0, 2)] || UI.en;
  const tr = (key) => uiOf(state.member?.locale || "en")[key];
  // The language picker names each locale as Discord's settings do.
  const LOCALE_NAMES = { "en-US": "English, US", "en-GB": "English, UK", "es-ES": "Español",
    "es-419": "Español, LATAM", "zh-CN": "中文 (简体)", "zh-TW": "中文 (繁體)" };

  // ---- helpers --------------------------------------------------------------------
  const memberOf = (id) => state.world.members.find((m) => m.id === id);
  const colorOf = (id) => COLORS[Number(BigInt(id) % BigInt(COLORS.length))];
  function avatar(name, id, big) {
    const el = document.createElement("div");
    el.className = "avatar" + (big ? " big" : "");
    el.style.background = id === state.world.bot.id ? "#5865f2" : colorOf(id);
    if (id === state.world.bot.id) el.innerHTML = CARD_ICON;
    else el.textContent = name.slice(0, 1).toUpperCase();
    return el;
  }
  function md(text) {
    const names = { [state.world.bot.id]: state.world.bot.name };
    state.world.members.forEach((m) => { names[m.id] = m.name; });
    const channels = {};
    state.world.channels.forEach((c) => { channels[c.id] = c.name; });
    return Markdown.render(text, { names, channels, me: state.member.id, locale: state.member.locale });
  }
  const safeUrl = (u) => (/^(https?|discord):\/\//i.test(u || "") ? u : null);  // as Discord allows
  const loc = (item, key) => (item[key + "_localizations"] || {})[state.member?.locale] || item[key] || "";
  // Dates as the Discord app shows them: in the member's Discord language, not the browser's.
  function when(iso) {
    const d = new Date(iso);
    const locale = state.member?.locale || "en-US";
    const time = d.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" });
    return d.toDateString() === new Date().toDateString() ? `${tr("today")} ${time}` : d.toLocaleString(locale);
  }
  async function post(path, body) {
    const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ member: state.member.id, ...body }) });
    if (!r.ok) return { error: await r.text() };
    return r.json();
  }
  function notice(text) {
    const n = $("#notice");
    n.textContent = text; n.hidden = !text;
    clearTimeout(notice.t);
    if (text) notice.t = setTimeout(() => { n.hidden = true; }, 6000);
  }

  // ---- world, channels, members ------------------------------------------------------
  async function loadWorld() {
    state.world = await (await fetch("/api/world")).json();
    buildEntries();
  }
  function renderSidebar() {
    const w = state.world;
    $("#guild-name").textContent = w.guild.name;
    $("#guild-icon").title = w.guild.name;
    const chans = $("#channels");
    chans.replaceChildren(...w.channels.map((c) => {
      const li = document.createElement("li");
      li.textContent = c.name; li.dataset.id = c.id;
      li.className = c.id === state.channel.id ? "active" : "";
      li.onclick = () => { state.channel = c; save(); renderSidebar(); connect(); menu(false); };
      return li;
    }));
    const sel = $("#member");
    sel.replaceChildren(...w.members.map((m) => {
      const o = document.createElement("option");
      o.value = m.id; o.textContent = m.name; o.selected = m.id === state.member.id;
      return o;
    }));
    $("#me-avatar").replaceWith(Object.assign(avatar(state.member.name, state.member.id), { id: "me-avatar" }));
    $("#locale").replaceChildren(...w.locales.map((code) => {
      const o = document.createElement("option");
      o.value = code; o.textContent = LOCALE_NAMES[code] || code; o.selected = code === state.member.locale;
      return o;
    }));
    const people = [{ ...w.bot, bot: true }, ...w.members];
    $("#members").replaceChildren(...people.map((m) => {
      const li = document.createElement("li");
      li.append(avatar(m.name, m.id));
      const name = document.createElement("span");
      name.innerHTML = esc(m.name) + (m.bot ? '<span class="bot-tag">✓ App</span>' : "");
      li.append(name);
      if (m.bot) li.title = "The real ddz-bot, running against this loopback Discord";
      else { li.title = `${tr("playas")} ${m.name} (${m.locale})`; li.onclick = () => switchMember(m.id); }
      if (m.id === state.member.id) li.className = "me";
      return li;
    }));
    $("#channel-name").textContent = state.channel.name;
    $("#input").placeholder = `${tr("message")} #${state.channel.name}`;
    document.documentElement.lang = state.member.locale;
    document.querySelectorAll(".sidebar-title")[0].textContent = tr("channels");
    document.querySelectorAll(".sidebar-title")[1].textContent = tr("online");
    $(".me-label").textContent = tr("playing");
    $(".topic").textContent = tr("topic");
  }
  // On a phone the sidebar (channels, who you play as, the language) slides in over the chat.
  function menu(open) {
    $("#app").classList.toggle("menu-open", open);
    $("#menu-toggle").setAttribute("aria-expanded", String(open));
  }
  function switchMember(id) {
    state.member = memberOf(id);
    state.failed.clear();
    save(); buildEntries(); renderSidebar(); connect();
  }
  function save() {
    sessionStorage.setItem(STORE, JSON.stringify({ member: state.member.id, channel: state.channel.id }));
  }

  // ---- live messages -------------------------------------------------------------------
  function connect() {
    const old = state.source;
    state.source = null;
    if (old) old.close();
    state.messages.clear(); state.order = [];
    renderAll();
    const q = new URLSearchParams({ member: state.member.id, channel: state.channel.id });
    // A WebSocket, not an EventSource: an event stream held one of the browser's six
    // connections per host for as long as the tab was open, and a seventh tab hung.
    const source = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/api/ws?${q}`);
    state.source = source;
    source.onclose = () => {  // the sandbox restarted or the network blinked: come back
      if (source === state.source) setTimeout(() => { if (source === state.source) connect(); }, 1000);
    };
    source.onmessage = (ev) => {
      if (source !== state.source) return;
      const data = JSON.parse(ev.data);
      if (data.reset) {
        state.messages.clear(); state.order = [];
        data.reset.forEach((m) => { state.messages.set(m.id, m); state.order.push(m.id); });
        renderAll();
      } else if (data.upsert) {
        const m = data.upsert;
        const known = state.messages.has(m.id);
        state.messages.set(m.id, m);
        if (!known) state.order.push(m.id);
        renderOne(m, known);
      } else if (data.remove) {
        state.messages.delete(data.remove);
        state.order = state.order.filter((id) => id !== data.remove);
        document.getElementById(`m${data.remove}`)?.remove();
        regroup();
      } else if (data.commands) {
        loadWorld();
      }
    };
  }
  function nearBottom() {
    const box = $("#messages");
    return box.scrollHeight - box.scrollTop - box.clientHeight < 120;
  }
  function renderAll() {
    const box = $("#messages");
    const items = state.order.filter((id) => !state.hidden.has(id)).map((id) => renderMessage(state.messages.get(id)));
    if (!items.length) {
      const e = document.createElement("div");
      e.className = "empty";
      e.innerHTML = `${esc(tr("welcome"))} <b>#${esc(state.channel.name)}</b>. ${esc(tr("begin"))}`;
      items.push(e);
    }
    box.replaceChildren(...items);
    regroup();
    box.scrollTop = box.scrollHeight;
    state.stick = true;
  }
  function renderOne(m, known) {
    if (state.hidden.has(m.id)) return;
    const stick = nearBottom();
    const el = renderMessage(m);
    const old = document.getElementById(`m${m.id}`);
    const box = $("#messages");
    box.querySelector(".empty")?.remove();
    if (old) {
      const open = old.querySelector(".select.open");
      if (open) { pendingRedraw.set(m.id, m); return; }  // not under the member's pointer
      old.replaceWith(el);
    } else box.append(el);
    regroup();
    if (stick || !known) { box.scrollTop = box.scrollHeight; state.stick = true; }
  }
  const pendingRedraw = new Map();

  // Discord draws a message right after another of the same author (within 7 minutes)
  // without avatar and name; a reply to an interaction always has its own header.
  function regroup() {
    let prev = null;
    for (const el of $("#messages").children) {
      const g = el.dataset.group;
      const cont = !!g && prev !== null && prev.dataset.group === g &&
        Number(el.dataset.ts) - Number(prev.dataset.ts) < 7 * 60 * 1000;
      el.classList.toggle("cont", cont);
      prev = el;
    }
  }

  function renderMessage(m) {
    const el = document.createElement("article");
    el.className = "msg" + (m.ephemeral ? " ephemeral" : "");
    el.id = `m${m.id}`;
    el.dataset.id = m.id;
    el.dataset.group = m.ephemeral || m.used || m.interaction_metadata ? "" : m.author.id;
    el.dataset.ts = String(Date.parse(m.timestamp));
    if (m.used) {
      const used = document.createElement("div");
      used.className = "used";
      used.innerHTML = `<span class="who">${esc(m.used.user)}</span> ${esc(tr("used"))} <span class="cmd">${esc(m.used.command)}</span>`;
      el.append(used);
    }
    el.append(avatar(m.author.username, m.author.id, true));
    const head = document.createElement("div");
    head.className = "head";
    head.innerHTML = `<span class="author">${esc(m.author.username)}</span><span class="bot-tag">✓ App</span>` +
      `<span class="time" title="${esc(new Date(m.timestamp).toLocaleString(state.member.locale))}">${esc(when(m.timestamp))}</span>`;
    el.append(head);
    const body = document.createElement("div");
    body.className = "body";
    if (m.loading) {
      body.innerHTML = `<div class="thinking">${esc(m.author.username)} ${esc(tr("thinking"))}</div>`;
    } else {
      if (m.content) {
        const c = document.createElement("div");
        c.className = "content";
        c.innerHTML = md(m.content) + (m.edited_timestamp ? `<span class="edited">${esc(tr("edited"))}</span>` : "");
        body.append(c);
      }
      const files = new Map(m.attachments.map((a) => [a.filename, a]));
      const inEmbeds = new Set();
      (m.embeds || []).forEach((e) => body.append(renderEmbed(e, files, inEmbeds)));
      if (m.flags & (1 << 15)) body.append(renderV2(m.components, m, files, inEmbeds));
      const rest = m.attachments.filter((a) => !inEmbeds.has(a.filename));
      if (rest.length) {
        const box = document.createElement("div");
        box.className = "attachments";
        rest.forEach((a) => box.append(renderFile(a)));
        body.append(box);
      }
      if (!(m.flags & (1 << 15)) && m.components?.length) body.append(renderRows(m.components, m));
      if (!m.content && m.edited_timestamp && !m.embeds?.length) {
        const e = document.createElement("span"); e.className = "edited"; e.textContent = tr("edited"); body.append(e);
      }
    }
    if (state.failed.has(m.id)) {
      const f = document.createElement("div");
      f.className = "failed"; f.textContent = tr("failed");
      body.append(f);
    }
    if (m.ephemeral) {
      const n = document.createElement("div");
      n.className = "eph-note";
      n.innerHTML = `${EYE_ICON} ${esc(tr("only"))} • <a role="button">${esc(tr("dismiss"))}</a>`;
      n.querySelector("a").onclick = () => { state.hidden.add(m.id); el.remove(); };
      body.append(n);
    }
    el.append(body);
    return el;
  }
  function fileFor(url, files, used) {
    if (url && url.startsWith("attachment://")) {
      const a = files.get(url.slice(13));
      if (a) { used.add(a.filename); return a; }
    }
    return url ? { url, filename: "", description: "" } : null;
  }
  function renderImage(a) {
    const wrap = document.createElement("div");
    wrap.className = "image";
    const img = document.createElement("img");
    img.src = a.url; img.alt = a.description || a.filename || "image";
    img.onload = () => { if (state.stick) $("#messages").scrollTop = $("#messages").scrollHeight; };
    if (a.description) img.title = a.description;
    img.onclick = () => window.open(a.url, "_blank");
    wrap.append(img);
    if (a.description) {
      const badge = document.createElement("span"); badge.className = "alt"; badge.textContent = "ALT";
      const text = document.createElement("div"); text.className = "alt-text"; text.textContent = a.description;
      wrap.append(badge, text);
    }
    return wrap;
  }
  function renderFile(a) {  // images (an animated GIF too) inline, as Discord shows them
    if ((a.content_type || "").startsWith("image/") || /\.(png|gif|jpe?g|webp)$/i.test(a.filename || "")) {
      return renderImage(a);
    }
    const f = document.createElement("a");
    f.className = "file"; f.href = a.url; f.download = a.filename;
    f.textContent = `📄 ${a.filename} (${Math.ceil(a.size / 1024)} KB)`;
    return f;
  }
  function renderEmbed(e, files, used) {
    const el = document.createElement("div");
    el.className = "embed";
    if (e.color !== undefined && e.color !== null) el.style.borderLeftColor = `#${Number(e.color).toString(16).padStart(6, "0")}`;
    const thumb = fileFor(e.thumbnail?.url, files, used);
    if (thumb) { const t = document.createElement("img"); t.className = "embed-thumb"; t.src = thumb.url; t.alt = thumb.description || ""; el.append(t); }
    if (e.author?.name) el.insertAdjacentHTML("beforeend", `<div class="embed-author">${esc(e.author.name)}</div>`);
    if (e.title) {
      const t = safeUrl(e.url) ? `<a href="${esc(e.url)}" target="_blank" rel="noopener">${md(e.title)}</a>` : md(e.title);
      el.insertAdjacentHTML("beforeend", `<div class="embed-title content">${t}</div>`);
    }
    if (e.description) el.insertAdjacentHTML("beforeend", `<div class="embed-desc content">${md(e.description)}</div>`);
    if (e.fields?.length) {
      const fs = document.createElement("div");
      fs.className = "embed-fields";
      e.fields.forEach((f) => fs.insertAdjacentHTML("beforeend",
        `<div class="embed-field${f.inline ? " inline" : ""}"><div class="name content">${md(f.name)}</div><div class="value content">${md(f.value)}</div></div>`));
      el.append(fs);
    }
    const image = fileFor(e.image?.url, files, used);
    if (image) { const box = document.createElement("div"); box.className = "embed-image"; box.append(renderImage(image)); el.append(box); }
    if (e.footer?.text || e.timestamp) {
      const parts = [e.footer?.text, e.timestamp && when(e.timestamp)].filter(Boolean);
      el.insertAdjacentHTML("beforeend", `<div class="embed-footer">${parts.map(esc).join(" • ")}</div>`);
    }
    return el;
  }
  function renderV2(items, m, files, used) {
    const frag = document.createElement("div");
    frag.className = "rows";
    items.forEach((c) => frag.append(renderV2One(c, m, files, used)));
    return frag;
  }
  function renderV2One(c, m, files, used) {
    const el = document.createElement("div");
    if (c.type === 1) return renderRows([c], m);
    if (c.type === 10) { el.className = "content"; el.innerHTML = md(c.content); return el; }
    if (c.type === 14) { el.className = c.divider === false ? "" : "separator"; return el; }
    if (c.type === 17) {
      el.className = "container";
      if (c.accent_color) el.style.borderLeftColor = `#${Number(c.accent_color).toString(16).padStart(6, "0")}`;
      c.components.forEach((k) => el.append(renderV2One(k, m, files, used)));
      return el;
    }
    if (c.type === 9) {
      el.className = "section";
      const text = document.createElement("div");
      c.components.forEach((k) => text.append(renderV2One(k, m, files, used)));
      el.append(text);
      if (c.accessory) el.append(renderV2One(c.accessory, m, files, used));
      return el;
    }
    if (c.type === 2) return renderButton(c, m);
    if (c.type === 11 || c.type === 12) {
      (c.type === 11 ? [c] : c.items).forEach((item) => {
        const a = fileFor(item.media?.url, files, used);
        if (a) el.append(renderImage({ ...a, description: item.description || a.description }));
      });
      return el;
    }
    if (c.type === 13) { const a = fileFor(c.file?.url, files, used); if (a) el.append(renderFile(a)); return el; }
    if ([3, 5, 6, 7, 8].includes(c.type)) return renderSelect(c, m);
    return el;
  }

  // ---- components ----------------------------------------------------------------------
  function renderRows(rows, m) {
    const box = document.createElement("div");
    box.className = "rows";
    rows.forEach((row) => {
      const r = document.createElement("div");
      r.className = "row";
      (row.components || []).forEach((c) => r.append(c.type === 2 ? renderButton(c, m) : renderSelect(c, m)));
      box.append(r);
    });
    return box;
  }
  function emoji(e) {
    const s = document.createElement("span");
    s.className = "emoji";
    s.textContent = e.id ? `:${e.name}:` : e.name;
    return s;
  }
  function renderButton(c, m) {
    const link = c.style === 5;
    const b = document.createElement(link ? "a" : "button");
    b.className = `btn s${c.style}`;
    if (c.emoji) b.append(emoji(c.emoji));
    if (c.label) { const l = document.createElement("span"); l.textContent = c.label; b.append(l); }
    if (link) {
      if (safeUrl(c.url)) b.href = c.url;
      b.target = "_blank"; b.rel = "noopener";
      b.insertAdjacentHTML("beforeend", '<svg class="ext" viewBox="0 0 24 24" aria-hidden="true"><path fill="currentColor" d="M15 2a1 1 0 0 0 0 2h3.59l-7.3 7.3a1 1 0 0 0 1.42 1.4L20 5.42V9a1 1 0 1 0 2 0V3a1 1 0 0 0-1-1h-6ZM5 5a3 3 0 0 0-3 3v11a3 3 0 0 0 3 3h11a3 3 0 0 0 3-3v-5a1 1 0 1 0-2 0v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1h5a1 1 0 0 0 0-2H5Z"/></svg>');
      if (c.disabled) { b.setAttribute("aria-disabled", "true"); b.removeAttribute("href"); b.style.opacity = .5; }
      return b;
    }
    b.type = "button";
    b.disabled = !!c.disabled;
    b.dataset.customId = c.custom_id || "";
    b.onclick = async () => {
      b.classList.add("busy");
      const r = await post("/api/click", { message: m.id, custom_id: c.custom_id });
      b.classList.remove("busy");
      answered(m, r);
    };
    return b;
  }
  function answered(m, r) {
    if (r.error) notice(r.error);
    if (r.failed) { state.failed.add(m.id); const cur = state.messages.get(m.id); if (cur) renderOne(cur, true); }
    else if (state.failed.delete(m.id)) { const cur = state.messages.get(m.id); if (cur) renderOne(cur, true); }
  }
  function renderSelect(c, m) {
    const wrap = document.createElement("div");
    wrap.className = "select" + (c.disabled ? " disabled" : "");
    wrap.dataset.customId = c.custom_id;
    const multi = (c.max_values || 1) > 1;
    const options = c.options || [];
    const chosen = new Set(options.filter((o) => o.default).map((o) => o.value));
    const box = document.createElement("button");
    box.type = "button"; box.className = "select-box"; box.disabled = !!c.disabled;
    const label = () => {
      const picked = options.filter((o) => chosen.has(o.value));
      box.innerHTML = picked.length ? esc(picked.map((o) => (o.emoji ? (o.emoji.id ? `:${o.emoji.name}:` : o.emoji.name) + " " : "") + o.label).join(", "))
        : `<span class="placeholder">${esc(c.placeholder || tr("select"))}</span>`;
    };
    label();
    wrap.append(box);
    let menu = null;
    const close = async (send) => {
      if (!menu) return;
      menu.remove(); menu = null; wrap.classList.remove("open", "up");
      document.removeEventListener("mousedown", outside, true);
      if (send) {
        const values = [...chosen];
        const min = c.min_values ?? 1;
        if (values.length >= min) {
          box.classList.add("busy");
          const r = await post("/api/select", { message: m.id, custom_id: c.custom_id, values });
          answered(m, r);
        }
      }
      const later = pendingRedraw.get(m.id);
      if (later) { pendingRedraw.delete(m.id); renderOne(later, true); }
    };
    const outside = (ev) => { if (!wrap.contains(ev.target)) close(multi); };
    box.onclick = () => {
      if (c.disabled) return;
      if (menu) { close(multi); return; }
      menu = document.createElement("ul");
      menu.className = "select-menu"; menu.setAttribute("role", "listbox");
      if (multi) menu.setAttribute("aria-multiselectable", "true");
      options.forEach((o) => {
        const li = document.createElement("li");
        li.setAttribute("role", "option");
        li.dataset.value = o.value;
        if (o.emoji) li.append(emoji(o.emoji));
        const t = document.createElement("div");
        t.innerHTML = esc(o.label) + (o.description ? `<span class="desc">${esc(o.description)}</span>` : "");
        li.append(t);
        if (multi) { const k = document.createElement("span"); k.className = "check"; li.append(k); }
        const mark = () => { li.classList.toggle("chosen", chosen.has(o.value)); li.setAttribute("aria-selected", chosen.has(o.value)); };
        mark();
        li.onclick = () => {
          if (!multi) { chosen.clear(); chosen.add(o.value); label(); close(true); return; }
          if (chosen.has(o.value)) chosen.delete(o.value);
          else if (chosen.size < (c.max_values || 1)) chosen.add(o.value);
          mark(); label();
        };
        menu.append(li);
      });
      wrap.append(menu); wrap.classList.add("open");
      const room = $("#messages").getBoundingClientRect();  // no room below: open upwards
      if (menu.getBoundingClientRect().bottom > room.bottom &&
          box.getBoundingClientRect().top - room.top > room.bottom - box.getBoundingClientRect().bottom) {
        wrap.classList.add("up");
      }
      document.addEventListener("mousedown", outside, true);
    };
    return wrap;
  }

  // ---- the message box and its slash-command suggestions ---------------------------------
  function buildEntries() {
    const entries = [];
    const walk = (node, path, top) => {
      const subs = (node.options || []).filter((o) => o.type === 1 || o.type === 2);
      if (!subs.length) {
        entries.push({ path, label: "/" + path.join(" "), desc: loc(node, "description"), top,
          options: (node.options || []).filter((o) => o.type > 2) });
        return;
      }
      subs.forEach((s) => walk(s, [...path, loc(s, "name")], top));
    };
    (state.world?.commands || []).filter((c) => (c.type || 1) === 1).forEach((c) => walk(c, [loc(c, "name")], c));
    state.entries = entries;
  }
  function commandOf(text) {
    const t = text.trimStart();
    return state.entries.filter((e) => t === e.label || t.startsWith(e.label + " "))
      .sort((a, b) => b.label.length - a.label.length)[0];
  }
  function suggestions(text) {
    if (!text.startsWith("/")) return [];
    const cmd = commandOf(text);
    if (!cmd) {
      const q = text.toLowerCase();
      // Discord's picker lists an application's commands by name, whatever order the bot
      // registered them in (a prefix match first, then the rest that contain the text).
      const starts = (e) => (e.label.toLowerCase().startsWith(q) ? 0 : 1);
      return state.entries.filter((e) => e.label.toLowerCase().startsWith(q) || (q.length > 2 && e.label.toLowerCase().includes(q.slice(1))))
        .sort((a, b) => starts(a) - starts(b) || a.label.localeCompare(b.label))
        .slice(0, 25).map((e) => ({ name: e.label, desc: e.desc, apply: () => e.label + " " }));
    }
    const rest = text.slice(cmd.label.length);
    const current = rest.match(/(?:^|\s)([^\s:]+):([^:]*)$/);
    if (current) {
      const opt = cmd.options.find((o) => loc(o, "name") === current[1]);
      if (opt?.choices?.length && !/\s$/.test(current[2])) {
        const q = current[2].trim().toLowerCase();
        return opt.choices.filter((ch) => loc(ch, "name").toLowerCase().includes(q)).map((ch) => ({
          name: loc(ch, "name"), desc: "", apply: () => text.slice(0, text.length - current[2].length) + loc(ch, "name") + " " }));
      }
      if (!/\s$/.test(text)) return [];
    }
    const given = new Set([...rest.matchAll(/(?:^|\s)([^\s:]+):/g)].map((x) => x[1]));
    return cmd.options.filter((o) => !given.has(loc(o, "name"))).map((o) => ({
      name: loc(o, "name"), desc: loc(o, "description"), req: o.required,
      apply: () => text.replace(/\s*$/, " ") + loc(o, "name") + ":" }));
  }
  function showSuggestions() {
    const input = $("#input");
    const list = $("#suggestions");
    const items = suggestions(input.value);
    state.sugg = items;
    if (!items.length) { list.hidden = true; state.active = -1; return; }
    if (state.active >= items.length) state.active = -1;
    const cmd = commandOf(input.value);
    const title = document.createElement("li");
    title.className = "sugg-title";
    title.textContent = cmd ? cmd.label : `${tr("matching")} ${input.value}`;
    list.replaceChildren(title, ...items.map((it, i) => {
      const li = document.createElement("li");
      li.className = "item" + (i === state.active ? " active" : "");
      li.setAttribute("role", "option");
      li.innerHTML = `<span class="name">${esc(it.name)}</span><span class="desc">${esc(it.desc || "")}</span>` +
        (it.req ? `<span class="req">${esc(tr("required"))}</span>` : "");
      li.onmousedown = (ev) => { ev.preventDefault(); accept(it); };
      return li;
    }));
    list.hidden = false;
  }
  function accept(item) {
    const input = $("#input");
    input.value = item.apply();
    state.active = -1;
    input.focus();
    showSuggestions();
  }
  async function send() {
    const input = $("#input");
    const text = input.value.trim();
    if (!text) return;
    if (!text.startsWith("/")) { notice(tr("onlyslash")); return; }
    input.value = ""; showSuggestions();
    const r = await post("/api/command", { channel: state.channel.id, text });
    if (r.error) { notice(r.error); input.value = text; }
    else if (r.failed) notice(tr("noanswer"));
    else notice("");
  }
  function wireInput() {
    const input = $("#input");
    input.addEventListener("input", () => { state.active = -1; showSuggestions(); });
    input.addEventListener("focus", showSuggestions);
    input.addEventListener("blur", () => setTimeout(() => { $("#suggestions").hidden = true; }, 150));
    input.addEventListener("keydown", (ev) => {
      const items = state.sugg || [];
      const open = !$("#suggestions").hidden && items.length;
      if (open && (ev.key === "ArrowDown" || ev.key === "ArrowUp")) {
        ev.preventDefault();
        const n = items.length;
        state.active = ev.key === "ArrowDown" ? (state.active + 1) % n : (state.active - 1 + n) % n;
        showSuggestions();
      } else if (open && ev.key === "Tab") {
        ev.preventDefault(); accept(items[Math.max(0, state.active)]);
      } else if (ev.key === "Enter") {
        ev.preventDefault();
        if (open && state.active >= 0) accept(items[state.active]); else send();
      } else if (ev.key === "Escape") {
        $("#suggestions").hidden = true;
      }
    });
    $("#messages").addEventListener("scroll", () => { state.stick = nearBottom(); });
    $("#member").addEventListener("change", (ev) => { switchMember(ev.target.value); menu(false); });
    $("#menu-toggle").addEventListener("click", () => menu(!$("#app").classList.contains("menu-open")));
    $("#scrim").addEventListener("click", () => menu(false));
    $("#locale").addEventListener("change", async (ev) => {
      const r = await post("/api/locale", { locale: ev.target.value });
      if (r.error) { notice(r.error); return; }
      state.member.locale = ev.target.value;
      buildEntries(); renderSidebar(); renderAll();
    });
  }

  async function start() {
    await loadWorld();
    const saved = JSON.parse(sessionStorage.getItem(STORE) || "{}");
    const q = new URLSearchParams(location.search);
    state.member = memberOf(q.get("member") || saved.member) || state.world.members[0];
    state.channel = state.world.channels.find((c) => c.id === saved.channel) || state.world.channels[0];
    buildEntries();
    renderSidebar();
    wireInput();
    connect();
    $("#input").focus();
    // Text typed while the commands were still loading gets its suggestions now: the
    // box is there (and takes keys) before the first /api/world answer.
    showSuggestions();
    document.body.dataset.ready = "true";
  }
  start();
})();
