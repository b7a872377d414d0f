/**
 * The clipboard copy: the platform's tools in pi's order, a tool that works (a stand-in `xclip` on
 * PATH), OSC 52 over SSH and without a display, and a clear reason when nothing can copy.
 */
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { clipboardTools, copyToClipboard, osc52 } from "../../kit/shell/clipboard.js";

/** A folder with a fake `xclip` that stores its stdin (or fails, with `fail`). */
function fakeXclip(fail = false): { path: string; stored: () => string } {
  const dir = mkdtempSync(join(tmpdir(), "pi-clip-"));
  const out = join(dir, "clipboard.txt");
  writeFileSync(join(dir, "xclip"), fail ? "#!/bin/sh\nexit 1\n" : `#!/bin/sh\ncat > '${out}'\n`);
  chmodSync(join(dir, "xclip"), 0o755);
  return { path: dir, stored: () => readFileSync(out, "utf8") };
}

describe("copyToClipboard", () => {
  it("lists pi's tools per platform", () => {
    expect(clipboardTools({ platform: "darwin", env: {} })).toEqual([["pbcopy", []]]);
    expect(clipboardTools({ platform: "linux", env: { WAYLAND_DISPLAY: "w", DISPLAY: ":0" } }).map(([c]) => c)).toEqual(
      ["wl-copy", "xclip", "xsel"],
    );
    expect(clipboardTools({ platform: "linux", env: {} })).toEqual([]);
  });

  it("a working tool copies; over SSH the OSC 52 sequence comes too", async () => {
    const xclip = fakeXclip();
    const local = await copyToClipboard("héllo", {
      platform: "linux",
      env: { DISPLAY: ":0", PATH: `${xclip.path}:/usr/bin:/bin` },
    });
    expect(local).toEqual({ copied: true, via: "tool" });
    expect(xclip.stored()).toBe("héllo");
    const remote = await copyToClipboard("x", {
      platform: "linux",
      env: { DISPLAY: ":0", PATH: `${xclip.path}:/usr/bin:/bin`, SSH_CONNECTION: "1" },
    });
    expect(remote).toEqual({ copied: true, via: "tool", osc52: osc52("x") });
  });

  it("without a display the terminal's OSC 52 is the way", async () => {
    const result = await copyToClipboard("hi", { platform: "linux", env: { PATH: "/nonexistent" } });
    expect(result).toEqual({
      copied: true,
      via: "osc52",
      osc52: `\x1b]52;c;${Buffer.from("hi").toString("base64")}\x07`,
    });
  });

  it("a desktop whose tools fail is told what to install; text too long for OSC 52 is refused", async () => {
    const broken = fakeXclip(true);
    expect(
      await copyToClipboard("hi", { platform: "linux", env: { DISPLAY: ":0", PATH: `${broken.path}:/usr/bin:/bin` } }),
    ).toEqual({
      copied: false,
      reason: "install xclip or xsel, or check X11 access",
    });
    const long = "x".repeat(80_000);
    expect(osc52(long)).toBeUndefined();
    expect((await copyToClipboard(long, { platform: "linux", env: { PATH: "/nonexistent" } })).copied).toBe(false);
  });
});
