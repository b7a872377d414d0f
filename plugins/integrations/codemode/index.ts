/**
 * The codemode plugin: a `codemode` tool that runs a model-written JavaScript program in a QuickJS
 * (WebAssembly) sandbox whose only power is calling the other active tools — each call validated and
 * passed through the beforeToolCall/afterToolCall hooks like a top-level one — so a hundred tool calls
 * cost the conversation one tool result. QuickJS loads on the first run only, in the run's worker thread.
 */
import { Type } from "@sinclair/typebox";
import { HooksContract } from "pi-host";
import { ToolContract, ToolSourceContract, TOOL_LIMITS } from "pi-host";
import { definePlugin } from "pi-host";
import { CodemodeSource } from "./codemode-source.js";

/** QuickJS's own stack limit. Deeper would let recursion overflow the host's stack inside WebAssembly first. */
const MAX_STACK_BYTES = 256 * 1024;

export default definePlugin({
  id: "codemode",
  version: "1.0.0",
  description: "codemode: one tool call runs a sandboxed JavaScript program that calls the other tools",
  provides: [ToolSourceContract],
  requires: [
    { contract: ToolContract, optional: true },
    { contract: ToolSourceContract, optional: true },
    { contract: HooksContract, optional: true },
  ],
  config: Type.Object({
    /** Wall time for one program, tool calls included. */
    timeLimitMs: Type.Integer({ minimum: 1, default: 60_000 }),
    /** The sandbox's memory limit. */
    memoryLimitMb: Type.Integer({ minimum: 1, maximum: 4_096, default: 64 }),
    /** What one result may hold (console output and return value together). */
    maxOutputBytes: Type.Integer({ minimum: 256, default: TOOL_LIMITS.maxBytes }),
    /** Tool calls one program may make; later calls fail inside the program. */
    maxToolCalls: Type.Integer({ minimum: 1, maximum: 100_000, default: 1_000 }),
    /** Tool calls running at once; further calls wait their turn. */
    maxConcurrentToolCalls: Type.Integer({ minimum: 1, maximum: 256, default: 16 }),
    /** The JSON size of one tool call's arguments, in KB. */
    maxArgumentKb: Type.Integer({ minimum: 1, maximum: 65_536, default: 1_024 }),
    /** Tool names programs may call; default every active tool. */
    tools: Type.Optional(Type.Array(Type.String())),
    /** Tool names programs may never call. */
    excludeTools: Type.Array(Type.String(), { default: [] }),
    /**
     * `always` offers the tool every turn; `with-codemode-tools` only while an MCP server with `codemode`
     * exposure offers tools (pi 1.6's automatic activation; the default distribution uses it).
     */
    offer: Type.Union([Type.Literal("always"), Type.Literal("with-codemode-tools")], { default: "always" }),
  }),
  setup(ctx) {
    const { config } = ctx;
    ctx.provide(
      ToolSourceContract,
      new CodemodeSource({
        providers: {
          tools: ctx.useAll(ToolContract),
          sources: ctx.useAll(ToolSourceContract),
          selfPluginId: ctx.pluginId,
        },
        hooks: ctx.useAll(HooksContract),
        limits: {
          timeLimitMs: config.timeLimitMs,
          memoryLimitBytes: config.memoryLimitMb * 1024 * 1024,
          maxOutputBytes: config.maxOutputBytes,
          maxStackBytes: MAX_STACK_BYTES,
          maxToolCalls: config.maxToolCalls,
          maxConcurrentToolCalls: config.maxConcurrentToolCalls,
          maxArgumentBytes: config.maxArgumentKb * 1024,
        },
        allow: config.tools,
        deny: config.excludeTools,
        offer: config.offer,
      }),
    );
  },
});
