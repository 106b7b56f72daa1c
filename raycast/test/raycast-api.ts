// A stand-in for @raycast/api in the tests (vitest.config.mts aliases it):
// the icon and colour names the modules use, and preferences the tests set.
import { vi } from "vitest";

const names = (prefix: string) =>
  new Proxy({} as Record<string, string>, { get: (_t, k) => `${prefix}.${String(k)}` }) as Record<string, string>;

export const Icon = names("Icon");
export const Color = names("Color");

export const preferences: Record<string, unknown> = {};
export const getPreferenceValues = vi.fn(() => ({ ...preferences }));
