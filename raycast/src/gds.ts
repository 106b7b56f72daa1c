// The data layer of the extension: running gds and reading what it prints.
// It imports nothing from @raycast/api, so its tests run it against a real
// gds binary on a small index (src/gds.integration.test.ts).
//
// Search Drive asks gds exactly what the Alfred workflow asks: one
// `gds alfred filter [--folder F] TEXT` per keystroke, which the installed
// gds (a small front binary) answers through the keystroke server that keeps
// the index open, and the query grammar of the Script Filter for the rest
// ("⌕ QUERY" runs the full search, "⌕[TOKEN] DRAFT" shows a pending question,
// "⌕[TOKEN]=N" answers it). Ask Drive runs `gds ask --jsonl`, which streams
// the answer as JSON lines.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";

/** The marker of gds's Script Filter query grammar (U+2315). */
export const MARKER = "\u2315";

/** Where gds is looked for when the preference is empty: Homebrew's prefixes, then Go's. */
export function defaultGdsPaths(home = homedir()): string[] {
  return ["/opt/homebrew/bin/gds", "/usr/local/bin/gds", join(home, "go", "bin", "gds")];
}

/** What the extension passes to every gds run. */
export interface GdsOptions {
  /** The gds command; empty: the first of defaultGdsPaths that exists, else "gds" on PATH. */
  gdsPath?: string;
  /** GDS_HOME; empty: gds's default. */
  gdsHome?: string;
  /** Only this folder and its subfolders (`--folder`). */
  folder?: string;
  /** Only these sources (the Alfred workflow's `source` variable: drive, drive:ID, drive@ACCOUNT, local:PATH, comma-separated). */
  sources?: string;
  /** The user's locale ("ja-JP", "en-US"): gds writes Japanese when it starts with ja. */
  locale?: string;
  /** The environment to start from (default: process.env). */
  baseEnv?: NodeJS.ProcessEnv;
  /** Whether a path exists (for tests). */
  exists?: (path: string) => boolean;
}

/** The gds command to run. */
export function resolveGdsPath(o: GdsOptions): string {
  const p = o.gdsPath?.trim();
  if (p) return p.startsWith("~/") ? join(homedir(), p.slice(2)) : p;
  const exists = o.exists ?? existsSync;
  return defaultGdsPaths().find((c) => exists(c)) ?? "gds";
}

/**
 * The environment of a gds run. Raycast starts commands without the
 * user's shell profile, so PATH gets the usual tool directories, LANG the
 * user's language, and GDS_HOME, GDS_FOLDER and the Alfred `source`
 * variable come from the preferences (the keystroke server serves a front
 * only when its environment is the server's own, so it is the same on
 * every keystroke).
 */
export function gdsEnv(o: GdsOptions): NodeJS.ProcessEnv {
  const base = o.baseEnv ?? process.env;
  const env: NodeJS.ProcessEnv = { ...base };
  const gds = resolveGdsPath(o);
  const path = [
    gds.includes("/") ? dirname(gds) : "",
    "/opt/homebrew/bin",
    "/usr/local/bin",
    base.PATH ?? "/usr/bin:/bin",
  ];
  env.PATH = path.filter((p, i) => p && path.indexOf(p) === i).join(":");
  if (!env.HOME) env.HOME = homedir();
  const locale = o.locale ?? "";
  if (!base.LC_ALL && !base.LC_MESSAGES && !base.LANG) {
    env.LANG = locale.toLowerCase().startsWith("ja") ? "ja_JP.UTF-8" : "en_US.UTF-8";
  }
  if (o.gdsHome?.trim()) env.GDS_HOME = o.gdsHome.trim();
  delete env.GDS_FOLDER; // --folder says it, or nothing does
  if (o.sources?.trim()) env.source = o.sources.trim();
  else delete env.source;
  return env;
}

/** The outcome of one gds run. */
export interface RunResult {
  stdout: string;
  stderr: string;
  code: number | null;
}

/** GdsNotFound: the gds command could not be started. */
export class GdsNotFound extends Error {
  constructor(readonly path: string) {
    super(
      `gds was not found at ${path}: install it with Homebrew (brew install --cask gds-cli/tap/gds) or set its path in the preferences`,
    );
    this.name = "GdsNotFound";
  }
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Called with each piece of standard output as it arrives. */
  onStdout?: (chunk: string) => void;
}

