/**
 * Settings of pi 1.6.0 with a visible effect in the built CLI's terminal UI, in tmux, fullscreen and
 * regular: `showCacheMissNotices` (a notice when an answer re-billed a cached prompt) and
 * `terminal.hyperlinks` (OSC 8 links, checked in the bytes pi writes to the pane; "auto" inside a tmux
 * whose client does not forward links falls back to the URL in parentheses, as pi does) and
 * `markdown.mermaid` (a mermaid block drawn as pi's box diagram, or left as code with "off"); and
 * keybindings.json's `tui.input.copy`, which pi's editor takes before its editing keys and does nothing with.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type Completion, DONE, deltaChunk, usageChunk } from "../fixtures/sse/openai-completions/envelope.js";
import type { SseEvent } from "../support/mock-llm-server.js";
import { command, tuiSuite } from "./tui-suite.js";

const suite = tuiSuite("the settings effect tests", [{ id: "alpha-1" }]);

const completion: Completion = { id: "chatcmpl-settings", model: "alpha-1", created: 1747831200 };

/** An answer whose request had `prompt` tokens, `cached` of them read from the prompt cache. */
function answer(text: string, prompt: number, cached: number): SseEvent[] {
  return [
    deltaChunk(completion, { role: "assistant", content: text }),
    deltaChunk(completion, {}, "stop"),
    usageChunk(completion, {
      prompt_tokens: prompt,
      completion_tokens: 5,
      total_tokens: prompt + 5,
      prompt_tokens_details: { cached_tokens: cached },
    }),
    DONE,
  ];
}

function start(mode: "fullscreen" | "regular", settings: Record<string, unknown>) {
  writeFileSync(join(suite.user.agent, "settings.json"), JSON.stringify(settings));
  return suite.tmux.start({
    cwd: suite.user.project,
    env: { ...suite.user.env, DISPLAY: "", WAYLAND_DISPLAY: "" },
    args: ["--model", "mock/alpha-1", "--tui-mode", mode],
    width: 100,
    height: 30,
  });
}

