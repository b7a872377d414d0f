/**
 * The `codemode` tool. Its description is rebuilt every turn with TypeScript declarations of the tools
 * active right then (MCP servers' tools come and go), which is why it is offered through the tool
 * source contract: a ToolContract tool's description is a fixed string read synchronously, before
 * the turn's run-time tools are even listed.
 *
 * One call runs one script; whatever it does — a hundred `read`s in a loop — the model gets back one
 * tool result holding only the script's console output and return value, and the session records one
 * tool call.
 */
import { Type } from "@sinclair/typebox";
import type { AgentHooks } from "pi-host";
import type { ToolContext, ToolResult, ToolSource, ToolSpecOf, ToolUpdate } from "pi-host";
import type { ManyHandle } from "pi-host";
import { identifierFor, toolDeclarations } from "./declarations.js";
import { allToolsList, createDiscovery } from "./discovery.js";
import { listNestedTools, runNestedCall, type NestedTool, type ToolProviders } from "./nested-tools.js";
import { runSandboxed, type SandboxFunction, type SandboxLimits } from "./sandbox.js";

/** The tool's name, as the model calls it. */
export const CODEMODE_TOOL = "codemode";

const CodemodeParameters = Type.Object(
  {
    code: Type.String({
      minLength: 1,
      description:
        "The body of an async JavaScript function: use `await tools.<name>(args)` to call tools, console.log to report, and `return` a result.",
    }),
  },
  { additionalProperties: false },
);

/** What a codemode call shows in `details` (logs and UIs, never the model). */
export interface CodemodeDetails {
  toolCalls: number;
  failedToolCalls: number;
  durationMs: number;
  outputTruncated?: boolean;
}

/** The plugin's choices for the tool. */
export interface CodemodeOptions {
  providers: ToolProviders;
  hooks: ManyHandle<AgentHooks>;
  limits: SandboxLimits;
  /** Tool names scripts may call (undefined = every active tool but codemode). */
  allow: string[] | undefined;
  /** Tool names scripts may never call. */
  deny: string[];
  /**
   * `always`: the tool is offered every turn. `with-codemode-tools`: only while some tool is reachable
   * only from codemode (an MCP server with `codemode` exposure), as pi 1.6 activates codemode, or when
   * the run's `--tools` names it; otherwise it is listed inactive.
   */
  offer: "always" | "with-codemode-tools";
}

/** The source offering the `codemode` tool, its description rebuilt from the tools active each turn. */
export class CodemodeSource implements ToolSource {
  constructor(private readonly options: CodemodeOptions) {}

  async listTools(cwd: string, allowedToolNames?: readonly string[]): Promise<ToolSpecOf[]> {
    const nested = await this.nestedTools(cwd, allowedToolNames);
    // Listed either way, so `--tools +codemode` can still turn it on.
    const inactive =
      this.options.offer === "with-codemode-tools" && !nested.some((t) => t.spec.exposure === "codemode");
    const bound = bindIdentifiers(nested);
    return [
      {
        ...(inactive && { inactive: true }),
        name: CODEMODE_TOOL,
        label: "codemode",
        description: describeCodemode(bound, this.options.limits),
        parameters: CodemodeParameters,
      },
    ];
  }

  /** The tools a script may call: the plugin's allow/deny config within the session's active set. */
  private nestedTools(cwd: string, active: readonly string[] | undefined): Promise<NestedTool[]> {
    return listNestedTools(this.options.providers, cwd, this.options.allow, this.options.deny, active);
  }

