/**
 * keybindings.json in the built TUI (tmux): a rebound action answers to its new key, an edit of the file
 * applies at the next key press, and an unknown action is reported on one warning line that names it.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { agentHome } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";
import { HAS_TMUX, TmuxServer } from "./tmux-pane.js";

if (!HAS_TMUX) console.log("tui-keys tests skipped: tmux is not installed");

let tmux: TmuxServer | undefined;
beforeAll(() => {
  if (!existsSync(PI_BIN)) throw new Error(`${PI_BIN} is missing; run "npm run build" first`);
  if (HAS_TMUX) tmux = new TmuxServer();
});
afterAll(() => tmux?.close());
afterEach(() => tmux?.killPanes());

describe.skipIf(!HAS_TMUX)("keybindings.json (built CLI in tmux)", { timeout: 90_000 }, () => {
  it("a rebound action answers to its new key; an edit applies at once; an unknown action is one warning", async () => {
    const user = agentHome();
    user.scriptFaux([{ content: "unused" }]);
    writeFileSync(
      join(user.agent, "settings.json"),
      JSON.stringify({ defaultProvider: "faux", defaultModel: "faux-1" }),
    );
    const keys = join(user.agent, "keybindings.json");
    writeFileSync(keys, JSON.stringify({ "app.model.select": "alt+m", "app.no.such": "ctrl+x" }));
    const pane = tmux!.start({ cwd: user.project, env: user.env, width: 100, height: 30, watch: "screen" });
    // The warning shows at start-up, before any key.
    await pane.waitFor((s) => s.includes("faux-1") && s.includes('keybindings.json: unknown action "app.no.such"'));
    pane.keys("M-m");
    const picker = await pane.waitFor("Select a model");
    expect(picker).toContain('keybindings.json: unknown action "app.no.such"');
    pane.keys("Escape");
    await pane.waitFor((s) => !s.includes("Select a model"));

    // Edited while pi runs: the typed word "draft" then Alt+M is plain editing, and the new key opens it.
    writeFileSync(keys, JSON.stringify({ "app.model.select": ["ctrl+]"] }));
    pane.type("draft");
    pane.keys("M-m");
    await pane.waitFor("draft");
    pane.keys("C-]");
    const reopened = await pane.waitFor("Select a model");
    expect(reopened.match(/unknown action/g)?.length ?? 0).toBe(1);
  });

  for (const mode of ["regular", "fullscreen"] as const) {
    it(`${mode}: ctrl+] and ctrl+alt+] jump to a typed character; pageUp moves the editor a page (regular)`, async () => {
      const user = agentHome();
      user.scriptFaux([{ content: "unused" }]);
      const pane = tmux!.start({
        cwd: user.project,
        env: user.env,
        width: 100,
        height: 30,
        watch: "screen",
        args: ["--tui-mode", mode],
      });
      await pane.waitFor("faux-1");
      pane.type("alpha beta gamma");
      await pane.waitFor("alpha beta gamma");
      pane.keys("Home", "C-]");
      pane.type("b");
      pane.type("X");
      await pane.waitFor("alpha Xbeta gamma");
      // Backward from there to the "a" that ends "alpha".
      pane.type("\x1b\x1d");
      pane.type("a");
      pane.type("Y");
      await pane.waitFor("alphYa Xbeta gamma");
      // The same key twice cancels: the next character is typed.
      pane.keys("C-]", "C-]");
      pane.type("Q");
      await pane.waitFor("alphYQa Xbeta gamma");
      if (mode === "fullscreen") return;
      pane.keys("C-u", "C-k");
      for (let i = 1; i <= 12; i++) {
        pane.type(`l${i}`);
        if (i < 12) pane.keys("C-j");
      }
      await pane.waitFor("l12");
      // A page is 30% of the terminal's 30 rows: 9 lines up from line 12.
      pane.keys("PageUp");
      pane.type("Z");
      await pane.waitFor("l3Z");
    });
  }
});
