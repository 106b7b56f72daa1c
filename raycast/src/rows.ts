// How a row of gds's answer looks in the list: icon, accessories, the
// folder to open (pure but for @raycast/api's icon and colour names).
import { Color, Icon, Image, List } from "@raycast/api";
import { dirname } from "node:path";
import { FileRow, Row } from "./gds";

/** The icon of a file: its own (Finder's) when there is a local copy, else one by type. */
export function fileIcon(r: FileRow): Image.ImageLike {
  if (r.localPath) return { fileIcon: r.localPath };
  const uti = r.uti ?? "";
  if (uti.includes("image")) return Icon.Image;
  if (uti.includes("movie") || uti.includes("video")) return Icon.Video;
  if (uti.includes("audio")) return Icon.Music;
  if (uti.includes("spreadsheet")) return Icon.BarChart;
  if (uti.includes("presentation")) return Icon.Monitor;
  if (uti === "public.folder") return Icon.Folder;
  return Icon.Document;
}

/** The accessories of a file: the words it misses, the search's notice, its Google account, its folder. */
export function fileAccessories(r: FileRow): List.Item.Accessory[] {
  const out: List.Item.Accessory[] = [];
  if (r.missing)
    out.push({ tag: { value: `Missing: ${r.missing}`, color: Color.Orange }, tooltip: `Missing: ${r.missing}` });
  if (r.notice) out.push({ icon: { source: Icon.Info, tintColor: Color.Yellow }, tooltip: r.notice });
  if (r.account) out.push({ tag: r.account, icon: Icon.Person, tooltip: `Google account: ${r.account}` });
  if (r.folder) out.push({ text: r.folder, icon: Icon.Folder, tooltip: r.folder });
  return out;
}

/** The folder to open for a file: the one holding its local copy. */
export function folderOf(r: FileRow): string | undefined {
  return r.localPath ? dirname(r.localPath) : undefined;
}

/** The section a row is listed in. */
export type SectionName = "search" | "corrected" | "question" | "results" | "notices";

export function sectionOf(r: Row): SectionName {
  switch (r.kind) {
    case "run":
      return "search";
    case "instead":
      return "corrected";
    case "question":
    case "choice":
      return "question";
    case "file":
      return "results";
    default:
      return "notices";
  }
}

/** The rows grouped by section, in the order gds gave them. */
export function sections(rows: Row[]): Record<SectionName, Row[]> {
  const out: Record<SectionName, Row[]> = { search: [], corrected: [], question: [], results: [], notices: [] };
  for (const r of rows) out[sectionOf(r)].push(r);
  return out;
}

/**
 * The subtitle of the results section: how many, and what the search says
 * of itself (the notice every result carries, said once).
 */
export function resultsSubtitle(rows: Row[]): string | undefined {
  const files = rows.filter((r): r is FileRow => r.kind === "file");
  if (files.length === 0) return undefined;
  const notice = files[0].notice;
  return notice && files.every((f) => f.notice === notice) ? `${files.length} · ${notice}` : String(files.length);
}

/** The summary of a file as a detail page. */
export function summaryMarkdown(r: FileRow): string {
  const lines = [`# ${r.title}`, "", r.summary];
  if (r.folder) lines.push("", `Folder: ${r.folder}`);
  if (r.missing) lines.push("", `Missing: ${r.missing}`);
  if (r.account) lines.push("", `Google account: ${r.account}`);
  if (r.notice) lines.push("", `> ${r.notice}`);
  return lines.join("\n");
}
