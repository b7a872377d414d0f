/**
 * The read tool plugin: provides pi's `read` tool (ToolContract, key "read") for text files and
 * images, with pi's truncation limits and continuation hints.
 */
import { ToolContract } from "pi-host";
import { HostEnvironmentContract, localToolEnabled } from "pi-host";
import { definePlugin } from "pi-host";
import { createReadTool } from "./read-tool.js";

export default definePlugin({
  id: "tool-read",
  version: "1.0.0",
  description: "The read tool: text files with offset/limit and truncation, images as image content",
  provides: [ToolContract],
  // Read when the turn's tools are assembled: the tool steps aside when the run chose `--remote`.
  requires: [{ contract: HostEnvironmentContract, optional: true }],
  setup(ctx) {
    const enabled = localToolEnabled(ctx.use(HostEnvironmentContract));
    ctx.provide(ToolContract, { ...createReadTool(), enabled }, { key: "read" });
  },
});
