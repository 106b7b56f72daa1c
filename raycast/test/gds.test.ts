import { describe, expect, it } from "vitest";
import {
  applyAskEvent,
  askArgs,
  emptyAnswer,
  filterArgs,
  gdsEnv,
  MARKER,
  parseAskLine,
  parseFilter,
  parseGrammar,
  resolveGdsPath,
} from "../src/gds";

// A keystroke response of gds (internal/render/alfred's golden, trimmed).
const keystroke = JSON.stringify({
  skipknowledge: true,
  items: [
    {
      title: "Search for “engine”",
      subtitle: "⏎ runs the full hybrid search",
      autocomplete: `${MARKER} engine`,
      valid: false,
      icon: { path: "icon.png" },
    },
    {
      uid: "local-1",
      title: "estimate.txt",
      subtitle: "No 2025 files; showing other years · Engine repair estimate",
      arg: "file:///docs/Reports/estimate.txt",
      valid: true,
      icon: { type: "filetype", path: "public.plain-text" },
      quicklookurl: "/docs/Reports/estimate.txt",
      text: { copy: "file:///docs/Reports/estimate.txt", largetype: "Engine repair estimate for the pump station." },
      mods: {
        alt: {
          subtitle: "Reveal",
          arg: "/docs/Reports/estimate.txt",
          valid: true,
          variables: { gds_action: "reveal" },
        },
        cmd: { subtitle: "Copy the link", arg: "file:///docs/Reports/estimate.txt", valid: true },
      },
      variables: { gds_action: "open", gds_folder: "Reports", gds_notice: "No 2025 files; showing other years" },
    },
    {
      uid: "drive-2",
      title: "Budget",
      subtitle: "The budget",
      arg: "https://docs.google.com/spreadsheets/d/2",
      valid: true,
      icon: { type: "filetype", path: "org.openxmlformats.spreadsheetml.sheet" },
      mods: { alt: { subtitle: "No local copy", valid: false } },
      variables: { gds_action: "open", gds_folder: "", gds_account: "work" },
    },
  ],
});

const question = JSON.stringify({
  items: [
    { title: "Which folder?", subtitle: "pick one", autocomplete: `${MARKER}[tok-1] `, valid: false },
    { title: "1. Sales", subtitle: "adds folder Sales", autocomplete: `${MARKER}[tok-1]=1`, valid: false },
    { title: "2. HR", subtitle: "", autocomplete: `${MARKER}[tok-1]=2`, valid: false },
    { title: "Type your own answer…", subtitle: "", autocomplete: `${MARKER}[tok-1] `, valid: false },
    { title: "Skip the question", subtitle: "", autocomplete: `${MARKER}[tok-1]=`, valid: false },
  ],
});

describe("parseGrammar", () => {
  it.each([
    ["engine", { kind: "typed", text: "engine" }],
    [`${MARKER} engine  `, { kind: "run", query: "engine" }],
    [`${MARKER}[T] draft`, { kind: "pending", token: "T", draft: "draft" }],
    [`${MARKER}[T] `, { kind: "pending", token: "T", draft: "" }],
    [`${MARKER}[T]=2`, { kind: "answer", token: "T", answer: "2" }],
    [`${MARKER}[T]=`, { kind: "answer", token: "T", answer: "" }],
    [`x ${MARKER} y`, { kind: "typed", text: `x ${MARKER} y` }],
  ])("%s", (text, want) => {
    expect(parseGrammar(text)).toEqual(want);
  });
});