  async executeTool(
    name: string,
    toolCallId: string,
    params: unknown,
    signal: AbortSignal | undefined,
    onUpdate: ToolUpdate | undefined,
    ctx: ToolContext,
  ): Promise<ToolResult<CodemodeDetails>> {
    if (name !== CODEMODE_TOOL) throw new Error(`the codemode plugin has no tool "${name}"`);
    const { code } = params as { code: string };
    const started = Date.now();
    const bound = bindIdentifiers(await this.nestedTools(ctx.cwd, ctx.activeToolNames));
    // Each nested call gets its own signal from the sandbox, aborted when the script ends (or the
    // session aborts it): a stopped script leaves no tool running behind it, and a flood of calls adds
    // no listeners to one shared signal.
    let toolCalls = 0;
    let failedToolCalls = 0;
    const functions: Record<string, SandboxFunction> = {};
    for (const { ident, tool } of bound) {
      functions[ident] = async (args, callSignal) => {
        const callId = `${toolCallId}/${++toolCalls}`;
        const outcome = await runNestedCall(tool, args, callId, { signal: callSignal, ctx, hooks: this.options.hooks });
        if (outcome.isError) failedToolCalls++;
        onUpdate?.({
          content: [{ type: "text", text: `${toolCalls} tool call(s) so far` }],
          details: { toolCalls, failedToolCalls, durationMs: Date.now() - started },
        });
        if (outcome.isError) throw new Error(outcome.text);
        return outcome.text;
      };
    }
    const discoverable = bound.map(({ ident, tool }) => ({
      ident,
      name: tool.spec.name,
      description: tool.spec.description,
      parameters: tool.spec.parameters,
    }));
    const discovery = createDiscovery(discoverable);
    const outcome = await runSandboxed(
      code,
      functions,
      this.options.limits,
      signal,
      discovery,
      allToolsList(discoverable),
    );
    const details: CodemodeDetails = {
      toolCalls,
      failedToolCalls,
      durationMs: Date.now() - started,
      ...(outcome.outputTruncated && { outputTruncated: true }),
    };
    const { text, truncated } = resultText(outcome, this.options.limits.maxOutputBytes);
    if (truncated) details.outputTruncated = true;
    return { content: [{ type: "text", text }], details, ...(outcome.error !== undefined && { isError: true }) };
  }
}

/** Sandbox identifiers for the tools, in list order (the declarations and the run must agree). */
function bindIdentifiers(tools: NestedTool[]): Array<{ ident: string; tool: NestedTool }> {
  const taken = new Set<string>();
  return tools.map((tool) => ({ ident: identifierFor(tool.spec.name, taken), tool }));
}

/** The tool description: what codemode is for, its rules and limits, and the declarations. */
function describeCodemode(bound: Array<{ ident: string; tool: NestedTool }>, limits: SandboxLimits): string {
  const declarations = toolDeclarations(
    bound.map(({ ident, tool }) => ({
      ident,
      name: tool.spec.name,
      description: tool.spec.description,
      parameters: tool.spec.parameters,
    })),
  );
  return [
    "Run a JavaScript program that calls tools, to do many tool calls in one step (loops over files, searches, aggregation).",
    "The `code` is the body of an async function: `await` the functions of `tools`, then `return` a result. Only what the program prints with console.log and what it returns come back to you, so print or return a short summary, not raw data.",
    "Each tool function takes one argument object and resolves with the tool's text output; it throws an Error when the tool fails or a hook blocks the call (use try/catch to go on). Arguments are checked against the declarations below.",
    "`await searchTools(query, { limit?, namespace? })` ranks the tools by topic and resolves to `{ name, description }[]` (`name` is the `tools.<name>` to call); `await describeTool(name)` resolves to a tool's description and declaration, or undefined; `await describeNamespace(name)` resolves to `{ name, tools }` for an MCP server, or undefined; `ALL_TOOLS` lists every callable tool as `{ name, description }`.",
    `The sandbox is plain JavaScript: no file system, network, process, require/import, timers or fetch — the tools are its only way to act. Limits: ${limits.timeLimitMs / 1000} s, ${Math.round(limits.memoryLimitBytes / 1024 / 1024)} MB of memory, ${Math.round(limits.maxOutputBytes / 1024)} KB of output, ${limits.maxToolCalls} tool calls (${limits.maxConcurrentToolCalls} at a time; more wait their turn).`,
    "",
    "```ts",
    declarations,
    "```",
  ].join("\n");
}

/** The one text the model sees: console output, then the return value or the error; cut at the output limit. */
function resultText(
  outcome: { output: string; outputTruncated: boolean; returned?: string; error?: string },
  maxBytes: number,
): { text: string; truncated: boolean } {
  const parts: string[] = [];
  if (outcome.output !== "") parts.push(outcome.output);
  if (outcome.outputTruncated) parts.push(`[console output cut at ${Math.round(maxBytes / 1024)} KB]`);
  if (outcome.error !== undefined) parts.push(`Error: ${outcome.error}`);
  else if (outcome.returned !== undefined)
    parts.push(parts.length > 0 ? `Return value:\n${outcome.returned}` : outcome.returned);
  const text = parts.length > 0 ? parts.join("\n\n") : "(the program printed nothing and returned nothing)";
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return { text, truncated: false };
  const note = `\n[output cut at ${Math.round(maxBytes / 1024)} KB; print or return less]`;
  return {
    text:
      bytes
        .subarray(0, maxBytes)
        .toString("utf8")
        .replace(/\uFFFD$/, "") + note,
    truncated: true,
  };
}
