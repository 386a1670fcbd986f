import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["daemon/test/**/*.test.ts", "tests/**/*.test.ts"],
    globalSetup: ["tests/support/temp-root.ts"],
    testTimeout: 60_000,
    hookTimeout: 600_000,
  },
});
