/**
 * The find tool plugin: provides pi's `find` tool (ToolContract, key "find"). fd runs the search when
 * it is on PATH (as `fd` or `fdfind`), a pure-Node search with the same output otherwise; `backend`
 * forces one. Searches still running when this generation retires are aborted.
 */
import { Type } from "@sinclair/typebox";
import { ToolContract } from "pi-host";
import { HostEnvironmentContract, localToolEnabled } from "pi-host";
import { definePlugin } from "pi-host";
import { createFindTool } from "./find-tool.js";

export default definePlugin({
  id: "tool-find",
  version: "1.0.0",
  description: "pi's find tool: list files by glob (fd, or a pure-Node fallback)",
  provides: [ToolContract],
  // Read when the turn's tools are assembled: the tool steps aside when the run chose `--remote`.
  requires: [{ contract: HostEnvironmentContract, optional: true }],
  config: Type.Object({
    /** "auto": fd when usable, else Node; "native": always fd; "node": always the Node search. */
    backend: Type.Union([Type.Literal("auto"), Type.Literal("native"), Type.Literal("node")], { default: "auto" }),
  }),
  setup(ctx) {
    const enabled = localToolEnabled(ctx.use(HostEnvironmentContract));
    ctx.provide(
      ToolContract,
      { ...createFindTool({ backend: ctx.config.backend, lifetime: ctx.signal }), enabled },
      { key: "find" },
    );
  },
});
