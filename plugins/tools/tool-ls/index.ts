/**
 * The ls tool plugin: provides pi's `ls` tool (ToolContract, key "ls"): a sorted, limited listing of
 * one folder with folders marked by a trailing "/".
 */
import { ToolContract } from "pi-host";
import { definePlugin } from "pi-host";
import { createLsTool } from "./ls-tool.js";

export default definePlugin({
  id: "tool-ls",
  version: "1.0.0",
  description: "The ls tool: list a folder, sorted, dotfiles included, folders with a trailing '/'",
  provides: [ToolContract],
  setup(ctx) {
    ctx.provide(ToolContract, createLsTool(), { key: "ls" });
  },
});
