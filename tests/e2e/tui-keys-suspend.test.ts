/**
 * pi's app keys that leave the TUI or refill the editor, in the built CLI under tmux: Ctrl+G edits the prompt
 * in `$VISUAL` (both terminal modes; an editor that fails leaves the prompt and says why), Ctrl+Z (or an
 * external SIGTSTP) stops the process with the terminal restored and a SIGCONT brings the screen back, and Alt+Up puts a queued steering message back in the editor.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MockLlmServer } from "../support/mock-llm-server.js";
import { agentHome, completionsText } from "./agent-home.js";
import { PI_BIN } from "./run-pi.js";
import { HAS_TMUX, Pane, TmuxServer } from "./tmux-pane.js";

if (!HAS_TMUX) console.log("tui-keys-suspend tests skipped: tmux is not installed");

let tmux: TmuxServer | undefined;
let server: MockLlmServer | undefined;
beforeAll(() => {
  if (!existsSync(PI_BIN)) throw new Error(`${PI_BIN} is missing; run "npm run build" first`);
  if (HAS_TMUX) tmux = new TmuxServer();
});
afterAll(() => tmux?.close());
afterEach(async () => {
  tmux?.killPanes();
  await server?.close();
  server = undefined;
});

/**
 * A user on the faux model, with `$VISUAL` (or, `viaSetting`, pi's `externalEditor` setting, which beats
 * `$VISUAL`) a script that rewrites the prompt (and fails on "FAIL").
 */
function editorUser(viaSetting = false): { user: ReturnType<typeof agentHome>; env: Record<string, string> } {
  const user = agentHome();
  user.scriptFaux([{ content: "unused" }]);
  const script = join(user.project, "edit.sh");
  const settings = {
    defaultProvider: "faux",
    defaultModel: "faux-1",
    ...(viaSetting ? { externalEditor: script } : {}),
  };
  writeFileSync(join(user.agent, "settings.json"), JSON.stringify(settings));
  writeFileSync(script, '#!/bin/sh\ngrep -q FAIL "$1" && exit 3\nprintf "rewritten <%s>\\n" "$(cat "$1")" > "$1"\n');
  chmodSync(script, 0o755);
  // VISUAL comes before EDITOR, as in pi: an EDITOR of `false` would fail every edit.
  if (viaSetting) return { user, env: { ...user.env, VISUAL: "false", EDITOR: "false" } };
  return { user, env: { ...user.env, VISUAL: script, EDITOR: "false" } };
}

/** The pid of pi in a pane: the child of the pane's shell. */
function piPid(pane: Pane): number {
  const shell = tmux!.run("display-message", "-p", "-t", pane.name, "#{pane_pid}").trim();
  const child = execFileSync("ps", ["-o", "pid=", "--ppid", shell], { encoding: "utf8" }).trim().split(/\s+/)[0];
  return Number(child);
}

function processState(pid: number): string {
  return execFileSync("ps", ["-o", "stat=", "-p", String(pid)], { encoding: "utf8" }).trim();
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
}

