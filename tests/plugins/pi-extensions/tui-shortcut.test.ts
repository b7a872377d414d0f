/**
 * `pi.registerShortcut` in the terminal view: a key none of the view's bindings takes runs the
 * extension's handler (through the `tui/shortcuts` contract) with pi's ctx.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { shortcutId } from "../../../plugins/ui/tui/shortcut-id.js";
import { normalizeKeyId } from "../../../plugins/integrations/pi-extensions/shortcuts.js";
import { bootTui, type TuiHarness } from "../tui/harness.js";
import { withExtensions } from "./ext-harness.js";

let harness: TuiHarness | undefined;
afterEach(async () => {
  await harness?.stop();
  await harness?.kernel.shutdown();
  harness = undefined;
});

describe("registerShortcut in the TUI", () => {
  it("key ids: the view's spelling of a key press and pi's spelling of a shortcut meet", () => {
    expect(shortcutId({ name: "p", ctrl: true, shift: true, alt: false })).toBe("ctrl+shift+p");
    expect(shortcutId({ name: "text", text: "y", ctrl: false, shift: false, alt: true })).toBe("alt+y");
    expect(shortcutId({ name: "f5", ctrl: false, shift: false, alt: false })).toBe("f5");
    expect(shortcutId({ name: "text", text: "y", ctrl: false, shift: false, alt: false })).toBeUndefined();
    expect(normalizeKeyId("Shift+Ctrl+P")).toBe("ctrl+shift+p");
    expect(normalizeKeyId("alt+esc")).toBe("alt+escape");
  });

  it("alt+y runs the extension's handler; plain typing still goes to the editor", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "pi-ext-shortcut-")), "shortcut.ts");
    writeFileSync(
      file,
      `export default function (pi) {
  pi.registerCommand("ready", { handler: async (_a, ctx) => ctx.ui.setStatus("s", "extensions ready") });
  pi.registerShortcut("alt+y", { description: "Say yes", handler: async (ctx) => ctx.ui.setStatus("s", "shortcut ran in " + ctx.mode) });
}`,
    );
    const h = (harness = await bootTui({ ...withExtensions([file]), width: 100 }));
    h.type("/ready\r");
    await h.waitFor("extensions ready");
    h.type("\x1by");
    await h.waitFor("shortcut ran in tui");
    h.type("yq9");
    expect(await h.waitFor("yq9")).toContain("yq9");
  });
});
