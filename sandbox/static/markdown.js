// Discord's message markdown, the parts bots use: **bold**, *italic*, __underline__,
// ~~strike~~, `code`, ```blocks```, > quotes, # headings, -# subtext, [links](url),
// <@id> mentions, <#id> channels, <t:unix:style> timestamps. Input is escaped first.
"use strict";
const Markdown = (() => {
  const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({
    "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));

  function timestamp(unix, style, locale) {  // in the member's Discord language
    const d = new Date(Number(unix) * 1000);
    if (style === "R") {
      const s = Math.round((d - Date.now()) / 1000);
      const rtf = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
      const a = Math.abs(s);
      if (a < 60) return rtf.format(s, "second");
      if (a < 3600) return rtf.format(Math.round(s / 60), "minute");
      if (a < 86400) return rtf.format(Math.round(s / 3600), "hour");
      return rtf.format(Math.round(s / 86400), "day");
    }
    const opts = { t: { timeStyle: "short" }, T: { timeStyle: "medium" }, d: { dateStyle: "short" },
      D: { dateStyle: "long" }, F: { dateStyle: "full", timeStyle: "short" } }[style] ||
      { dateStyle: "long", timeStyle: "short" };
    return new Intl.DateTimeFormat(locale, opts).format(d);
  }

  function inline(text, ctx) {
    let s = esc(text);
    const codes = [];
    s = s.replace(/`([^`\n]+)`/g, (_, c) => { codes.push(c); return `\u0000${codes.length - 1}\u0000`; });
    s = s.replace(/&lt;@!?(\d+)&gt;/g, (_, id) => {
      const name = ctx.names[id] || "unknown-user";
      return `<span class="mention${id === ctx.me ? " me" : ""}">@${esc(name)}</span>`;
    });
    s = s.replace(/&lt;#(\d+)&gt;/g, (_, id) => `<span class="mention">#${esc(ctx.channels[id] || "unknown")}</span>`);
    s = s.replace(/&lt;t:(-?\d+)(?::([tTdDfFR]))?&gt;/g, (_, t, st) => `<span class="ts">${esc(timestamp(t, st, ctx.locale))}</span>`);
    s = s.replace(/&lt;a?:(\w+):\d+&gt;/g, ":$1:");
    s = s.replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g, '<a href="$2" target="_blank" rel="noopener">$1</a>');
    s = s.replace(/\*\*\*([^*]+)\*\*\*/g, "<strong><em>$1</em></strong>");
    s = s.replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");
    s = s.replace(/__([^_]+)__/g, "<u>$1</u>");
    s = s.replace(/(^|[^\w*])\*([^*\n]+)\*(?!\w)/g, "$1<em>$2</em>");
    s = s.replace(/(^|[^\w_])_([^_\n]+)_(?!\w)/g, "$1<em>$2</em>");
    s = s.replace(/~~([^~]+)~~/g, "<s>$1</s>");
    s = s.replace(/\|\|([^|]+)\|\|/g, '<span class="spoiler">$1</span>');
    return s.replace(/\u0000(\d+)\u0000/g, (_, i) => `<code>${codes[Number(i)]}</code>`);
  }

  function render(text, ctx) {
    if (!text) return "";
    const out = [];
    const parts = String(text).split(/```(?:[a-z]*\n)?([\s\S]*?)```/);
    parts.forEach((part, i) => {
      if (i % 2) { out.push(`<pre><code>${esc(part)}</code></pre>`); return; }
      const lines = part.split("\n");
      const html = lines.map((line) => {
        let m;
        if ((m = line.match(/^(#{1,3}) (.*)$/))) return `<h${m[1].length}>${inline(m[2], ctx)}</h${m[1].length}>`;
        if ((m = line.match(/^-# (.*)$/))) return `<span class="subtext">${inline(m[1], ctx)}</span>`;
        if ((m = line.match(/^&gt; (.*)$/)) || (m = line.match(/^> (.*)$/))) return `<blockquote>${inline(m[1], ctx)}</blockquote>`;
        return inline(line, ctx);
      });
      out.push(html.join("\n").replace(/(<\/h\d>|<\/blockquote>)\n/g, "$1"));
    });
    return out.join("");
  }
  return { render, esc };
})();
