/**
 * OpenTelemetry is loaded in one file and only when telemetry is on: across the source tree, the only
 * runtime imports of an `@opentelemetry/*` package are otel.ts's dynamic `import()`s (other files may
 * import its types, which the build erases), and otel.ts itself is reached only through a dynamic
 * `import("./otel.js")`. The e2e test (tests/e2e/telemetry.test.ts) checks the same on the built CLI.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const SOURCE_DIRS = ["kernel", "contracts", "kit", "hosts", "plugins"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** Every import of `specifier` (a prefix) in `text`: "static", "type" or "dynamic". */
function importsOf(text: string, specifier: string): string[] {
  const kinds: string[] = [];
  const quoted = `["']${specifier.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}`;
  for (const match of text.matchAll(new RegExp(`^\\s*(import|export)\\s+(type\\s+)?[^;]*?from\\s+${quoted}`, "gm")))
    kinds.push(match[2] ? "type" : "static");
  for (const _ of text.matchAll(new RegExp(`import\\(\\s*${quoted}`, "g"))) kinds.push("dynamic");
  return kinds;
}

describe("the OpenTelemetry SDK is imported lazily, in one file", () => {
  const files = SOURCE_DIRS.flatMap((dir) => sourceFiles(join(ROOT, dir)));

  it("runtime imports of @opentelemetry/* are otel.ts's dynamic ones only", () => {
    const runtime: string[] = [];
    for (const file of files) {
      const kinds = importsOf(readFileSync(file, "utf8"), "@opentelemetry/").filter((kind) => kind !== "type");
      for (const kind of kinds) runtime.push(`${relative(ROOT, file)}: ${kind}`);
    }
    expect(runtime.length).toBeGreaterThan(0);
    expect(new Set(runtime)).toEqual(new Set(["plugins/integrations/telemetry/otel.ts: dynamic"]));
  });

  it("otel.ts is reached only through a dynamic import", () => {
    const uses = files.flatMap((file) =>
      importsOf(readFileSync(file, "utf8"), "./otel.js").map((kind) => `${relative(ROOT, file)}: ${kind}`),
    );
    expect(uses).toEqual(["plugins/integrations/telemetry/index.ts: dynamic"]);
  });
});
