/**
 * The edit tool plugin: provides pi's `edit` tool (ToolContract, key "edit"): unique, non-overlapping
 * text replacements with a forgiving second match, BOM and line endings kept, a numbered diff in details.
 */
import { ToolContract } from "pi-host";
import { HostEnvironmentContract, localToolEnabled } from "pi-host";
import { definePlugin } from "pi-host";
import { createEditTool } from "./edit-tool.js";

export default definePlugin({
  id: "tool-edit",
  version: "1.0.0",
  description: "The edit tool: exact (else whitespace/quote/dash-tolerant) unique text replacement with a diff",
  provides: [ToolContract],
  // Read when the turn's tools are assembled: the tool steps aside when the run chose `--remote`.
  requires: [{ contract: HostEnvironmentContract, optional: true }],
  setup(ctx) {
    const enabled = localToolEnabled(ctx.use(HostEnvironmentContract));
    ctx.provide(ToolContract, { ...createEditTool(), enabled }, { key: "edit" });
  },
});