/** Runs gds with args; rejects with GdsNotFound when it cannot start, with an AbortError when aborted. */
export function runGds(o: GdsOptions, args: string[], r: RunOptions = {}): Promise<RunResult> {
  const cmd = resolveGdsPath(o);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: gdsEnv(o), stdio: ["ignore", "pipe", "pipe"], signal: r.signal });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (d: string) => {
      stdout += d;
      r.onStdout?.(d);
    });
    child.stderr.on("data", (d: string) => (stderr += d));
    child.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT" || err.code === "EACCES") reject(new GdsNotFound(cmd));
      else reject(err);
    });
    child.on("close", (code) => resolve({ stdout, stderr, code }));
  });
}

// ---------------------------------------------------------------- Search Drive

/** A file of the index. */
export interface FileRow {
  kind: "file";
  id: string;
  title: string;
  subtitle: string;
  /** The Drive link or file:// URL. */
  link: string;
  /** The local copy (a local source's file, or its Google Drive for desktop mirror). */
  localPath?: string;
  /** The macOS type identifier of its icon. */
  uti?: string;
  /** The folder as gds shows it. */
  folder?: string;
  /**
   * What the search says of itself, on every result (gds_notice): words no
   * file contains, corrections made, a weak match, conditions dropped, the
   * full-text fallback.
   */
  notice?: string;
  /** The query words this file does not contain (gds_missing, after a full search). */
  missing?: string;
  /** The Google account of a Drive file ("default", or the NAME of `gds auth login --account NAME`). */
  account?: string;
  /** The summary (or the name when there is none). */
  summary: string;
}

/** The item that runs the full search for the typed text. */
export interface RunRow {
  kind: "run";
  title: string;
  subtitle: string;
  /** The filter text that runs it ("⌕ QUERY"). */
  query: string;
}

/**
 * The way back of a corrected search (did you mean): runs the query with
 * the corrected words as typed.
 */
export interface InsteadRow {
  kind: "instead";
  /** "Search instead for: …" */
  title: string;
  subtitle: string;
  /** The filter text that runs the words as typed ("⌕ QUERY"). */
  query: string;
  /** What was searched in their place ("Showing results for: …"). */
  corrected?: string;
}

/** A clarifying question: its header. */
export interface QuestionRow {
  kind: "question";
  title: string;
  subtitle: string;
  /** The state token the answers carry. */
  token: string;
}

/** A way to answer the question (a choice, the typed draft, or skipping it). */
export interface ChoiceRow {
  kind: "choice";
  title: string;
  subtitle: string;
  /** The filter text that answers with it ("⌕[TOKEN]=N"). */
  query: string;
}

/** Anything else gds says: no files, an error, a notice, how to type an answer. */
export interface MessageRow {
  kind: "message";
  title: string;
  subtitle: string;
  /** Text to put back in the search bar, if any. */
  text?: string;
}

export type Row = FileRow | RunRow | InsteadRow | QuestionRow | ChoiceRow | MessageRow;

/** One Script Filter response, read. */
export interface FilterResult {
  rows: Row[];
  /** The pending question, when the search asks one. */
  question?: QuestionRow;
}

interface ScriptFilterMod {
  subtitle?: string;
  arg?: string;
  valid?: boolean;
}

interface ScriptFilterItem {
  uid?: string;
  title?: string;
  subtitle?: string;
  arg?: string;
  valid?: boolean;
  autocomplete?: string;
  icon?: { type?: string; path?: string };
  quicklookurl?: string;
  text?: { copy?: string; largetype?: string };
  mods?: Record<string, ScriptFilterMod>;
  variables?: Record<string, string>;
}

/** Kinds of filter text in gds's query grammar. */
export type Grammar =
  | { kind: "typed"; text: string }
  | { kind: "run"; query: string }
  | { kind: "pending"; token: string; draft: string }
  | { kind: "answer"; token: string; answer: string };

