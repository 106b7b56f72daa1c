// How an answer reads in Ask Drive's detail view (pure).
import { Answer, Source } from "./gds";

/** A source's label: "[n] name, p. N". */
export function sourceLabel(s: Source): string {
  return `[${s.ref}] ${s.name}${s.page ? `, p. ${s.page}` : ""}`;
}

/** A URL as a markdown link target (gds's links are URLs already; only what ends the target is escaped). */
export function mdLink(url: string): string {
  return url.replace(/[()\s<>]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0"));
}

/** Markdown of a quote: each line behind "> ", at most max characters. */
function quote(text: string, max = 300): string {
  const t = text.length > max ? `${text.slice(0, max).trimEnd()}…` : text;
  return t
    .split(/\r?\n/)
    .map((l) => `> ${l}`)
    .join("\n");
}

/** The answer as markdown: the question, the text so far, then the numbered sources with their quotes. */
export function answerMarkdown(question: string, a: Answer): string {
  const parts = [`## ${question}`, ""];
  if (a.steps.length && !a.done) parts.push(`_${a.steps[a.steps.length - 1]}_`, "");
  if (a.text) parts.push(a.text);
  else if (!a.done) parts.push("_Searching your documents…_");
  if (a.extractive)
    parts.push(
      "",
      "_Extract from your documents (offline provider): the best-matching sentences, not a generated answer._",
    );
  if (a.error) {
    parts.push("", `**${a.error.message}**`);
    if (a.error.hint) parts.push("", a.error.hint);
  }
  if (a.sources.length) {
    parts.push("", "### Sources", "");
    for (const s of a.sources) {
      parts.push(
        s.link ? `**[${sourceLabel(s)}](${mdLink(s.link)})**` : `**${sourceLabel(s)}**`,
        "",
        quote(s.text),
        "",
      );
    }
  }
  return parts.join("\n").trimEnd() + "\n";
}
