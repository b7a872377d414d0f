import { afterEach, describe, expect, it } from "vitest";
import { bootTui, type TuiHarness } from "../tui/harness.js";

let h: TuiHarness | undefined;
afterEach(async () => {
  await h?.stop();
  await h?.kernel.shutdown();
  h = undefined;
});

const answer = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} says marker${i}.`).join("\n\n");

describe("interactive shell in fullscreen mode", () => {
  it("draws on the alternate screen, pages the transcript, searches it, and restores the terminal on exit", async () => {
    h = await bootTui({ tuiMode: "fullscreen", height: 20, faux: { responses: [{ content: answer }] } });
    await h.waitFor((s) => s.includes("pi-host") && s.includes("faux-1"));
    expect(h.vt.alternate).toBe(true);
    h.type("go");
    h.type("\r");
    await h.waitFor((s) => s.includes("marker39.") && !s.includes("Working"));
    // The editor and footer stay at the bottom; nothing went to a scrollback.
    expect(h.vt.lines()[19]).toContain("faux-1");
    expect(h.vt.scrollback).toEqual([]);
    h.type("\x1b[5~");
    await h.waitFor((s) => !s.includes("marker39.") && s.includes("marker32."));
    // The scrollbar shows while scrolled up.
    expect(h.vt.lines().some((row) => /[│┃]$/.test(row) && row.includes("Paragraph"))).toBe(true);
    // Ctrl+Shift+F (CSI u), then a query: the match is scrolled into view and counted.
    h.type("\x1b[102;6u");
    await h.waitFor("Find in transcript");
    h.type("marker3.");
    await h.waitFor((s) => s.includes("1/1") && s.includes("Paragraph 3 says"));
    h.type("\x1b");
    await h.waitFor((s) => !s.includes("1/1"));
    // Wheel down to the end follows the transcript again.
    for (let i = 0; i < 40; i++) h.type("\x1b[<65;5;5M");
    await h.waitFor((s) => s.includes("marker39."));
    const code = await h.stop();
    expect(code).toBe(0);
    expect(h.vt.alternate).toBe(false);
    expect(h.vt.cursorVisible).toBe(true);
    expect(h.vt.mouseModes.size).toBe(0);
    // The transcript is left on the normal screen, as pi leaves it.
    const all = h.vt.allLines().join("\n");
    expect(all).toContain("Paragraph 0 says marker0.");
    expect(all).toContain("Paragraph 39 says marker39.");
    h = undefined;
  });

  it("a reload of the tui plugin keeps the scroll position and the open search", async () => {
    h = await bootTui({ tuiMode: "fullscreen", height: 20, faux: { responses: [{ content: answer }] } });
    await h.waitFor((s) => s.includes("pi-host") && s.includes("faux-1"));
    h.type("go\r");
    await h.waitFor((s) => s.includes("marker39.") && !s.includes("Working"));
    h.type("\x1b[5~");
    await h.waitFor((s) => !s.includes("marker39.") && s.includes("marker32."));
    h.type("\x1b[102;6u");
    h.type("marker30.");
    await h.waitFor((s) => s.includes("1/1"));
    const before = h.screen();
    const frames = h.vt.frames;
    expect((await h.kernel.reload("tui")).status).toBe("committed");
    // The new generation draws the same screen: viewport, search box and match where they were.
    await h.waitFor(() => h!.vt.frames > frames);
    expect(h.screen()).toBe(before);
    // And it goes on from there: the query edited in the new generation finds its match at once.
    h.type("\x7f");
    await h.waitFor((s) => /│ marker30 +1\/1 │/.test(s));
    expect(h.vt.alternate).toBe(true);
  });

  it("gives the normal screen back when the process ends before the run does", async () => {
    const before = new Set(process.listeners("exit"));
    h = await bootTui({ tuiMode: "fullscreen" });
    await h.waitFor("pi-host");
    expect(h.vt.alternate).toBe(true);
    // The hook the run added runs when the process ends first (an uncaught error, process.exit).
    const hooks = process.listeners("exit").filter((listener) => !before.has(listener));
    expect(hooks).toHaveLength(1);
    hooks[0]!(1);
    expect(h.vt.alternate).toBe(false);
    expect(h.vt.cursorVisible).toBe(true);
    expect(h.vt.mouseModes.size).toBe(0);
    await h.stop();
    // A run that ended leaves no hook behind.
    expect(process.listeners("exit").filter((listener) => !before.has(listener))).toHaveLength(0);
  });
});
