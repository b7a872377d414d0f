/** pi 1.6's exposure rules, tool_search's ranking, and the loaded tools read back from a branch. */
import { describe, expect, it } from "vitest";
import type { SessionEntry } from "../../../contracts/session.js";
import { parseExposure, toolExposureOf } from "../../../plugins/integrations/mcp/exposure.js";
import { parseServerEntry } from "../../../plugins/integrations/mcp/server-config.js";
import { rankTools } from "../../../kit/text/tool-ranker.js";
import { loadedOnBranch, runToolSearch } from "../../../plugins/integrations/mcp/tool-search.js";

describe("exposure", () => {
  it("an exact toolExposure entry wins over patterns; the first matching pattern wins; else the server's", () => {
    const config = parseExposure({
      exposure: "deferred",
      toolExposure: { "get_*": "codemode", get_issue: "direct", "g*": "hidden" },
    });
    expect(typeof config).toBe("object");
    if (typeof config === "string") return;
    expect(toolExposureOf(config, "get_issue", "codemode")).toBe("direct");
    expect(toolExposureOf(config, "get_pr", "codemode")).toBe("codemode");
    expect(toolExposureOf(config, "grep", "codemode")).toBe("hidden");
    expect(toolExposureOf(config, "list", "codemode")).toBe("deferred");
    expect(toolExposureOf({}, "list", "codemode")).toBe("codemode");
  });

  it("codemode-deferred is an alias of codemode; an unknown exposure is the entry's problem", () => {
    expect(parseExposure({ exposure: "codemode-deferred", toolExposure: { a: "codemode-deferred" } })).toEqual({
      exposure: "codemode",
      toolExposure: { a: "codemode" },
    });
    expect(parseServerEntry("x", { command: "srv", exposure: "loud" }, "/p")).toBe(
      '"exposure" must be one of "codemode", "deferred", "direct", "hidden"',
    );
    expect(parseServerEntry("x", { command: "srv", toolExposure: { a: 1 } }, "/p")).toBe(
      '"toolExposure" "a" must be one of "codemode", "deferred", "direct", "hidden"',
    );
  });

  it("timeout is in seconds; oauth fields are checked", () => {
    const spec = parseServerEntry("x", { url: "http://127.0.0.1:1/mcp", timeout: 1.5, oauth: { clientId: "c" } }, "/p");
    expect(spec).toMatchObject({ callTimeoutMs: 1500, oauth: { clientId: "c" } });
    expect(parseServerEntry("x", { url: "http://127.0.0.1:1/mcp", timeout: 0 }, "/p")).toBe(
      '"timeout" must be a positive number of seconds',
    );
    expect(parseServerEntry("x", { url: "http://127.0.0.1:1/mcp", oauth: { callbackPort: "80" } }, "/p")).toBe(
      '"oauth.callbackPort" must be a port number',
    );
  });
});

describe("tool_search", () => {
  const tools = [
    { name: "mcp__gh__list_issues", description: "List issues of a repository", parameters: {} },
    {
      name: "mcp__gh__get_file",
      description: "Read a file",
      parameters: { properties: { path: { description: "issue path" } } },
    },
    { name: "mcp__web__fetch", description: "Fetch a page", parameters: {} },
  ];

  it("ranks name matches first, an exact name before all, and loads at most `limit`", () => {
    expect(rankTools("issues", tools, 8)).toEqual(["mcp__gh__list_issues", "mcp__gh__get_file"]);
    expect(rankTools("fetch", tools, 8)).toEqual(["mcp__web__fetch"]);
    expect(rankTools("get_file", tools, 8)[0]).toBe("mcp__gh__get_file");
    expect(rankTools("issue", tools, 1)).toEqual(["mcp__gh__list_issues"]);
    expect(rankTools("the", tools, 8)).toEqual([]);
  });

  it("reports what it loaded; an empty query or a bad limit is an error", () => {
    const result = runToolSearch({ query: "fetch" }, tools);
    expect(result.details).toEqual({ loaded: ["mcp__web__fetch"] });
    expect(result.content[0]).toEqual({
      type: "text",
      text: "Loaded 1 tool. They are available from your next call:\n- mcp__web__fetch: Fetch a page",
    });
    expect(runToolSearch({ query: "zebra" }, tools).content[0]).toEqual({
      type: "text",
      text: "No matching tools found.",
    });
    expect(() => runToolSearch({ query: " " }, tools)).toThrow("query must not be empty");
    expect(() => runToolSearch({ query: "x", limit: 0 }, tools)).toThrow("limit must be a positive integer");
  });

  it("the loaded tools are those of the tool_search results on the branch, so another branch has its own", () => {
    const result = (id: string, parentId: string | null, loaded: string[], isError = false): SessionEntry => ({
      type: "message",
      id,
      parentId,
      timestamp: "2026-01-01T00:00:00.000Z",
      message: {
        role: "toolResult",
        toolCallId: id,
        toolName: "tool_search",
        content: [],
        details: { loaded },
        isError,
        timestamp: 0,
      },
    });
    const root = result("a", null, ["mcp__x__one"]);
    const left = result("b", "a", ["mcp__x__two"]);
    const right = result("c", "a", ["mcp__x__three"]);
    const failed = result("d", "c", ["mcp__x__four"], true);
    expect([...loadedOnBranch([root, left])]).toEqual(["mcp__x__one", "mcp__x__two"]);
    expect([...loadedOnBranch([root, right, failed])]).toEqual(["mcp__x__one", "mcp__x__three"]);
  });
});
