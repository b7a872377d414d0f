/**
 * The `system` theme in the built CLI under tmux: at start pi asks the terminal for its colours (OSC 11,
 * then DA1). tmux answers OSC 11 with the pane's background when `window-style` sets one, and only DA1
 * otherwise — so one run sees a light background (pi's light colours), one a dark one (pi's dark colours)
 * and one no answer (the terminal's own palette, no 24-bit colour anywhere). The colours are the system
 * theme fitted to the reported background (tmux does not answer OSC 4, so the families' own hues).
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { nearest256 } from "../../plugins/ui/tui/color-depth.js";
import { fitSystemTheme } from "../../plugins/ui/tui/theme-system-fit.js";
import { agentHome } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";
import { HAS_TMUX, TmuxServer } from "./tmux-pane.js";

if (!HAS_TMUX) console.log("tui-system-theme tests skipped: tmux is not installed");

let tmux: TmuxServer | undefined;
beforeAll(() => {
  if (!existsSync(PI_BIN)) throw new Error(`${PI_BIN} is missing; run "npm run build" first`);
  if (HAS_TMUX) tmux = new TmuxServer();
});
afterAll(() => tmux?.close());
afterEach(() => tmux?.killPanes());

/** The system theme's user message background fitted to a light or dark background. */
function userMessageBg(appearance: "dark" | "light"): { r: number; g: number; b: number } {
  const background = appearance === "light" ? { r: 255, g: 255, b: 255 } : { r: 0, g: 0, b: 0 };
  return fitSystemTheme({ background })!.colors.userMessageBg as { r: number; g: number; b: number };
}

/** Its SGR parameters in 24-bit colour, e.g. "48;2;232;232;240". */
function bgCode(appearance: "dark" | "light"): string {
  const color = userMessageBg(appearance);
  return `48;2;${color.r};${color.g};${color.b}`;
}

describe.skipIf(!HAS_TMUX)(
  "the system theme asks the terminal's background (built CLI in tmux)",
  { timeout: 120_000 },
  () => {
    for (const [style, expected] of [
      ["bg=colour231", "light"],
      ["bg=colour16", "dark"],
      ["default", "none"],
    ] as const) {
      it(`window-style ${style}: ${expected === "none" ? "no answer, the terminal's palette" : `pi's ${expected} colours`}`, async () => {
        tmux!.run("set-option", "-g", "window-style", style);
        const user = agentHome();
        user.scriptFaux([{ content: "an answer" }]);
        // Inside tmux, 24-bit colour is used when the environment says the terminal has it (as pi decides).
        const env = { ...user.env, COLORTERM: "truecolor" };
        const pane = tmux!.start({ cwd: user.project, env, width: 90, height: 24, watch: "screen" });
        await pane.waitFor("faux-1");
        pane.type("hello there");
        pane.keys("Enter");
        await pane.waitFor("an answer");
        const colors = pane.captureColors();
        if (expected === "none") {
          expect(colors).not.toMatch(/[34]8;2;/);
          expect(colors).toContain("hello there");
        } else {
          expect(colors).toContain(bgCode(expected));
          const other = expected === "light" ? "dark" : "light";
          expect(colors).not.toContain(bgCode(other));
        }
      });
    }

    it("terminal.trueColor false (or tmux without COLORTERM): the nearest 256-colour index, no 24-bit colour", async () => {
      tmux!.run("set-option", "-g", "window-style", "bg=colour16");
      for (const [settings, env] of [
        [{ terminal: { trueColor: false } }, { COLORTERM: "truecolor" }],
        [{}, { COLORTERM: "" }],
      ] as const) {
        const user = agentHome();
        user.scriptFaux([{ content: "an answer" }]);
        writeFileSync(join(user.agent, "settings.json"), JSON.stringify(settings));
        const pane = tmux!.start({
          cwd: user.project,
          env: { ...user.env, ...env },
          width: 90,
          height: 24,
          watch: "screen",
        });
        await pane.waitFor("faux-1");
        pane.type("hello there");
        pane.keys("Enter");
        await pane.waitFor("an answer");
        const colors = pane.captureColors();
        expect(colors).toContain(`48;5;${nearest256(userMessageBg("dark"))}m`);
        expect(colors).not.toMatch(/[34]8;2;/);
        pane.kill();
      }
    });
  },
);
