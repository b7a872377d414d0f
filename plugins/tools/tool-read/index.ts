/**
 * The read tool plugin: provides pi's `read` tool (ToolContract, key "read") for text files and
 * images, with pi's truncation limits and continuation hints.
 */
import { ToolContract } from "pi-host";
import { definePlugin } from "pi-host";
import { createReadTool } from "./read-tool.js";

export default definePlugin({
  id: "tool-read",
  version: "1.0.0",
  description: "The read tool: text files with offset/limit and truncation, images as image content",
  provides: [ToolContract],
  setup(ctx) {
    ctx.provide(ToolContract, createReadTool(), { key: "read" });
  },
});
