/** pi 1.6.0's `--tools` / `--exclude-tools` selection, and how `--tools` deltas meet a configured default. */
import { describe, expect, it } from "vitest";
import { selectToolNames } from "../../../plugins/session/agent-session/active-tools.js";
import { effectiveSessionConfig } from "../../../plugins/session/agent-session/run-choices.js";

const NAMES = ["read", "bash", "edit", "write", "grep", "codemode", "mcp__radius__ping", "mcp__other__ls"];
const pick = (allowed: string[] | undefined, excluded?: string[]): string[] => [
  ...selectToolNames(NAMES, allowed, excluded),
];

describe("selectToolNames", () => {
  it("undefined selects every tool; [] none (MCP included)", () => {
    expect(pick(undefined)).toEqual(NAMES);
    expect(pick([])).toEqual([]);
  });

  it("plain names and * patterns allow only their matches, keeping MCP tools", () => {
    expect(pick(["read", "*it*"])).toEqual(["read", "edit", "write", "mcp__radius__ping", "mcp__other__ls"]);
  });

  it("an entry starting with mcp__ filters MCP tools too", () => {
    expect(pick(["read", "bash", "codemode", "mcp__radius__*"])).toEqual([
      "read",
      "bash",
      "codemode",
      "mcp__radius__ping",
    ]);
  });

  it("only +name/-name entries change every enabled tool; + of a tool not on offer adds nothing", () => {
    expect(pick(["+codemode", "-write", "+nothere"])).toEqual(NAMES.filter((n) => n !== "write"));
    expect(pick(["-mcp__other__ls"])).not.toContain("mcp__other__ls");
  });

  it("exclusions apply last, by name or pattern, MCP tools included", () => {
    expect(pick(undefined, ["mcp__*", "bash"])).toEqual(["read", "edit", "write", "grep", "codemode"]);
    expect(pick(["read", "bash"], ["bash"])).toEqual(["read", "mcp__radius__ping", "mcp__other__ls"]);
  });

  it("a pattern's other characters match only themselves", () => {
    expect(selectToolNames(["a.b", "axb"], ["a.b"], undefined)).toEqual(new Set(["a.b"]));
  });
});

describe("--tools over the configured tools", () => {
  const env = (flags: object) => ({
    cwd: "/p",
    agentDir: "/a",
    projectTrust: { trusted: false, source: "none-needed" as const },
    flags,
  });

  it("+name/-name changes keep the configured default and apply after it", () => {
    const config = effectiveSessionConfig({ tools: ["read", "write"] }, env({ tools: ["+bash", "-write"] }));
    expect(config.tools).toEqual(["read", "write", "+bash", "-write"]);
    expect(selectToolNames(["read", "write", "bash", "edit"], config.tools, undefined)).toEqual(
      new Set(["read", "bash"]),
    );
  });

  it("plain names replace the configured default; exclusions pass through", () => {
    const config = effectiveSessionConfig({ tools: ["read"] }, env({ tools: ["bash"], excludeTools: ["x*"] }));
    expect(config.tools).toEqual(["bash"]);
    expect(config.excludeTools).toEqual(["x*"]);
  });
});
