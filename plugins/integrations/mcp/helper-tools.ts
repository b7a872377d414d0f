/**
 * The resource and prompt helper tools of one MCP server (`mcp__<server>__list_resources`,
 * `read_resource`, `list_prompts`, `get_prompt`), offered when the server has resources or prompts.
 */
import { Type } from "@sinclair/typebox";
import type { ToolSpecOf } from "pi-host";
import { mcpToolName } from "./tool-names.js";

/** Where an offered tool name leads. */
export type Route =
  | { kind: "tool"; server: string; tool: string }
  | { kind: "list_resources" | "read_resource" | "list_prompts" | "get_prompt"; server: string }
  | { kind: "tool_search"; server: "" };

/** The resource and prompt helpers of a server that offers them. */
export function helperTools(
  server: string,
  caps: { resources: boolean; prompts: boolean },
): Array<{ spec: ToolSpecOf; route: Route }> {
  const out: Array<{ spec: ToolSpecOf; route: Route }> = [];
  if (caps.resources) {
    out.push(
      {
        spec: {
          name: mcpToolName(server, "list_resources"),
          label: `${server}: list resources`,
          description: `Lists the resources (and resource templates) the MCP server "${server}" offers: URI, name, type.`,
          parameters: Type.Object({}),
        },
        route: { kind: "list_resources", server },
      },
      {
        spec: {
          name: mcpToolName(server, "read_resource"),
          label: `${server}: read resource`,
          description: `Reads one resource of the MCP server "${server}" by URI (see ${mcpToolName(server, "list_resources")}).`,
          parameters: Type.Object({ uri: Type.String({ description: "The resource URI", minLength: 1 }) }),
        },
        route: { kind: "read_resource", server },
      },
    );
  }
  if (caps.prompts) {
    out.push(
      {
        spec: {
          name: mcpToolName(server, "list_prompts"),
          label: `${server}: list prompts`,
          description: `Lists the prompts the MCP server "${server}" offers, with their arguments (? = optional).`,
          parameters: Type.Object({}),
        },
        route: { kind: "list_prompts", server },
      },
      {
        spec: {
          name: mcpToolName(server, "get_prompt"),
          label: `${server}: get prompt`,
          description: `Gets one prompt of the MCP server "${server}", filled with its arguments (see ${mcpToolName(server, "list_prompts")}).`,
          parameters: Type.Object({
            name: Type.String({ description: "The prompt name", minLength: 1 }),
            arguments: Type.Optional(
              Type.Record(Type.String(), Type.String(), { description: "The prompt's arguments by name" }),
            ),
          }),
        },
        route: { kind: "get_prompt", server },
      },
    );
  }
  return out;
}
