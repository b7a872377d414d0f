import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentDir } from "../../../kit/index.js";
import { closestMatches, editDistance } from "../../../plugins/ai/models/suggest.js";

describe("models plugin: suggestions", () => {
  it("counts single-character edits", () => {
    expect(editDistance("", "")).toBe(0);
    expect(editDistance("abc", "abc")).toBe(0);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("sonet", "sonnet")).toBe(1);
  });

  it("offers substrings first, then near misses, and never unrelated names", () => {
    const names = ["anthropic", "openai", "google", "groq"];
    expect(closestMatches("antropic", names, (n) => [n])).toEqual(["anthropic"]);
    expect(closestMatches("open", names, (n) => [n])).toEqual(["openai"]);
    expect(closestMatches("gogle", names, (n) => [n])).toEqual(["google"]);
    expect(closestMatches("zzzzzzz", names, (n) => [n])).toEqual([]);
    const ids = ["claude-opus-4-5", "claude-sonnet-4-5", "claude-sonnet-4-6", "gemini-2.5-pro"];
    expect(closestMatches("claude-sonet-4", ids, (n) => [n]).slice(0, 2)).toEqual([
      "claude-sonnet-4-5",
      "claude-sonnet-4-6",
    ]);
    expect(closestMatches("sonnet", ids, (n) => [n])).toEqual(["claude-sonnet-4-5", "claude-sonnet-4-6"]);
    expect(closestMatches("claude", ids, (n) => [n], 2)).toHaveLength(2);
  });
});

describe("models plugin: agent folder", () => {
  it("prefers the config, then PI_CODING_AGENT_DIR, then ~/.pi/agent", () => {
    expect(agentDir("/etc/pi", { PI_CODING_AGENT_DIR: "/other" })).toBe("/etc/pi");
    expect(agentDir(undefined, { PI_CODING_AGENT_DIR: "/other" })).toBe("/other");
    expect(agentDir(undefined, { PI_CODING_AGENT_DIR: "~/agent" })).toBe(join(homedir(), "agent"));
    expect(agentDir(undefined, {})).toBe(join(homedir(), ".pi", "agent"));
  });
});
