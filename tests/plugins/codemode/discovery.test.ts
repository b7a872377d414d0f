/**
 * pi 1.6.0's codemode discovery globals inside a script: `searchTools()` ranks the script's tools by
 * topic (BM25, as MCP's tool_search; default limit 8; `namespace` for one MCP server) and resolves to
 * `{ name, description }[]`; `describeTool()` resolves to a tool's description and declaration, or
 * undefined; `describeNamespace()` resolves to `{ name, tools }` for an MCP server; `ALL_TOOLS` lists
 * every tool. They are not tool calls: they do not count against maxToolCalls.
 */
import { describe, expect, it } from "vitest";
import {
  allToolsList,
  createDiscovery,
  type DiscoverableTool,
} from "../../../plugins/integrations/codemode/discovery.js";
import { runSandboxed, type SandboxLimits } from "../../../plugins/integrations/codemode/sandbox.js";

const LIMITS: SandboxLimits = {
  timeLimitMs: 5_000,
  memoryLimitBytes: 16 * 1024 * 1024,
  maxOutputBytes: 16_384,
  maxStackBytes: 256 * 1024,
  maxToolCalls: 1,
  maxConcurrentToolCalls: 4,
  maxArgumentBytes: 1024 * 1024,
};

const TOOLS: DiscoverableTool[] = [
  {
    ident: "read",
    name: "read",
    description: "Read the contents of a file",
    parameters: {
      type: "object",
      properties: { path: { type: "string", description: "File path" } },
      required: ["path"],
    },
  },
  {
    ident: "mcp__weather__forecast",
    name: "mcp__weather__forecast",
    description: "Get the weather forecast for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
  {
    ident: "mcp__dev_radius__search",
    name: "mcp__dev-radius__search",
    description: "Search issues in the tracker",
    parameters: { type: "object", properties: { query: { type: "string" } } },
  },
];

const run = (code: string) =>
  runSandboxed(code, { read: async () => "file text" }, LIMITS, undefined, createDiscovery(TOOLS), allToolsList(TOOLS));

describe("codemode searchTools() and describeTool()", () => {
  it("searchTools ranks by topic and gives the tools.<name> to call", async () => {
    const outcome = await run(`return await searchTools("weather forecast city");`);
    expect(outcome.error).toBeUndefined();
    expect(JSON.parse(outcome.returned!)).toEqual([
      { name: "mcp__weather__forecast", description: "Get the weather forecast for a city" },
    ]);
  });

  it("limit and namespace narrow the answer; a namespace is written as the server's name or identifier", async () => {
    const outcome = await run(`
      const all = await searchTools("search file weather", { limit: 2 });
      const server = await searchTools("search", { namespace: "dev-radius" });
      const asIdent = await searchTools("search", { namespace: "dev_radius" });
      const none = await searchTools("search", { namespace: "weather" });
      return { all: all.length, server: server.map((t) => t.name), asIdent: asIdent.map((t) => t.name), none };
    `);
    expect(outcome.error).toBeUndefined();
    expect(JSON.parse(outcome.returned!)).toEqual({
      all: 2,
      server: ["mcp__dev_radius__search"],
      asIdent: ["mcp__dev_radius__search"],
      none: [],
    });
  });

  it("describeTool gives the declaration by identifier or real name, undefined for no such tool", async () => {
    const outcome = await run(`
      const byIdent = await describeTool("mcp__dev_radius__search");
      const byName = await describeTool("mcp__dev-radius__search");
      return { same: byIdent === byName, text: byIdent, missing: await describeTool("nope") === undefined };
    `);
    expect(outcome.error).toBeUndefined();
    const answer = JSON.parse(outcome.returned!);
    expect(answer.same).toBe(true);
    expect(answer.missing).toBe(true);
    expect(answer.text).toContain('(tool "mcp__dev-radius__search") Search issues in the tracker');
    expect(answer.text).toContain("mcp__dev_radius__search(args?: {");
  });

  it("bad arguments reject inside the script with pi's messages; discovery is not a tool call", async () => {
    const outcome = await run(`
      const errors = [];
      for (const call of [() => searchTools(5), () => searchTools("x", { limit: 0 }), () => describeTool()])
        try { await call(); } catch (e) { errors.push(e.message); }
      for (let i = 0; i < 5; i++) await searchTools("read");
      return { errors, read: await tools.read({ path: "a" }) };
    `);
    expect(outcome.error).toBeUndefined();
    expect(JSON.parse(outcome.returned!)).toEqual({
      errors: [
        "searchTools() expects a query string",
        "searchTools() limit must be a positive integer",
        "describeTool() expects a tool name",
      ],
      read: "file text",
    });
  });

  it("ALL_TOOLS lists every tool as { name, description } with its declaration, and cannot be changed", async () => {
    const outcome = await run(`
      const names = ALL_TOOLS.map((t) => t.name);
      const forecast = ALL_TOOLS.find((t) => t.name === "mcp__weather__forecast");
      try { ALL_TOOLS.push({ name: "x" }); } catch (e) {}
      return { names, keys: Object.keys(forecast), same: forecast.description === (await describeTool("mcp__weather__forecast")), length: ALL_TOOLS.length, frozen: Object.isFrozen(ALL_TOOLS) };
    `);
    expect(outcome.error).toBeUndefined();
    expect(JSON.parse(outcome.returned!)).toEqual({
      names: ["read", "mcp__weather__forecast", "mcp__dev_radius__search"],
      keys: ["name", "description"],
      same: true,
      length: 3,
      frozen: true,
    });
  });

  it("describeNamespace finds an MCP server by its name, identifier or pi's mcp__ name; undefined otherwise", async () => {
    const outcome = await run(`
      const errors = [];
      try { await describeNamespace(); } catch (e) { errors.push(e.message); }
      return {
        byName: await describeNamespace("dev-radius"),
        byIdent: await describeNamespace("dev_radius"),
        byPi: await describeNamespace("mcp__dev_radius"),
        weather: await describeNamespace("weather"),
        none: (await describeNamespace("read")) === undefined,
        errors,
      };
    `);
    expect(outcome.error).toBeUndefined();
    const radius = { name: "mcp__dev_radius", tools: ["mcp__dev_radius__search"] };
    expect(JSON.parse(outcome.returned!)).toEqual({
      byName: radius,
      byIdent: radius,
      byPi: radius,
      weather: { name: "mcp__weather", tools: ["mcp__weather__forecast"] },
      none: true,
      errors: ["describeNamespace() expects a namespace name"],
    });
  });
});
