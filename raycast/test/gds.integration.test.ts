// The data layer against a real gds (the front binary and gds-core beside
// it, as Homebrew installs them) on a small local index with the offline
// provider: scripts/raycast.sh builds them and sets GDS_TEST_BIN.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ask, ChoiceRow, FileRow, filter, GdsNotFound, GdsOptions, InsteadRow, pendingText, runText } from "../src/gds";

const bin = process.env.GDS_TEST_BIN ?? "";
const describeGds = bin ? describe : describe.skip;

describeGds("the data layer against gds", () => {
  let dir = "";
  let docs = "";
  let o: GdsOptions;
  const baseEnv = { PATH: process.env.PATH, HOME: process.env.HOME, GDS_AI_PROVIDER: "offline", LANG: "C" };

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "gds-raycast-"));
    docs = join(dir, "docs");
    const files: Record<string, string> = {
      "Reports/estimate.txt": "Engine repair estimate for the pump station. The cost is 4500 dollars.",
      "Reports/2024/q1.md": "Quarterly summary 2024: revenue grew by a third.",
      "Minutes/m1.txt": "Meeting minutes: agenda items, budget approval for the pump station.",
    };
    // Enough files with one word for the full search to ask a question (over 100 hits).
    const teams = ["Sales", "Design", "Legal", "Support"];
    for (let i = 0; i < 120; i++) {
      files[`Teams/${teams[i % teams.length]}/weekly-${i}.txt`] =
        `Weekly status memo number ${i} of the ${teams[i % teams.length]} team.`;
    }
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(docs, name, ".."), { recursive: true });
      writeFileSync(join(docs, name), text);
    }
    const home = join(dir, "home");
    execFileSync(bin, ["crawl", "--source", `local:${docs}`], { env: { ...baseEnv, GDS_HOME: home }, stdio: "pipe" });
    o = { gdsPath: bin, gdsHome: home, locale: "en-US", baseEnv };
  });

  afterAll(() => {
    // The keystroke server the front started lives in the gds home; it exits when its socket goes.
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("answers each keystroke with the full-search item and the index's matches", async () => {
    for (const text of ["engine", "engine repair", "repair estimate"]) {
      const r = await filter(o, text);
      expect(r.rows[0]).toMatchObject({ kind: "run", query: runText(text) });
      const files = r.rows.filter((x): x is FileRow => x.kind === "file");
      expect(
        files.map((f) => f.title),
        text,
      ).toContain("estimate.txt");
      const f = files.find((x) => x.title === "estimate.txt")!;
      expect(f).toMatchObject({
        folder: "Reports",
        localPath: join(docs, "Reports", "estimate.txt"),
        uti: "public.plain-text",
      });
      expect(f.link).toMatch(/^file:\/\/.*\/Reports\/estimate\.txt$/);
      expect(f.summary).toContain("4500 dollars");
    }
  });

  it("keeps to the folder of the preferences", async () => {
    const r = await filter({ ...o, folder: "Minutes" }, "pump station");
    const files = r.rows.filter((x): x is FileRow => x.kind === "file").map((x) => x.title);
    expect(files).toEqual(["m1.txt"]);
  });

  it("runs the full search", async () => {
    const r = await filter(o, runText("engine repair estimate"));
    const files = r.rows.filter((x): x is FileRow => x.kind === "file");
    expect(r.question).toBeUndefined();
    expect(files[0]?.title).toBe("estimate.txt");
  });

  it("names the words no file contains, on every result of a keystroke", async () => {
    const r = await filter(o, "pump zqxjvw station ");
    const files = r.rows.filter((x): x is FileRow => x.kind === "file");
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(f.notice).toContain("zqxjvw");
    expect(r.rows.some((x) => x.kind === "instead")).toBe(false);
  });

  it("corrects a typo in the full search, with the way back apart from the full-search item", async () => {
    const r = await filter(o, runText("engnie reapir estimate"));
    const files = r.rows.filter((x): x is FileRow => x.kind === "file");
    expect(files[0]?.title).toBe("estimate.txt");
    expect(files[0].notice).toContain("engnie → engine");
    const back = r.rows.filter((x): x is InsteadRow => x.kind === "instead");
    expect(back).toHaveLength(1);
    expect(back[0].query).toBe(runText('"engnie" "reapir" estimate'));
    expect(back[0].corrected).toContain("engine repair estimate");
    expect(r.rows.some((x) => x.kind === "run")).toBe(false);
    // The way back searches the words as typed: named, not corrected.
    const asTyped = await filter(o, back[0].query);
    expect(asTyped.rows.some((x) => x.kind === "instead")).toBe(false);
    for (const f of asTyped.rows.filter((x): x is FileRow => x.kind === "file")) expect(f.notice).toContain("engnie");
  });

  it("says which words each result of the full search lacks", async () => {
    const r = await filter(o, runText("pump station budget approval"));
    const files = r.rows.filter((x): x is FileRow => x.kind === "file");
    const est = files.find((f) => f.title === "estimate.txt");
    const min = files.find((f) => f.title === "m1.txt");
    expect(min?.missing).toBeUndefined();
    expect(est?.missing).toMatch(/budget/);
    expect(est?.notice ?? "").not.toContain("budget");
  });

  it("asks a clarifying question over 100 hits, takes a draft, and goes on with a choice", async () => {
    const r = await filter(o, runText("weekly status memo"));
    expect(r.question).toBeDefined();
    const token = r.question!.token;
    const choices = r.rows.filter((x): x is ChoiceRow => x.kind === "choice");
    expect(choices.length).toBeGreaterThanOrEqual(2);
    const draft = await filter(o, pendingText(token, "Sales"));
    expect(draft.question?.token).toBe(token);
    expect(draft.rows.some((x) => x.kind === "choice" && x.title.includes("Sales"))).toBe(true);
    const next = await filter(o, choices[0].query);
    const files = next.rows.filter((x) => x.kind === "file");
    expect(files.length > 0 || next.question !== undefined).toBe(true);
    expect(next.question?.token).not.toBe(token);
  });

  it("speaks the user's language", async () => {
    const en = await filter(o, "engine");
    const ja = await filter({ ...o, locale: "ja-JP", baseEnv: { ...baseEnv, LANG: "" } }, "engine");
    expect(ja.rows[0].title).not.toBe(en.rows[0].title);
    expect(ja.rows[0].title).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
  });

  it("streams an answer with its numbered sources", async () => {
    const seen: string[] = [];
    const a = await ask(o, "How much does the engine repair cost?", (x) => seen.push(x.text));
    expect(a.error).toBeUndefined();
    expect(a.done).toBe(true);
    expect(a.text).toContain("4500 dollars");
    expect(a.extractive).toBe(true);
    expect(a.sources[0]).toMatchObject({ ref: 1, name: "estimate.txt" });
    expect(a.sources.map((s) => s.ref)).toEqual([...a.sources.map((s) => s.ref)].sort((x, y) => x - y));
    expect(seen.length).toBeGreaterThan(1);
    const scoped = await ask({ ...o, folder: "Minutes" }, "pump station", () => {});
    expect(scoped.sources.map((s) => s.name)).toEqual(["m1.txt"]);
  });

  it("says when gds is not there, and when nothing is indexed", async () => {
    await expect(filter({ ...o, gdsPath: join(dir, "no-such-gds") }, "x")).rejects.toBeInstanceOf(GdsNotFound);
    const empty = { ...o, gdsHome: join(dir, "empty-home") };
    const r = await filter(empty, "engine");
    expect(r.rows.some((x) => x.kind === "file")).toBe(false);
    expect(r.rows.length).toBeGreaterThan(0);
    const a = await ask(empty, "anything", () => {});
    expect(a.error?.message).toBeTruthy();
  });
});
