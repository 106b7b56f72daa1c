// The parts of `ray lint`'s manifest check that need no network (the
// author and the JSON schema are checked against raycast.com): every
// command has its entry point, titles are Title Case, preferences are
// complete, the icon is a 512 px PNG.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const root = join(__dirname, "..");
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

interface Preference {
  name: string;
  type: string;
  title?: string;
  label?: string;
  description: string;
  required: boolean;
}

const titleCase = (s: string) =>
  s
    .split(/\s+/)
    .every(
      (w) => w === "" || /^[A-Z0-9(]/.test(w) || ["a", "an", "the", "of", "in", "and", "or", "to", "for"].includes(w),
    );

describe("package.json", () => {
  it("names the extension and its commands as the Store wants", () => {
    expect(manifest.name).toBe("gds");
    expect(titleCase(manifest.title)).toBe(true);
    expect(manifest.description.length).toBeGreaterThan(20);
    expect(manifest.license).toBe("MIT");
    expect(manifest.platforms).toEqual(["macOS"]);
    expect(manifest.commands.map((c: { name: string }) => c.name)).toEqual(["search-drive", "ask-drive"]);
    for (const c of manifest.commands) {
      expect(existsSync(join(root, "src", `${c.name}.tsx`)), c.name).toBe(true);
      expect(titleCase(c.title), c.title).toBe(true);
      expect(c.mode).toBe("view");
      expect(c.description.length).toBeGreaterThan(20);
    }
  });

  it("declares complete preferences: the gds path and home for every command, the folder and sources for Search Drive", () => {
    const prefs: Preference[] = [
      ...manifest.preferences,
      ...manifest.commands.flatMap((c: { preferences?: Preference[] }) => c.preferences ?? []),
    ];
    expect(prefs.map((p) => p.name).sort()).toEqual(["askFolder", "folder", "gdsHome", "gdsPath", "source"]);
    for (const p of prefs) {
      expect(p.title && titleCase(p.title), p.name).toBeTruthy();
      expect(p.description.length, p.name).toBeGreaterThan(10);
      expect(p.required, p.name).toBe(false);
      expect(["textfield", "directory"]).toContain(p.type);
    }
  });

  it("has a 512 px PNG icon in assets/", () => {
    const png = readFileSync(join(root, "assets", manifest.icon));
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([512, 512]);
  });

  it("has the Store's scripts and a README and CHANGELOG", () => {
    for (const s of ["build", "dev", "lint", "fix-lint", "publish"]) expect(manifest.scripts[s], s).toBeTruthy();
    expect(readFileSync(join(root, "CHANGELOG.md"), "utf8")).toMatch(/^# GDS Changelog\n\n## \[/);
    expect(readFileSync(join(root, "README.md"), "utf8")).toContain("npm run dev");
  });
});
