/**
 * The ls tool plugin: provides pi's `ls` tool (ToolContract, key "ls"): a sorted, limited listing of
 * one folder with folders marked by a trailing "/".
 */
import { ToolContract } from "pi-host";
import { HostEnvironmentContract, localToolEnabled } from "pi-host";
import { definePlugin } from "pi-host";
import { createLsTool } from "./ls-tool.js";

export default definePlugin({
  id: "tool-ls",
  version: "1.0.0",
  description: "The ls tool: list a folder, sorted, dotfiles included, folders with a trailing '/'",
  provides: [ToolContract],
  // Read when the turn's tools are assembled: the tool steps aside when the run chose `--remote`.
  requires: [{ contract: HostEnvironmentContract, optional: true }],
  setup(ctx) {
    const enabled = localToolEnabled(ctx.use(HostEnvironmentContract));
    ctx.provide(ToolContract, { ...createLsTool(), enabled }, { key: "ls" });
  },
});
