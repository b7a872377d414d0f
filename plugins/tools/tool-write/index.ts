/**
 * The write tool plugin: provides pi's `write` tool (ToolContract, key "write"), which creates or
 * overwrites a file under the session's per-file write lock.
 */
import { ToolContract } from "pi-host";
import { HostEnvironmentContract, localToolEnabled } from "pi-host";
import { definePlugin } from "pi-host";
import { createWriteTool } from "./write-tool.js";

export default definePlugin({
  id: "tool-write",
  version: "1.0.0",
  description: "The write tool: create or overwrite a file, creating parent folders",
  provides: [ToolContract],
  // Read when the turn's tools are assembled: the tool steps aside when the run chose `--remote`.
  requires: [{ contract: HostEnvironmentContract, optional: true }],
  setup(ctx) {
    const enabled = localToolEnabled(ctx.use(HostEnvironmentContract));
    ctx.provide(ToolContract, { ...createWriteTool(), enabled }, { key: "write" });
  },
});