describe("parseFilter", () => {
  it("reads the full-search item and files with their local copies, folders and notices", () => {
    const r = parseFilter(keystroke);
    expect(r.question).toBeUndefined();
    expect(r.rows.map((x) => x.kind)).toEqual(["run", "file", "file"]);
    expect(r.rows[0]).toMatchObject({ kind: "run", query: `${MARKER} engine` });
    expect(r.rows[1]).toEqual({
      kind: "file",
      id: "local-1",
      title: "estimate.txt",
      subtitle: "No 2025 files; showing other years · Engine repair estimate",
      link: "file:///docs/Reports/estimate.txt",
      localPath: "/docs/Reports/estimate.txt",
      uti: "public.plain-text",
      folder: "Reports",
      notice: "No 2025 files; showing other years",
      missing: undefined,
      account: undefined,
      summary: "Engine repair estimate for the pump station.",
    });
    expect(r.rows[2]).toMatchObject({
      kind: "file",
      localPath: undefined,
      folder: undefined,
      account: "work",
      summary: "The budget",
    });
  });

  it("reads a corrected full search: the words each file lacks, the notice, and the way back apart from the full-search item", () => {
    // internal/render/alfred's golden of a corrected, partial search, trimmed.
    const r = parseFilter(
      JSON.stringify({
        items: [
          {
            uid: "drive-1",
            title: "Q3 roadmap.pptx",
            subtitle: "Weak match · Missing: Q3 · Corrected slieds → slides · Roadmap",
            arg: "https://docs.google.com/presentation/d/1",
            valid: true,
            variables: {
              gds_action: "open",
              gds_folder: "Team",
              gds_missing: "Q3",
              gds_notice: "Corrected slieds → slides · Weak match",
            },
          },
          {
            title: 'Search instead for: Q3 roadmap "slieds"',
            subtitle: "⏎ searches the words as typed",
            autocomplete: `${MARKER} Q3 roadmap "slieds"`,
            valid: false,
            variables: { gds_corrected: "Showing results for: Q3 roadmap slides", gds_instead: 'Q3 roadmap "slieds"' },
          },
        ],
      }),
    );
    expect(r.rows.map((x) => x.kind)).toEqual(["file", "instead"]);
    expect(r.rows[0]).toMatchObject({ missing: "Q3", notice: "Corrected slieds → slides · Weak match" });
    expect(r.rows[1]).toEqual({
      kind: "instead",
      title: 'Search instead for: Q3 roadmap "slieds"',
      subtitle: "⏎ searches the words as typed",
      query: `${MARKER} Q3 roadmap "slieds"`,
      corrected: "Showing results for: Q3 roadmap slides",
    });
  });

  it("reads a question: the header, each choice and skipping; typing your own answer is the search bar", () => {
    const r = parseFilter(question);
    expect(r.question).toEqual({ kind: "question", title: "Which folder?", subtitle: "pick one", token: "tok-1" });
    expect(r.rows.map((x) => x.kind)).toEqual(["question", "choice", "choice", "message", "choice"]);
    expect(r.rows[2]).toMatchObject({ kind: "choice", title: "2. HR", query: `${MARKER}[tok-1]=2` });
    expect(r.rows[4]).toMatchObject({ kind: "choice", query: `${MARKER}[tok-1]=` });
  });

  it("reads messages, with the query to put back", () => {
    const r = parseFilter(
      JSON.stringify({
        items: [{ title: "No files found.", subtitle: "try other words", autocomplete: "zzz", valid: false }],
      }),
    );
    expect(r.rows).toEqual([{ kind: "message", title: "No files found.", subtitle: "try other words", text: "zzz" }]);
  });

  it("refuses output that is not JSON, quoting it", () => {
    expect(() => parseFilter("Error: boom")).toThrow(/Error: boom/);
  });
});

describe("gdsEnv", () => {
  const base = { PATH: "/usr/bin:/bin", HOME: "/Users/me", GDS_FOLDER: "x", source: "drive" };
  it("adds the tool directories, the language, the gds home and the source; drops GDS_FOLDER", () => {
    const env = gdsEnv({
      gdsPath: "/opt/tools/gds",
      gdsHome: " /Users/me/gds ",
      sources: "local:~/Docs",
      locale: "ja-JP",
      baseEnv: base,
    });
    expect(env.PATH).toBe("/opt/tools:/opt/homebrew/bin:/usr/local/bin:/usr/bin:/bin");
    expect(env.LANG).toBe("ja_JP.UTF-8");
    expect(env.GDS_HOME).toBe("/Users/me/gds");
    expect(env.source).toBe("local:~/Docs");
    expect(env.GDS_FOLDER).toBeUndefined();
  });
  it("keeps a language the environment has, and no source without one", () => {
    const env = gdsEnv({ gdsPath: "gds", locale: "ja-JP", baseEnv: { ...base, LANG: "en_GB.UTF-8" } });
    expect(env.LANG).toBe("en_GB.UTF-8");
    expect(env.source).toBeUndefined();
    expect(env.GDS_HOME).toBeUndefined();
    expect(gdsEnv({ gdsPath: "gds", locale: "en-US", baseEnv: { PATH: "/bin" } }).LANG).toBe("en_US.UTF-8");
  });
});

