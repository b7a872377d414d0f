/**
 * Tool names the model sees: `mcp__<server>__<tool>`. Providers accept only `[A-Za-z0-9_-]{1,64}` as
 * a tool name, so other characters become `_` and an over-long name is cut and made unique again with
 * a short hash of the full one. The source keeps a map back to the server's real tool name.
 */
import { createHash } from "node:crypto";

const MAX_TOOL_NAME = 64;

/** The name a server's tool (or a resource/prompt helper) is offered under. */
export function mcpToolName(server: string, tool: string): string {
  const name = `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_-]/g, "_");
  if (name.length <= MAX_TOOL_NAME) return name;
  const hash = createHash("sha256").update(`${server}\u0000${tool}`).digest("hex").slice(0, 8);
  return `${name.slice(0, MAX_TOOL_NAME - hash.length - 1)}_${hash}`;
}
