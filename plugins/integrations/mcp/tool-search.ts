/**
 * pi 1.6's `tool_search` tool, offered while some MCP tool has `deferred` exposure: it ranks the tools
 * that are not declared (`codemode` and `deferred` exposure) and loads the matches, which are declared
 * from the next model call on. What was loaded is read back from the session's current branch (the
 * `details.loaded` of its `tool_search` results), so loaded tools follow `/tree`, resume and fork.
 */
import { Type } from "@sinclair/typebox";
import type { SessionEntry, ToolResult, ToolResultMessage, ToolSpecOf } from "pi-host";
import { rankTools, type RankedTool } from "pi-host";

/** The tool's name, as pi names it. */
export const TOOL_SEARCH = "tool_search";

/** How many tools one search loads unless `limit` says otherwise. */
export const DEFAULT_TOOL_SEARCH_LIMIT = 8;

/** pi 1.6's description, word for word: it names no tool, so it does not change as servers connect. */
const DESCRIPTION = `# Tool discovery\n\nSearches over deferred tool metadata with BM25 and exposes matching tools for the next model call.\n\nSome of the tools, such as tools of MCP servers, may not have been provided to you upfront, and you should use this tool (\`${TOOL_SEARCH}\`) to search for the required tools. For MCP tool discovery, always use \`${TOOL_SEARCH}\`.`;

const Parameters = Type.Object({
  query: Type.String({ description: "Search query for deferred tools." }),
  limit: Type.Optional(
    Type.Number({ description: `Maximum number of tools to return. Defaults to ${DEFAULT_TOOL_SEARCH_LIMIT}.` }),
  ),
});

/** The `tool_search` spec as the model sees it. */
export function toolSearchSpec(): ToolSpecOf {
  return {
    name: TOOL_SEARCH,
    label: TOOL_SEARCH,
    description: DESCRIPTION,
    parameters: Parameters,
    guidelines: ["Search for tools that are not loaded yet and load the matches"],
  };
}

/** What `details` of a `tool_search` result holds: the names it loaded. */
export interface ToolSearchDetails {
  loaded: string[];
}

/** The tool names `tool_search` results on this branch loaded, in load order. */
export function loadedOnBranch(path: readonly SessionEntry[]): Set<string> {
  const loaded = new Set<string>();
  for (const entry of path) {
    if (entry.type !== "message" || entry.message.role !== "toolResult") continue;
    const message = entry.message as ToolResultMessage;
    if (message.toolName !== TOOL_SEARCH || message.isError) continue;
    const names = (message.details as Partial<ToolSearchDetails> | undefined)?.loaded;
    if (Array.isArray(names)) for (const name of names) if (typeof name === "string") loaded.add(name);
  }
  return loaded;
}

/** Runs one search over the candidates (undeclared tools not loaded yet); the loaded names go in `details`. */
export function runToolSearch(params: unknown, candidates: readonly RankedTool[]): ToolResult<ToolSearchDetails> {
  const { query, limit } = params as { query: string; limit?: number };
  if (query.trim() === "") throw new Error("query must not be empty");
  const max = limit ?? DEFAULT_TOOL_SEARCH_LIMIT;
  if (!Number.isInteger(max) || max <= 0) throw new Error("limit must be a positive integer");
  const names = rankTools(query, candidates, max);
  const found = names.map((name) => candidates.find((tool) => tool.name === name)!);
  const text =
    found.length === 0
      ? "No matching tools found."
      : `Loaded ${found.length} tool${found.length === 1 ? "" : "s"}. They are available from your next call:\n${found
          .map((tool) => `- ${tool.name}: ${tool.description.trim().split(/\r?\n/)[0]}`)
          .join("\n")}`;
  return { content: [{ type: "text", text }], details: { loaded: names } };
}
