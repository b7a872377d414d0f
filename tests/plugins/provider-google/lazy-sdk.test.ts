/**
 * The Gemini SDK costs ~70 ms to import, so a run that never talks to Gemini must never load it: the
 * plugin may import "@google/genai" only as types, or dynamically inside the stream path.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const PLUGIN_DIR = fileURLToPath(new URL("../../../plugins/ai/provider-google/", import.meta.url));

/** Static (non-type) imports or re-exports of the SDK in `source`, one entry per offending line. */
function staticSdkImports(source: string): string[] {
  // An import/export statement up to its first string: the module specifier.
  const statements = [...source.matchAll(/^\s*(?:import|export)\b[^;"'`]*["']([^"']+)["']/gm)];
  return statements
    .filter((m) => m[1] === "@google/genai" || m[1]!.startsWith("@google/genai/"))
    .map((m) => m[0].trim())
    .filter((statement) => !/^(?:import|export)\s+type\b/.test(statement));
}

describe("provider-google loads @google/genai lazily", () => {
  it("has no static value import of @google/genai in any plugin file", () => {
    const files = readdirSync(PLUGIN_DIR).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(0);
    const offenders = files.flatMap((file) =>
      staticSdkImports(readFileSync(PLUGIN_DIR + file, "utf8")).map((line) => `${file}: ${line}`),
    );
    expect(offenders).toEqual([]);
  });

  it("imports the SDK dynamically in the stream path", () => {
    const stream = readFileSync(`${PLUGIN_DIR}client.ts`, "utf8");
    expect(stream).toMatch(/await import\("@google\/genai"\)/);
  });

  it("the check catches static imports and lets type-only ones through", () => {
    expect(staticSdkImports(`import { GoogleGenAI } from "@google/genai";`)).toHaveLength(1);
    expect(staticSdkImports(`import * as genai from '@google/genai';`)).toHaveLength(1);
    expect(staticSdkImports(`import "@google/genai";`)).toHaveLength(1);
    expect(staticSdkImports(`export { FinishReason } from "@google/genai";`)).toHaveLength(1);
    expect(staticSdkImports(`import {\n  GoogleGenAI,\n  type Part,\n} from "@google/genai";`)).toHaveLength(1);
    expect(
      staticSdkImports(`import type { Part } from "@google/genai"\nimport { GoogleGenAI } from "@google/genai"`),
    ).toHaveLength(1);
    expect(
      staticSdkImports(`import { x } from "./local.js";\nimport { GoogleGenAI } from "@google/genai/node";`),
    ).toHaveLength(1);
    expect(staticSdkImports(`import type { Part } from "@google/genai";`)).toEqual([]);
    expect(staticSdkImports(`const { GoogleGenAI } = await import("@google/genai");`)).toEqual([]);
  });
});
