/**
 * pi 1.6.0's discovery globals for codemode scripts: `searchTools(query, { limit?, namespace? })` ranks
 * the script's tools with the BM25 ranker MCP's `tool_search` uses (kit/text/tool-ranker.ts, default
 * limit 8) and resolves to `{ name, description }[]`, `name` being the `tools.<name>` identifier;
 * `describeTool(name)` resolves to the tool's description and TypeScript declaration, or undefined;
 * `describeNamespace(name)` resolves to `{ name, tools }` for an MCP server's namespace (`mcp__<server>`,
 * the tools' identifiers), or undefined; `ALL_TOOLS` lists every tool as `{ name, description }` with
 * the declaration as description. A namespace is an MCP server (`mcp__<server>__<tool>`), named as
 * written, as an identifier, or as pi's `mcp__<server>`.
 */
import { rankTools } from "pi-host";
import { toolDeclarations } from "./declarations.js";
import type { Discover } from "./sandbox.js";

/** pi's default `searchTools` limit. */
const DEFAULT_LIMIT = 8;

/** One tool a script can call. */
export interface DiscoverableTool {
  ident: string;
  name: string;
  description: string;
  parameters: unknown;
}

/** The answers to a script's discovery calls over `tools`. */
export function createDiscovery(tools: readonly DiscoverableTool[]): Discover {
  return (kind, args) => {
    if (kind === "searchTools") return searchTools(tools, args[0], args[1]);
    if (kind === "describeTool") return describeTool(tools, args[0]);
    if (kind === "describeNamespace") return describeNamespace(tools, args[0]);
    throw new Error(`unknown discovery call ${kind}`);
  };
}

function searchTools(tools: readonly DiscoverableTool[], query: unknown, options: unknown): unknown {
  if (typeof query !== "string") throw new Error("searchTools() expects a query string");
  const { limit = DEFAULT_LIMIT, namespace } = (options ?? {}) as { limit?: unknown; namespace?: unknown };
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit <= 0)
    throw new Error("searchTools() limit must be a positive integer");
  if (namespace !== undefined && namespace !== null && typeof namespace !== "string")
    throw new Error("searchTools() namespace must be a string");
  const candidates = tools.filter((t) => !namespace || namespaceMatches(serverOf(t.name), namespace));
  const ranked = rankTools(
    query,
    candidates.map((t) => ({
      name: t.name,
      description: t.description,
      parameters: t.parameters,
      ...(serverOf(t.name) !== undefined && { namespaceText: serverOf(t.name) }),
    })),
    limit,
  );
  return ranked.map((name) => {
    const tool = candidates.find((t) => t.name === name)!;
    return { name: tool.ident, description: tool.description };
  });
}

function describeTool(tools: readonly DiscoverableTool[], name: unknown): string | undefined {
  if (typeof name !== "string") throw new Error("describeTool() expects a tool name");
  const tool = tools.find((t) => t.ident === name || t.name === name);
  return tool === undefined ? undefined : toolDeclarations([tool]);
}

/** pi's `ALL_TOOLS`: every tool as `{ name, description }`, the name its `tools.<name>`, the description its declaration. */
export function allToolsList(tools: readonly DiscoverableTool[]): Array<{ name: string; description: string }> {
  return tools.map((tool) => ({ name: tool.ident, description: toolDeclarations([tool]) }));
}

function describeNamespace(
  tools: readonly DiscoverableTool[],
  name: unknown,
): { name: string; tools: string[] } | undefined {
  if (typeof name !== "string") throw new Error("describeNamespace() expects a namespace name");
  const members = tools.filter((t) => namespaceMatches(serverOf(t.name), name));
  const server = members[0] === undefined ? undefined : serverOf(members[0].name)!;
  if (server === undefined) return undefined;
  return { name: namespaceName(server), tools: members.map((t) => t.ident) };
}

/** pi's name of an MCP server's namespace: `mcp__<server>` with `-` as `_`. */
function namespaceName(server: string): string {
  return `mcp__${server.replace(/-/g, "_")}`;
}

/** The MCP server of a tool named `mcp__<server>__<tool>`. */
function serverOf(name: string): string | undefined {
  return /^mcp__(.+?)__/.exec(name)?.[1];
}

function namespaceMatches(server: string | undefined, wanted: string): boolean {
  if (server === undefined) return false;
  const ident = (text: string): string => text.replace(/[^A-Za-z0-9_$]/g, "_");
  return server === wanted || ident(server) === ident(wanted) || namespaceName(server) === wanted;
}
