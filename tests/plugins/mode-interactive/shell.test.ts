import { afterEach, describe, expect, it } from "vitest";
import { bootTui, type TuiHarness } from "../tui/harness.js";

let h: TuiHarness | undefined;
afterEach(async () => {
  await h?.stop();
  await h?.kernel.shutdown();
  h = undefined;
});

describe("interactive shell", () => {
  it("keeps a UTF-8 character split between two reads whole, and takes a bracketed paste as one edit", async () => {
    h = await bootTui();
    await h.waitFor("pi-host");
    const bytes = Buffer.from("中文");
    h.type(bytes.subarray(0, 2) as unknown as string);
    h.type(bytes.subarray(2) as unknown as string);
    await h.waitFor(/^中文$/m);
    h.type("\x1b[200~ pasted\r\nlines\x1b[201~");
    await h.waitFor((s) => /^中文 pasted$/m.test(s) && /^lines$/m.test(s));
    // One undo takes the whole paste back.
    h.type("\x1f");
    await h.waitFor((s) => /^中文$/m.test(s) && !s.includes("lines"));
  });

  it("redraws in full at a new size and keeps drawing only changes afterwards", async () => {
    h = await bootTui({ width: 60, height: 12 });
    await h.waitFor("pi-host");
    h.type("abc");
    await h.waitFor(/^abc$/m);
    const framesBefore = h.vt.frames;
    h.resize(40, 10);
    // The terminal cuts its rows at once; the frame drawn for the new size comes after.
    await h.waitFor(() => h!.vt.frames > framesBefore);
    for (const row of h.vt.allLines()) expect([...row].length).toBeLessThanOrEqual(40);
    expect(h.vt.allLines().filter((row) => row.includes("pi-host"))).toHaveLength(1);
    const before = h.vt.bytes;
    h.type("d");
    await h.waitFor(/^abcd$/m);
    expect(h.vt.bytes - before).toBeLessThan(100);
  });

  it("leaves the terminal with the cursor below the document when the host stops the mode", async () => {
    h = await bootTui({ height: 30 });
    await h.waitFor("pi-host");
    const code = await h.stop();
    expect(code).toBe(0);
    const rows = h.vt.lines();
    const lastDrawn = rows.map((r, i) => (r !== "" ? i : -1)).reduce((a, b) => Math.max(a, b), -1);
    expect(h.vt.row).toBe(lastDrawn + 1);
    expect(h.vt.cursorVisible).toBe(true);
    h = undefined;
  });
});
