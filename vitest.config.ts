import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // Plugins import the kernel, contracts and kit as "pi-host"; from source that is hosts/api.ts.
  resolve: { alias: { "pi-host": fileURLToPath(new URL("./hosts/api.ts", import.meta.url)) } },
  test: {
    include: ["tests/**/*.test.ts"],
    exclude: ["tests/fixtures/**", "**/node_modules/**"],
    pool: "forks",
    execArgv: ["--expose-gc"],
    reporters: ["default", "./tests/plain-summary.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