describe("resolveGdsPath", () => {
  it("takes the preference, else Homebrew's gds, else gds on PATH", () => {
    expect(resolveGdsPath({ gdsPath: " /x/gds " })).toBe("/x/gds");
    expect(resolveGdsPath({ exists: (p) => p === "/usr/local/bin/gds" })).toBe("/usr/local/bin/gds");
    expect(resolveGdsPath({ exists: () => true })).toBe("/opt/homebrew/bin/gds");
    expect(resolveGdsPath({ exists: () => false })).toBe("gds");
  });
});

describe("arguments", () => {
  it("filter: the folder first, then the text (none for an empty query)", () => {
    expect(filterArgs({ folder: "Team/Specs" }, "login")).toEqual([
      "alfred",
      "filter",
      "--folder",
      "Team/Specs",
      "login",
    ]);
    expect(filterArgs({}, "")).toEqual(["alfred", "filter"]);
  });
  it("ask: JSON lines, the folder, the question after --", () => {
    expect(askArgs({ folder: "Reports" }, "-what?")).toEqual(["ask", "--jsonl", "--folder", "Reports", "--", "-what?"]);
  });
});

describe("the answer stream", () => {
  const lines = [
    '{"type":"tool_result","tool":"search_evidence","summary":"3 relevant results"}',
    '{"type":"chunk","content":"The cost is "}',
    '{"type":"chunk","content":"4500 dollars. [2]"}',
    '{"type":"evidence","evidence":{"file_id":"f2","name":"b.pdf","chunk_id":"f2#3","page":4,"text":"4500","link":"file:///b.pdf"},"ref":2}',
    '{"type":"evidence","evidence":{"file_id":"f1","name":"a.txt","chunk_id":"f1#0","text":"cost","link":"file:///a.txt"},"ref":1}',
    '{"type":"done","answer":"The cost is 4500 dollars. [2]","provider":"offline","extractive":true}',
  ];
  it("builds the answer as it streams, sources in citation order", () => {
    let a = emptyAnswer;
    const texts: string[] = [];
    for (const l of lines) {
      const ev = parseAskLine(l);
      if (ev) a = applyAskEvent(a, ev);
      texts.push(a.text);
    }
    expect(texts.slice(0, 3)).toEqual(["", "The cost is ", "The cost is 4500 dollars. [2]"]);
    expect(a.steps).toEqual(["3 relevant results"]);
    expect(a.sources.map((s) => `${s.ref}:${s.name}:${s.page ?? "-"}`)).toEqual(["1:a.txt:-", "2:b.pdf:4"]);
    expect(a).toMatchObject({ done: true, extractive: true, provider: "offline" });
    expect(a.error).toBeUndefined();
  });
  it("takes the done answer when no chunk came (the agent), and reads errors", () => {
    const a = applyAskEvent(emptyAnswer, parseAskLine('{"type":"done","answer":"Only this."}')!);
    expect(a.text).toBe("Only this.");
    const e = parseAskLine(
      '{"type":"error","error":{"code":"no_index","message":"nothing is indexed yet","hint":"run gds crawl"}}',
    );
    expect(applyAskEvent(emptyAnswer, e!)).toMatchObject({
      done: true,
      error: { message: "nothing is indexed yet", hint: "run gds crawl" },
    });
    expect(parseAskLine("")).toBeUndefined();
    expect(parseAskLine("not json")).toMatchObject({ type: "error" });
    expect(parseAskLine('{"type":"tool_call","tool":"x"}')).toBeUndefined();
  });
});
