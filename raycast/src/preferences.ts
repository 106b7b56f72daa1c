import { getPreferenceValues } from "@raycast/api";
import { GdsOptions } from "./gds";

/** The extension's preferences (package.json) and each command's own. */
interface ExtensionPreferences {
  gdsPath?: string;
  gdsHome?: string;
}

interface SearchPreferences extends ExtensionPreferences {
  folder?: string;
  source?: string;
}

interface AskPreferences extends ExtensionPreferences {
  askFolder?: string;
}

function locale(): string {
  return Intl.DateTimeFormat().resolvedOptions().locale;
}

/** The gds options of Search Drive. */
export function searchOptions(): GdsOptions {
  const p = getPreferenceValues<SearchPreferences>();
  return { gdsPath: p.gdsPath, gdsHome: p.gdsHome, folder: p.folder, sources: p.source, locale: locale() };
}

/** The gds options of Ask Drive. */
export function askOptions(): GdsOptions {
  const p = getPreferenceValues<AskPreferences>();
  return { gdsPath: p.gdsPath, gdsHome: p.gdsHome, folder: p.askFolder, locale: locale() };
}
