/**
 * The `--models` scope resolver on its own: pattern order, each model once, ids with glob characters,
 * a tie between providers (each added, with a warning), fuzzy matches and bad thinking suffixes.
 */
import { describe, expect, it } from "vitest";
import type { Model } from "../../../contracts/ai/index.js";
import { resolveScope } from "../../../plugins/ai/models/scope.js";

const model = (provider: string, id: string, name = id): Model =>
  ({ provider, id, name, api: "openai-completions", reasoning: false, input: ["text"] }) as unknown as Model;

const POOL = [
  model("openai", "gpt-5"),
  model("openai", "gpt-5-mini"),
  model("openrouter", "gpt-5"),
  model("anthropic", "claude-sonnet-4-5", "Claude Sonnet 4.5"),
  model("anthropic", "claude-opus-4-1", "Claude Opus 4.1"),
  model("local", "qwen[1m]"),
];
const refs = (patterns: string[]) =>
  resolveScope(patterns, POOL).models.map(
    (s) => `${s.model.provider}/${s.model.id}${s.thinking ? `:${s.thinking}` : ""}`,
  );

describe("resolveScope", () => {
  it("keeps pattern order and adds each model once", () => {
    expect(refs(["anthropic/*", "claude-sonnet-4-5", "openai/gpt-5-mini"])).toEqual([
      "anthropic/claude-sonnet-4-5",
      "anthropic/claude-opus-4-1",
      "openai/gpt-5-mini",
    ]);
  });

  it("a fuzzy word finds the model, with its :thinking suffix", () => {
    expect(refs(["sonnet:high"])).toEqual(["anthropic/claude-sonnet-4-5:high"]);
  });

  it("an id that looks like a glob is taken as the id", () => {
    expect(refs(["qwen[1m]"])).toEqual(["local/qwen[1m]"]);
  });

  it("an id several providers offer adds each and warns to use provider/id", () => {
    const scope = resolveScope(["gpt-5"], POOL);
    expect(scope.models.map((s) => s.model.provider).sort()).toEqual(["openai", "openrouter"]);
    expect(scope.warnings).toEqual([
      'pattern "gpt-5" matches several providers: openai, openrouter; use provider/id to choose one',
    ]);
  });

  it("a pattern that matches nothing, and a bad thinking level, are warnings", () => {
    const scope = resolveScope(["*gemini*", "sonnet:loud"], POOL);
    expect(scope.models).toEqual([]);
    expect(scope.warnings[0]).toBe('no models match pattern "*gemini*"');
    expect(scope.warnings[1]).toMatch(/sonnet:loud/);
  });
});
