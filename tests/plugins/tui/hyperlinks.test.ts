/**
 * `terminal.hyperlinks`: "auto" decides from the environment as pi 1.6.0 does (PI_HYPERLINKS first,
 * tmux only when its client forwards links, screen never, known terminals on, unknown ones off), and a
 * tool title's path links to its file URL.
 */
import { afterEach, describe, expect, it } from "vitest";
import { detect, hyperlinksOn, linkPathIn, setHyperlinkSetting } from "../../../plugins/ui/tui/hyperlinks.js";

afterEach(() => setHyperlinkSetting("auto"));

describe("hyperlinks", () => {
  it("decides 'auto' as pi does", () => {
    const never = () => false;
    const always = () => true;
    expect(detect({ PI_HYPERLINKS: "1", TERM: "screen" }, never)).toBe(true);
    expect(detect({ PI_HYPERLINKS: "0", TERM_PROGRAM: "kitty" }, always)).toBe(false);
    expect(detect({ TMUX: "/tmp/x,1,0", TERM_PROGRAM: "kitty" }, never)).toBe(false);
    expect(detect({ TMUX: "/tmp/x,1,0" }, always)).toBe(true);
    expect(detect({ TERM: "screen-256color", TERM_PROGRAM: "iTerm.app" }, always)).toBe(false);
    expect(detect({ TERM_PROGRAM: "WezTerm" }, never)).toBe(true);
    expect(detect({ WT_SESSION: "1" }, never)).toBe(true);
    expect(detect({ TERM: "xterm-256color" }, always)).toBe(false);
  });

  it("the setting wins over detection; a tool title's path links to its file", () => {
    setHyperlinkSetting(false);
    expect(hyperlinksOn()).toBe(false);
    expect(linkPathIn("read src/a.ts:1-5", "src/a.ts", "/work")).toBe("read src/a.ts:1-5");
    setHyperlinkSetting(true);
    expect(linkPathIn("read src/a.ts:1-5", "src/a.ts", "/work")).toBe(
      "read \x1b]8;;file:///work/src/a.ts\x1b\\src/a.ts\x1b]8;;\x1b\\:1-5",
    );
  });
});