describe.skipIf(!suite.hasTmux)("settings with an effect in tmux", { timeout: 60_000 }, () => {
  for (const mode of ["fullscreen", "regular"] as const) {
    for (const shown of [true, false]) {
      it(`${mode}: showCacheMissNotices ${shown}: a re-billed cached prompt ${shown ? "is" : "is not"} noticed`, async () => {
        const pane = start(mode, { showCacheMissNotices: shown });
        await pane.waitFor("alpha-1");
        suite.server.enqueue({ sse: answer("first reply", 30_000, 10_000) });
        pane.type("one");
        pane.keys("Enter");
        await pane.waitFor((s) => s.includes("first reply") && !s.includes("Working…"));
        // The second request re-bills the 30k tokens the first had in its prompt: no cache read at all.
        suite.server.enqueue({ sse: answer("second reply", 40_000, 0) });
        pane.type("two");
        pane.keys("Enter");
        const screen = await pane.waitFor((s) => s.includes("second reply") && !s.includes("Working…"));
        if (shown) expect(screen).toContain("Cache miss: 30k tokens re-billed");
        else expect(screen).not.toContain("Cache miss");
        // The first answer had nothing before it to miss.
        expect(screen.split("Cache miss").length).toBeLessThanOrEqual(2);
      });
    }
  }

  for (const mode of ["fullscreen", "regular"] as const) {
    for (const hyperlinks of [true, "auto", false] as const) {
      it(`${mode}: terminal.hyperlinks ${hyperlinks}: links ${hyperlinks === true ? "are OSC 8" : "show their URL"}`, async () => {
        const pane = start(mode, { terminal: { hyperlinks } });
        const raw = join(mkdtempSync(join(tmpdir(), "pi-osc8-")), "pane.bytes");
        suite.tmux.run("pipe-pane", "-o", "-t", pane.name, `cat >> ${raw}`);
        await pane.waitFor("alpha-1");
        suite.server.enqueue({
          sse: answer("Read [the docs](https://example.com/docs) or https://example.org/x today", 10, 0),
        });
        pane.type("links");
        pane.keys("Enter");
        const screen = await pane.waitFor((s) => s.includes("today") && !s.includes("Working…"));
        await new Promise((resolve) => setTimeout(resolve, 300));
        const bytes = existsSync(raw) ? readFileSync(raw, "latin1") : "";
        if (hyperlinks === true) {
          expect(screen).toContain("Read the docs or https://example.org/x today");
          expect(bytes).toContain("\x1b]8;;https://example.com/docs\x1b\\");
          expect(bytes).toContain("\x1b]8;;https://example.org/x\x1b\\");
        } else {
          expect(screen).toContain("Read the docs (https://example.com/docs) or https://example.org/x today");
          expect(bytes).not.toContain("\x1b]8;");
        }
      });
    }
  }

  for (const mode of ["fullscreen", "regular"] as const) {
    for (const mermaid of ["streaming", "final", "off"] as const) {
      it(`${mode}: markdown.mermaid ${mermaid}: a mermaid block ${mermaid === "off" ? "stays code" : "is a diagram"}`, async () => {
        const pane = start(mode, { markdown: { mermaid } });
        await pane.waitFor("alpha-1");
        const text = "Here:\n\n```mermaid\ngraph LR\n  A[Start] --> B[Done]\n```\n\nend of answer";
        suite.server.enqueue({ sse: answer(text, 10, 0) });
        pane.type("diagram");
        pane.keys("Enter");
        const screen = await pane.waitFor((s) => s.includes("end of answer") && !s.includes("Working…"));
        if (mermaid === "off") {
          expect(screen).toContain("A[Start] --> B[Done]");
          expect(screen).not.toContain("├───▶│");
        } else {
          expect(screen).toContain("│ Start ├───▶│ Done │");
          expect(screen).toContain("┌───────┐    ┌──────┐");
          expect(screen).not.toContain("A[Start] --> B[Done]");
        }
      });
    }
  }

  for (const mode of ["fullscreen", "regular"] as const) {
    it(`${mode}: tui.input.copy bound to ctrl+k is taken before deleteToLineEnd and edits nothing, as in pi`, async () => {
      writeFileSync(
        join(suite.user.agent, "keybindings.json"),
        JSON.stringify({ "tui.input.copy": ["ctrl+c", "ctrl+k"] }),
      );
      const pane = start(mode, {});
      await pane.waitFor("alpha-1");
      pane.type("hello world");
      await pane.waitFor("hello world");
      pane.keys("Home", "C-k");
      pane.type("X");
      await pane.waitFor("Xhello world");
      // Ctrl+C still clears the editor (the app's own key), as pi's editor passes it on.
      pane.keys("C-c");
      await pane.waitFor((s) => !s.includes("Xhello world"), { all: false });
    });
  }

  it("showCacheMissNotices: resuming the session derives the notice again, as pi does", async () => {
    const pane = start("regular", { showCacheMissNotices: true });
    await pane.waitFor("alpha-1");
    suite.server.enqueue({ sse: answer("first reply", 30_000, 10_000) });
    pane.type("one");
    pane.keys("Enter");
    await pane.waitFor((s) => s.includes("first reply") && !s.includes("Working…"));
    suite.server.enqueue({ sse: answer("second reply", 40_000, 0) });
    pane.type("two");
    pane.keys("Enter");
    await pane.waitFor((s) => s.includes("Cache miss: 30k tokens re-billed") && !s.includes("Working…"));
    command(pane, "/new");
    await pane.waitFor((s) => !s.includes("second reply"), { all: false });
    command(pane, "/resume");
    await pane.waitFor((s) => s.includes("Resume a session") && s.includes("one"), { all: false });
    pane.type("one");
    pane.keys("Enter");
    const screen = await pane.waitFor((s) => s.includes("second reply") && s.includes("Cache miss"), { all: false });
    expect(screen.indexOf("Cache miss: 30k tokens re-billed")).toBeGreaterThan(screen.indexOf("second reply"));
  });
});
