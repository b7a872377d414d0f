/**
 * pi 1.6's resource switches (kit/fs/resource-overrides.ts), which `pi config` writes and the loaders
 * read: `-path` off, `+path` on, `!glob` off; the last entry naming a resource wins; the project's
 * settings switch over the global ones; other entries are no switches.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readResourceOverrides, resourceEnabled, switchFor, withSwitch } from "../../kit/fs/resource-overrides.js";

describe("resource switches", () => {
  const base = "/home/u/.pi/agent";
  const file = `${base}/prompts/review.md`;

  it("the last entry naming a resource wins; relative to the scope folder or absolute", () => {
    expect(switchFor([], base, file)).toBeUndefined();
    expect(switchFor(["-prompts/review.md"], base, file)).toBe(false);
    expect(switchFor(["-prompts/review.md", "+prompts/review.md"], base, file)).toBe(true);
    expect(switchFor([`-${file}`], base, file)).toBe(false);
    expect(switchFor(["-./prompts/review.md"], base, file)).toBe(false);
    expect(switchFor(["!prompts/*.md"], base, file)).toBe(false);
    expect(switchFor(["!prompts/*.md", "+prompts/review.md"], base, file)).toBe(true);
    // A plain path adds a resource (the loaders' business), it switches none.
    expect(switchFor(["prompts/review.md", "-prompts/other.md"], base, file)).toBeUndefined();
  });

  it("withSwitch replaces the resource's earlier switches and keeps everything else", () => {
    expect(withSwitch(["extra/x.md", "+prompts/review.md", "-prompts/a.md"], "prompts/review.md", false)).toEqual([
      "extra/x.md",
      "-prompts/a.md",
      "-prompts/review.md",
    ]);
    expect(withSwitch([], "prompts/review.md", true)).toEqual(["+prompts/review.md"]);
  });

  it("reads both settings files; the project's switch wins, and applies only when the project's files do", async () => {
    const home = mkdtempSync(join(tmpdir(), "pi-overrides-"));
    const agent = join(home, "agent");
    const cwd = join(home, "project");
    mkdirSync(agent, { recursive: true });
    mkdirSync(join(cwd, ".pi"), { recursive: true });
    const userPrompt = join(agent, "prompts", "review.md");
    writeFileSync(
      join(agent, "settings.json"),
      JSON.stringify({ prompts: ["-prompts/review.md"], skills: "not a list" }),
    );
    writeFileSync(join(cwd, ".pi", "settings.json"), JSON.stringify({ prompts: [`+${userPrompt}`] }));
    const untrusted = await readResourceOverrides(agent, cwd, false);
    expect(untrusted.project).toBeUndefined();
    expect(resourceEnabled(untrusted, "prompts", userPrompt)).toBe(false);
    expect(untrusted.user.entries.skills).toEqual([]);
    const trusted = await readResourceOverrides(agent, cwd, true);
    expect(resourceEnabled(trusted, "prompts", userPrompt)).toBe(true);
    // A broken settings file has no switches (the settings plugin reports it).
    writeFileSync(join(agent, "settings.json"), "{ not json");
    expect(resourceEnabled(await readResourceOverrides(agent, cwd, false), "prompts", userPrompt)).toBe(true);
  });
});
