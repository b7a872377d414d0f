import { describe, expect, it } from "vitest";
import { parseServerEntry, parseServers, sameServer } from "../../../plugins/integrations/mcp/server-config.js";
import { mcpToolName } from "../../../plugins/integrations/mcp/tool-names.js";

describe("server entries", () => {
  it("reads the usual stdio and HTTP shapes; relative cwd resolves against the session folder", () => {
    expect(parseServerEntry("fs", { command: "npx", args: ["-y", "x"], env: { A: "1" }, cwd: "sub" }, "/work")).toEqual(
      {
        transport: "stdio",
        name: "fs",
        command: "npx",
        args: ["-y", "x"],
        env: { A: "1" },
        cwd: "/work/sub",
        disabled: false,
      },
    );
    expect(parseServerEntry("fs", { command: "srv" }, "/work")).toMatchObject({ args: [], env: {}, cwd: "/work" });
    expect(
      parseServerEntry(
        "api",
        { url: "https://example.test/mcp", headers: { Authorization: "Bearer t" }, disabled: true },
        "/w",
      ),
    ).toEqual({
      transport: "http",
      name: "api",
      url: "https://example.test/mcp",
      headers: { Authorization: "Bearer t" },
      disabled: true,
    });
    expect(
      parseServerEntry(
        "api",
        { type: "streamable-http", url: "http://127.0.0.1:1/mcp", enabled: false, startTimeoutMs: 50 },
        "/w",
      ),
    ).toMatchObject({ transport: "http", disabled: true, startTimeoutMs: 50 });
  });

  it("says in one line what is wrong with an entry", () => {
    expect(parseServerEntry("x", { args: [] }, "/")).toBe('needs "command" (a local server) or "url" (a remote one)');
    expect(parseServerEntry("x", "npx server", "/")).toBe(
      'must be an object with "command" (a local server) or "url" (a remote one)',
    );
    expect(parseServerEntry("x", { command: "a", args: "b" }, "/")).toBe('"args" must be an array of strings');
    expect(parseServerEntry("x", { command: "a", env: { A: 1 } }, "/")).toBe(
      '"env" must be an object of string values',
    );
    expect(parseServerEntry("x", { url: "ftp://host" }, "/")).toBe(
      '"url" must be an http:// or https:// address, got "ftp://host"',
    );
    expect(parseServerEntry("x", { type: "sse", url: "http://h" }, "/")).toBe(
      '"type" "sse" is not supported; use "stdio" or "http" (streamable HTTP)',
    );
    expect(parseServerEntry("x", { type: "http", command: "a" }, "/")).toBe('needs a "url" (a remote server)');
    expect(parseServerEntry("x", { command: "a", startTimeoutMs: -1 }, "/")).toBe(
      '"startTimeoutMs" must be a positive whole number of milliseconds',
    );
    expect(parseServerEntry("my server", { command: "a" }, "/")).toBe(
      'the server name may hold only letters, digits, "_" and "-" (it becomes part of tool names)',
    );
  });

  it("keeps good entries when others are bad, naming where the bad ones came from", () => {
    const { specs, problems } = parseServers({ good: { command: "a" }, bad: {} }, 'settings "mcpServers"', "/");
    expect(specs.map((s) => s.name)).toEqual(["good"]);
    expect(problems).toEqual([
      { name: "bad", message: 'settings "mcpServers".bad: needs "command" (a local server) or "url" (a remote one)' },
    ]);
    expect(parseServers([], "X", "/").problems[0]!.message).toBe("X must be an object of named servers, got an array");
    expect(parseServers(undefined, "X", "/")).toEqual({ specs: [], problems: [] });
  });

  it("a change that matters restarts the server; toggling disabled does not count", () => {
    const a = parseServerEntry("s", { command: "a", args: ["1"] }, "/") as never;
    expect(sameServer(a, parseServerEntry("s", { command: "a", args: ["1"], disabled: true }, "/") as never)).toBe(
      true,
    );
    expect(sameServer(a, parseServerEntry("s", { command: "a", args: ["2"] }, "/") as never)).toBe(false);
  });
});

describe("tool names", () => {
  it("are mcp__<server>__<tool>, limited to what providers accept", () => {
    expect(mcpToolName("everything", "get-sum")).toBe("mcp__everything__get-sum");
    expect(mcpToolName("fs", "read.file v2")).toBe("mcp__fs__read_file_v2");
    const long = mcpToolName("server", "x".repeat(100));
    expect(long).toMatch(/^mcp__server__x+_[0-9a-f]{8}$/);
    expect(long).toHaveLength(64);
    expect(mcpToolName("server", `${"x".repeat(100)}y`)).not.toBe(long);
  });
});