describe.skipIf(!HAS_TMUX)("app keys that leave the TUI (built CLI in tmux)", { timeout: 120_000 }, () => {
  for (const mode of ["fullscreen", "regular"] as const) {
    it(`Ctrl+G edits the prompt in $VISUAL and reads it back (${mode}); a failing editor changes nothing`, async () => {
      // Regular mode also checks that the externalEditor setting beats $VISUAL.
      const { user, env } = editorUser(mode === "regular");
      const args = mode === "regular" ? ["--tui-mode", "regular"] : [];
      const pane = tmux!.start({ cwd: user.project, env, args, width: 100, height: 30, watch: "screen" });
      await pane.waitFor("faux-1");
      pane.type("hello there");
      await pane.waitFor("hello there");
      pane.keys("C-g");
      const edited = await pane.waitFor("rewritten <hello there>");
      expect(edited).toContain("faux-1");
      // The edited text is the editor's: more typing goes on after it.
      pane.type(" FAIL");
      await pane.waitFor("rewritten <hello there> FAIL");
      pane.keys("C-g");
      const failed = await pane.waitFor("External editor exited with code 3; prompt unchanged");
      expect(failed).toContain("rewritten <hello there> FAIL");
      expect(failed).not.toContain("rewritten <rewritten");
    });
  }

  for (const how of ["Ctrl+Z", "kill -TSTP"] as const)
    it(`${how} stops pi with the terminal restored; fg brings it back redrawn in full`, async () => {
      const { user, env } = editorUser();
      // A shell with job control, as a user's is: pi gets its own process group, which Ctrl+Z can stop.
      const name = `pijobs${Math.random().toString(36).slice(2, 8)}`;
      tmux!.run("new-session", "-d", "-s", name, "-x", "100", "-y", "30", "bash --norc --noprofile -i");
      const pane = new Pane(tmux!, name, 100, 30, "screen");
      try {
        const vars = Object.entries({ TERM: "xterm-256color", ...env })
          .map(([k, v]) => `${k}='${v.replace(/'/g, "'\\''")}'`)
          .join(" ");
        pane.type(`cd '${user.project}' && env ${vars} '${process.execPath}' '${PI_BIN}'`);
        pane.keys("Enter");
        await pane.waitFor("faux-1");
        pane.type("kept draft");
        await pane.waitFor("kept draft");
        const pid = piPid(pane);
        // An external stop signal (another terminal's `kill -TSTP`) restores the terminal as Ctrl+Z does.
        if (how === "Ctrl+Z") pane.keys("C-z");
        else process.kill(pid, "SIGTSTP");
        await until(() => processState(pid).startsWith("T"));
        expect(processState(pid)).toMatch(/^T/);
        // Stopped: the normal screen and the shell are back.
        const stopped = await pane.waitFor("Stopped");
        expect(stopped).not.toContain("kept draft");
        expect(pane.terminalModes()).toBe("0 1");
        pane.type("fg");
        pane.keys("Enter");
        const back = await pane.waitFor((s) => s.includes("kept draft") && s.includes("faux-1"));
        expect(processState(pid)).not.toMatch(/^T/);
        expect(back).not.toContain("Stopped");
        // Keys work again after the resume.
        pane.type(" more");
        await pane.waitFor("kept draft more");
      } finally {
        pane.kill();
      }
    });

  it("Ctrl+Z under a shell without job control says so and keeps running (a stop there would never end)", async () => {
    const { user, env } = editorUser();
    // The pane's `sh -c` has no job control: pi's process group is orphaned, where Linux discards SIGTSTP.
    const pane = tmux!.start({ cwd: user.project, env, width: 100, height: 30, watch: "screen" });
    await pane.waitFor("faux-1");
    pane.type("draft");
    await pane.waitFor("draft");
    pane.keys("C-z");
    const said = await pane.waitFor("Cannot suspend: pi was not started by a shell with job control");
    expect(said).toContain("draft");
    expect(processState(piPid(pane))).not.toMatch(/^T/);
    pane.type(" goes on");
    await pane.waitFor("draft goes on");
  });

  it("Alt+Up puts the queued steering message back into the editor while the model streams", async () => {
    server = await new MockLlmServer().start();
    server.enqueue({ sse: completionsText(`Slow answer ${"that goes on ".repeat(40)}`), intervalMs: 150 });
    server.enqueue({ sse: completionsText("second answer"), intervalMs: 0 });
    const user = agentHome();
    user.useMockServer(server.url);
    writeFileSync(
      join(user.agent, "settings.json"),
      JSON.stringify({ defaultProvider: "mock", defaultModel: "mock-1" }),
    );
    const pane = tmux!.start({ cwd: user.project, env: user.env, width: 100, height: 30, watch: "screen" });
    await pane.waitFor("mock-1");
    pane.type("start");
    pane.keys("Enter");
    await pane.waitFor("Slow answer");
    pane.type("steer this way");
    pane.keys("Enter");
    const queued = await pane.waitFor("Steering: steer this way");
    expect(queued).toContain("↳ alt+up to edit all queued messages");
    pane.type("and draft");
    await pane.waitFor("and draft");
    pane.keys("M-Up");
    const restored = await pane.waitFor("Restored 1 queued message to editor");
    expect(restored).not.toContain("Steering: steer this way");
    expect(restored).not.toContain("to edit all queued messages");
    // Queued text first, then the draft, a blank line between (pi's order).
    expect(restored).toMatch(/steer this way\s*\n(.*\n)?.*and draft/);
  });
});