/** Reads a filter text as gds does (render/scriptfilter ParseQuery). */
export function parseGrammar(text: string): Grammar {
  if (!text.startsWith(MARKER)) return { kind: "typed", text };
  const rest = text.slice(MARKER.length);
  if (rest.startsWith("[")) {
    const end = rest.indexOf("]");
    if (end > 0) {
      const token = rest.slice(1, end);
      const after = rest.slice(end + 1);
      if (after.startsWith("=")) return { kind: "answer", token, answer: after.slice(1) };
      return { kind: "pending", token, draft: after.trimStart() };
    }
  }
  return { kind: "run", query: rest.trim() };
}

/** The filter text that shows a pending question with a draft answer. */
export function pendingText(token: string, draft: string): string {
  return `${MARKER}[${token}] ${draft}`;
}

/** The filter text that runs the full search for query. */
export function runText(query: string): string {
  return `${MARKER} ${query.trim()}`;
}

/**
 * Reads gds's Script Filter JSON: a file for each item with a uid, the
 * full-search item, the way back of a corrected search (gds_instead), a
 * question with its choices (by the query grammar of their autocomplete),
 * and messages for the rest.
 */
export function parseFilter(json: string): FilterResult {
  let doc: { items?: ScriptFilterItem[] };
  try {
    doc = JSON.parse(json) as { items?: ScriptFilterItem[] };
  } catch {
    throw new Error(`gds printed no Script Filter JSON: ${json.slice(0, 200)}`);
  }
  const out: FilterResult = { rows: [] };
  for (const it of doc.items ?? []) {
    const title = it.title ?? "";
    const subtitle = it.subtitle ?? "";
    const auto = it.autocomplete ?? "";
    const g = parseGrammar(auto);
    const vars = it.variables ?? {};
    if (it.uid) {
      const alt = it.mods?.alt;
      out.rows.push({
        kind: "file",
        id: it.uid,
        title,
        subtitle,
        link: it.arg ?? "",
        localPath: alt?.valid && alt.arg ? alt.arg : undefined,
        uti: it.icon?.type === "filetype" ? it.icon.path : undefined,
        folder: vars.gds_folder || undefined,
        notice: vars.gds_notice || undefined,
        missing: vars.gds_missing || undefined,
        account: vars.gds_account || undefined,
        summary: it.text?.largetype ?? subtitle,
      });
    } else if (vars.gds_instead && g.kind === "run") {
      out.rows.push({ kind: "instead", title, subtitle, query: auto, corrected: vars.gds_corrected || undefined });
    } else if (auto && g.kind === "run") {
      out.rows.push({ kind: "run", title, subtitle, query: auto });
    } else if (g.kind === "pending" && !out.question) {
      const q: QuestionRow = { kind: "question", title, subtitle, token: g.token };
      out.question = q;
      out.rows.push(q);
    } else if (g.kind === "answer") {
      out.rows.push({ kind: "choice", title, subtitle, query: auto });
    } else {
      // The "type your own answer" item and everything that is not actionable.
      out.rows.push({ kind: "message", title, subtitle, text: auto && g.kind === "typed" ? auto : undefined });
    }
  }
  return out;
}

/** The arguments of one Script Filter call for text. */
export function filterArgs(o: GdsOptions, text: string): string[] {
  const args = ["alfred", "filter"];
  if (o.folder?.trim()) args.push("--folder", o.folder.trim());
  if (text !== "") args.push(text);
  return args;
}

/** Asks gds for the Script Filter response to text (a keystroke, or a text of the grammar). */
export async function filter(o: GdsOptions, text: string, signal?: AbortSignal): Promise<FilterResult> {
  const r = await runGds(o, filterArgs(o, text), { signal });
  if (r.stdout.trim() === "") {
    throw new Error(r.stderr.trim() || `gds alfred filter exited with ${r.code}`);
  }
  return parseFilter(r.stdout);
}

// ---------------------------------------------------------------- Ask Drive

/** A passage an answer cites. */
export interface Source {
  ref: number;
  fileId: string;
  name: string;
  chunkId: string;
  page?: number;
  text: string;
  link: string;
}

/** A line of `gds ask --jsonl`. */
export type AskEvent =
  | { type: "chunk"; content: string }
  | { type: "evidence"; source: Source }
  | { type: "done"; answer: string; provider: string; extractive: boolean; message?: string }
  | { type: "step"; label: string }
  | { type: "error"; code: string; message: string; hint?: string };

