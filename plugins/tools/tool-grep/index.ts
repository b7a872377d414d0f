/**
 * The grep tool plugin: provides pi's `grep` tool (ToolContract, key "grep"). ripgrep runs the search
 * when it is on PATH, a pure-Node search with the same output otherwise; `backend` forces one. Searches
 * still running when this generation retires are aborted.
 */
import { Type } from "@sinclair/typebox";
import { ToolContract } from "pi-host";
import { HostEnvironmentContract, localToolEnabled } from "pi-host";
import { definePlugin } from "pi-host";
import { createGrepTool } from "./grep-tool.js";

export default definePlugin({
  id: "tool-grep",
  version: "1.0.0",
  description: "pi's grep tool: search file contents (ripgrep, or a pure-Node fallback)",
  provides: [ToolContract],
  // Read when the turn's tools are assembled: the tool steps aside when the run chose `--remote`.
  requires: [{ contract: HostEnvironmentContract, optional: true }],
  config: Type.Object({
    /** "auto": ripgrep when usable, else Node; "native": always ripgrep; "node": always the Node search. */
    backend: Type.Union([Type.Literal("auto"), Type.Literal("native"), Type.Literal("node")], { default: "auto" }),
  }),
  setup(ctx) {
    const enabled = localToolEnabled(ctx.use(HostEnvironmentContract));
    ctx.provide(
      ToolContract,
      { ...createGrepTool({ backend: ctx.config.backend, lifetime: ctx.signal }), enabled },
      { key: "grep" },
    );
  },
});
