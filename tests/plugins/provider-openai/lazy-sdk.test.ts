/**
 * The `openai` SDK costs ~50 ms to import, so the plugin may load it only inside the stream path
 * (`await import("openai")`). Type-only imports are erased at build time and are fine. This scans every
 * file of the plugin for a static import or re-export of "openai" (or a subpath).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const PLUGIN_DIR = join(import.meta.dirname, "../../../plugins/ai/provider-openai");

/** Static (non-type) imports and re-exports of the `openai` package in `source`, as written. */
function staticOpenAIImports(source: string): string[] {
  // `import X from "openai"`, `export {...} from "openai/..."`, `import "openai"`; the bindings between
  // keyword and `from` may span lines but hold no quotes, semicolons or parentheses.
  const statements =
    source.match(/^\s*(?:import|export)\s+(?:[^;'"()]*?\sfrom\s*)?["']openai(?:\/[^"']*)?["']/gm) ?? [];
  return statements.map((s) => s.trim()).filter((s) => !/^(?:import|export)\s+type\b/.test(s));
}

describe("provider-openai loads the openai SDK lazily", () => {
  it("no plugin file imports openai statically", () => {
    const files = readdirSync(PLUGIN_DIR).filter((name) => name.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(5);
    const offenders = files.flatMap((name) =>
      staticOpenAIImports(readFileSync(join(PLUGIN_DIR, name), "utf8")).map((s) => `${name}: ${s}`),
    );
    expect(offenders).toEqual([]);
  });

  it("the SDK is reached through a dynamic import in the client factory", () => {
    const client = readFileSync(join(PLUGIN_DIR, "client.ts"), "utf8");
    expect(client).toMatch(/await import\("openai"\)/);
  });

  it("the scan catches static imports and lets type-only and dynamic ones through", () => {
    expect(staticOpenAIImports('import OpenAI from "openai";')).toHaveLength(1);
    expect(staticOpenAIImports('import { APIError } from "openai/error";')).toHaveLength(1);
    expect(staticOpenAIImports('import "openai/shims/node";')).toHaveLength(1);
    expect(staticOpenAIImports('export { default } from "openai";')).toHaveLength(1);
    expect(staticOpenAIImports('import {\n  type ChatCompletion,\n  APIError,\n} from "openai";')).toHaveLength(1);
    expect(staticOpenAIImports('import type OpenAI from "openai";')).toEqual([]);
    expect(
      staticOpenAIImports('import type { ResponseStreamEvent } from "openai/resources/responses/responses";'),
    ).toEqual([]);
    expect(staticOpenAIImports('const { default: OpenAI } = await import("openai");')).toEqual([]);
  });
});
