import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// @raycast/api only runs inside Raycast: the tests get a small stand-in
// (test/raycast-api.ts) with the names the extension's modules use.
export default defineConfig({
  resolve: {
    alias: { "@raycast/api": fileURLToPath(new URL("./test/raycast-api.ts", import.meta.url)) },
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
