import { describe, expect, it } from "vitest";
import { FileRow, Row } from "../src/gds";
import { fileAccessories, fileIcon, folderOf, resultsSubtitle, sections, summaryMarkdown } from "../src/rows";

const file = (over: Partial<FileRow> = {}): FileRow => ({
  kind: "file",
  id: "1",
  title: "estimate.txt",
  subtitle: "s",
  link: "file:///d/Reports/estimate.txt",
  summary: "Engine repair estimate.",
  ...over,
});

describe("rows", () => {
  it("a file with a local copy has Finder's icon, its folder, Quick Look's path", () => {
    const r = file({ localPath: "/d/Reports/estimate.txt", folder: "Reports" });
    expect(fileIcon(r)).toEqual({ fileIcon: "/d/Reports/estimate.txt" });
    expect(folderOf(r)).toBe("/d/Reports");
  });
  it("a Drive file has an icon by type and no folder to open", () => {
    expect(fileIcon(file({ uti: "org.openxmlformats.spreadsheetml.sheet" }))).toBe("Icon.BarChart");
    expect(fileIcon(file({ uti: "com.adobe.pdf" }))).toBe("Icon.Document");
    expect(folderOf(file())).toBeUndefined();
  });
  it("accessories: the missing words, the notice, the folder", () => {
    expect(fileAccessories(file())).toEqual([]);
    const acc = fileAccessories(file({ missing: "zqxjvw", notice: "No 2025 PDFs", folder: "Reports" }));
    expect(acc).toEqual([
      { tag: { value: "Missing: zqxjvw", color: "Color.Orange" }, tooltip: "Missing: zqxjvw" },
      { icon: { source: "Icon.Info", tintColor: "Color.Yellow" }, tooltip: "No 2025 PDFs" },
      { text: "Reports", icon: "Icon.Folder", tooltip: "Reports" },
    ]);
    expect(fileAccessories(file({ account: "work" }))).toEqual([
      { tag: "work", icon: "Icon.Person", tooltip: "Google account: work" },
    ]);
  });
  it("groups rows by section in gds's order", () => {
    const rows: Row[] = [
      { kind: "run", title: "r", subtitle: "", query: "q" },
      file({ id: "a" }),
      { kind: "message", title: "m", subtitle: "" },
      file({ id: "b" }),
      { kind: "question", title: "q", subtitle: "", token: "t" },
      { kind: "choice", title: "c", subtitle: "", query: "x" },
      { kind: "instead", title: "i", subtitle: "", query: "y" },
    ];
    const g = sections(rows);
    expect(g.search).toHaveLength(1);
    expect(g.corrected.map((r) => r.kind)).toEqual(["instead"]);
    expect(g.results.map((r) => (r as FileRow).id)).toEqual(["a", "b"]);
    expect(g.question.map((r) => r.kind)).toEqual(["question", "choice"]);
    expect(g.notices).toHaveLength(1);
  });
  it("the summary page", () => {
    expect(summaryMarkdown(file({ folder: "Reports", notice: "n", missing: "watt" }))).toBe(
      "# estimate.txt\n\nEngine repair estimate.\n\nFolder: Reports\n\nMissing: watt\n\n> n",
    );
  });
  it("the results' subtitle: how many, and the notice every result carries, once", () => {
    expect(resultsSubtitle([])).toBeUndefined();
    expect(resultsSubtitle([file({ id: "a" }), file({ id: "b" })])).toBe("2");
    const n = "No file contains ‘zqxjvw’";
    expect(resultsSubtitle([file({ id: "a", notice: n }), file({ id: "b", notice: n })])).toBe(`2 · ${n}`);
    expect(resultsSubtitle([file({ id: "a", notice: n }), file({ id: "b" })])).toBe("2");
  });
});
