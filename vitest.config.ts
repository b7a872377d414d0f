import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    exclude: ["tests/fixtures/**", "node_modules/**"],
    pool: "forks",
    execArgv: ["--expose-gc"],
    reporters: ["default", "./tests/plain-summary.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