interface RawEvent {
  type?: string;
  content?: string;
  ref?: number;
  evidence?: { file_id?: string; name?: string; chunk_id?: string; page?: number; text?: string; link?: string };
  answer?: string;
  provider?: string;
  extractive?: boolean;
  message?: string;
  summary?: string;
  tool?: string;
  error?: { code?: string; message?: string; hint?: string };
}

/** Reads one line of `gds ask --jsonl` (undefined for a blank line or a step the extension does not show). */
export function parseAskLine(line: string): AskEvent | undefined {
  if (line.trim() === "") return undefined;
  let ev: RawEvent;
  try {
    ev = JSON.parse(line) as RawEvent;
  } catch {
    return { type: "error", code: "output", message: `gds printed a line that is not JSON: ${line.slice(0, 200)}` };
  }
  switch (ev.type) {
    case "chunk":
      return { type: "chunk", content: ev.content ?? "" };
    case "evidence": {
      const e = ev.evidence ?? {};
      return {
        type: "evidence",
        source: {
          ref: ev.ref ?? 0,
          fileId: e.file_id ?? "",
          name: e.name ?? "",
          chunkId: e.chunk_id ?? "",
          page: e.page || undefined,
          text: e.text ?? "",
          link: e.link ?? "",
        },
      };
    }
    case "done":
      return {
        type: "done",
        answer: ev.answer ?? "",
        provider: ev.provider ?? "",
        extractive: Boolean(ev.extractive),
        message: ev.message || undefined,
      };
    case "tool_result":
      return ev.summary ? { type: "step", label: ev.summary } : undefined;
    case "error":
      return {
        type: "error",
        code: ev.error?.code ?? "error",
        message: ev.error?.message ?? "gds failed",
        hint: ev.error?.hint || undefined,
      };
  }
  return undefined;
}

/** An answer as it streams in. */
export interface Answer {
  text: string;
  sources: Source[];
  steps: string[];
  done: boolean;
  provider?: string;
  extractive: boolean;
  error?: { message: string; hint?: string };
}

export const emptyAnswer: Answer = { text: "", sources: [], steps: [], done: false, extractive: false };

/** The answer after one more event: text appended, sources kept in citation order. */
export function applyAskEvent(a: Answer, ev: AskEvent): Answer {
  switch (ev.type) {
    case "chunk":
      return { ...a, text: a.text + ev.content };
    case "evidence":
      return {
        ...a,
        sources: [...a.sources.filter((s) => s.ref !== ev.source.ref), ev.source].sort((x, y) => x.ref - y.ref),
      };
    case "step":
      return { ...a, steps: [...a.steps, ev.label] };
    case "done":
      return { ...a, done: true, text: a.text || ev.answer, provider: ev.provider, extractive: ev.extractive };
    case "error":
      return { ...a, done: true, error: { message: ev.message, hint: ev.hint } };
  }
}

/** The arguments of `gds ask --jsonl` for question. */
export function askArgs(o: GdsOptions, question: string): string[] {
  const args = ["ask", "--jsonl"];
  if (o.folder?.trim()) args.push("--folder", o.folder.trim());
  args.push("--", question);
  return args;
}

/** Asks gds a question; onAnswer gets the answer each time it grows. Resolves with the last. */
export async function ask(
  o: GdsOptions,
  question: string,
  onAnswer: (a: Answer) => void,
  signal?: AbortSignal,
): Promise<Answer> {
  let answer = emptyAnswer;
  let buf = "";
  const feed = (line: string) => {
    const ev = parseAskLine(line);
    if (ev) {
      answer = applyAskEvent(answer, ev);
      onAnswer(answer);
    }
  };
  const r = await runGds(o, askArgs(o, question), {
    signal,
    onStdout: (chunk) => {
      buf += chunk;
      let i: number;
      while ((i = buf.indexOf("\n")) >= 0) {
        feed(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
    },
  });
  feed(buf);
  if (!answer.done) {
    answer = applyAskEvent(answer, {
      type: "error",
      code: "exit",
      message: r.stderr.trim() || `gds ask exited with ${r.code}`,
    });
    onAnswer(answer);
  }
  return answer;
}
