import { describe, expect, it } from "vitest";
import { stripImageSequences, withoutImages } from "../../../kit/index.js";
import { preferredImageType } from "../../../kit/shell/clipboard-read.js";
import { cellWidth as shellCellWidth } from "../../../plugins/modes/mode-interactive/ansi.js";
import { removedPlacements } from "../../../plugins/modes/mode-interactive/kitty-placements.js";
import { DiffRenderer } from "../../../plugins/modes/mode-interactive/renderer.js";
import {
  detectImageProtocol,
  imagePlaceholder,
  imageRows,
  imageSize,
  kittySequence,
  setImageOptions,
} from "../../../plugins/ui/tui/image-render.js";
import { cellWidth } from "../../../plugins/ui/tui/text.js";
import { tinyPng } from "../../support/tiny-png.js";

const png = (w: number, h: number) => tinyPng(w, h).toString("base64");

describe("images in the transcript", () => {
  it("detects the protocol from the environment as pi does; never under tmux or screen; PI_IMAGE_PROTOCOL wins", () => {
    expect(detectImageProtocol({ KITTY_WINDOW_ID: "1" })).toBe("kitty");
    expect(detectImageProtocol({ TERM_PROGRAM: "ghostty" })).toBe("kitty");
    expect(detectImageProtocol({ TERM_PROGRAM: "WezTerm" })).toBe("kitty");
    expect(detectImageProtocol({ TERM_PROGRAM: "iTerm.app" })).toBe("iterm2");
    expect(detectImageProtocol({ ITERM_SESSION_ID: "w0t0p0" })).toBe("iterm2");
    expect(detectImageProtocol({ KITTY_WINDOW_ID: "1", TMUX: "/tmp/tmux,1,0" })).toBeNull();
    expect(detectImageProtocol({ TERM: "screen-256color", ITERM_SESSION_ID: "x" })).toBeNull();
    expect(detectImageProtocol({ TERM: "xterm-256color" })).toBeNull();
    expect(detectImageProtocol({ TMUX: "x", PI_IMAGE_PROTOCOL: "kitty" })).toBe("kitty");
    expect(detectImageProtocol({ KITTY_WINDOW_ID: "1", PI_IMAGE_PROTOCOL: "none" })).toBeNull();
  });

  it("reads the pixel size from a PNG header; an unreadable image has none", () => {
    expect(imageSize(png(7, 3), "image/png")).toEqual({ widthPx: 7, heightPx: 3 });
    expect(imageSize(Buffer.from("GIF89a\x05\x00\x02\x00", "latin1").toString("base64"), "image/gif")).toEqual({
      widthPx: 5,
      heightPx: 2,
    });
    expect(imageSize("bm90IGFuIGltYWdl", "image/png")).toBeUndefined();
    expect(imagePlaceholder("image/png", { widthPx: 7, heightPx: 3 })).toBe("[Image: [image/png] 7x3]");
  });

  it("kitty: the sequence on the first row (cursor kept), blank rows under it; iTerm2: blank rows, then the sequence after moving up", () => {
    // As pi does, the image is scaled to at most 60 columns and as many rows as keep its shape (9×18 px cells).
    const data = png(180, 90);
    const kitty = imageRows({ data, mimeType: "image/png" }, 80, (t) => t, { protocol: "kitty" });
    expect(kitty[0]).toMatch(/^ \x1b_Ga=T,f=100,q=2,C=1,c=60,r=15,i=\d+;/);
    expect(kitty[0]!.endsWith(`;${data}\x1b\\`)).toBe(true);
    expect(kitty.slice(1)).toEqual(Array(14).fill(""));
    const iterm = imageRows({ data, mimeType: "image/png" }, 80, (t) => t, { protocol: "iterm2" });
    expect(iterm.slice(0, -1)).toEqual(Array(14).fill(""));
    expect(iterm.at(-1)).toMatch(/^ \x1b\[14A\x1b\]1337;File=inline=1;size=\d+;width=60;height=auto:/);
    // A narrow terminal: the width bounds it.
    expect(imageRows({ data, mimeType: "image/png" }, 22, (t) => t, { protocol: "kitty" })[0]).toContain("c=20,r=5,i=");
    // Elsewhere (and kitty with a non-PNG image), pi's placeholder.
    expect(imageRows({ data, mimeType: "image/png" }, 80, (t) => `<${t}>`, { protocol: null })).toEqual([
      " <[Image: [image/png] 180x90]>",
    ]);
    expect(imageRows({ data: png(4, 4), mimeType: "image/jpeg" }, 80, (t) => t, { protocol: "kitty" })).toEqual([
      " [Image: [image/jpeg]]",
    ]);
  });

  it("terminal.images beats the detection, terminal.imageWidthCells bounds the width, showImages false hides them", () => {
    const data = png(180, 90);
    const paint = (t: string) => t;
    try {
      setImageOptions({ images: "kitty", imageWidthCells: 20 });
      expect(imageRows({ data, mimeType: "image/png" }, 80, paint)[0]).toContain("c=20,r=5,i=");
      setImageOptions({ images: "iterm2" });
      expect(imageRows({ data, mimeType: "image/png" }, 80, paint).at(-1)).toContain("width=60;");
      setImageOptions({ images: false });
      expect(imageRows({ data, mimeType: "image/png" }, 80, paint)).toEqual([" [Image: [image/png] 180x90]"]);
      setImageOptions({ images: "kitty", showImages: false });
      expect(imageRows({ data, mimeType: "image/png" }, 80, paint)).toEqual([" [Image: [image/png] 180x90]"]);
    } finally {
      setImageOptions({});
    }
  });

  it("big images go in 4096-byte chunks; image rows measure as the cells they show", () => {
    const data = "A".repeat(10_000);
    const sequence = kittySequence(data, 10, 5);
    expect(sequence.startsWith("\x1b_Ga=T,f=100,q=2,C=1,c=10,r=5,m=1;")).toBe(true);
    expect(sequence).toContain("\x1b\\\x1b_Gm=1;");
    expect(sequence.endsWith(`\x1b_Gm=0;${"A".repeat(10_000 - 8192)}\x1b\\`)).toBe(true);
    const row = ` ${sequence}`;
    expect(stripImageSequences(row)).toBe(" ");
    expect(cellWidth(row)).toBe(1);
    expect(shellCellWidth(row)).toBe(1);
    expect(shellCellWidth(" \x1b[4A\x1b]1337;File=inline=1;size=3:QUJD\x07")).toBe(1);
  });

  it("two equal images get their own kitty ids; an image whose row leaves the alternate screen loses its placement", () => {
    const data = png(20, 20);
    const [a] = imageRows({ data, mimeType: "image/png" }, 80, (t) => t, { protocol: "kitty", key: "1:0" });
    const [b] = imageRows({ data, mimeType: "image/png" }, 80, (t) => t, { protocol: "kitty", key: "2:0" });
    const id = (row: string) => Number(/,i=(\d+);/.exec(row)![1]);
    expect(id(a!)).not.toBe(id(b!));
    expect(removedPlacements([a!, "x", b!], ["x", b!])).toBe(`\x1b_Ga=d,d=i,i=${id(a!)},q=2\x1b\\`);
    expect(removedPlacements([a!], [a!])).toBe("");
    // Through the renderer: scrolling the image's row away deletes its placement once.
    let out = "";
    const renderer = new DiffRenderer((bytes) => (out += bytes), "alternate");
    renderer.begin(40, 4);
    renderer.render({ lines: [a!, "", "", "editor"], cursor: null }, 40, 4);
    out = "";
    renderer.render({ lines: ["one", "two", "three", "editor"], cursor: null }, 40, 4);
    expect(out).toContain(`\x1b_Ga=d,d=i,i=${id(a!)},q=2\x1b\\`);
    out = "";
    renderer.render({ lines: ["one", "two", "three!", "editor"], cursor: null }, 40, 4);
    expect(out).not.toContain("a=d");
  });

  it("images.blockImages: each run of images becomes pi's one line of text; other blocks stay", () => {
    const image = { type: "image" as const, data: "QUJD", mimeType: "image/png" };
    const [user, result] = withoutImages([
      { role: "user", content: [{ type: "text", text: "look" }, image, image], timestamp: 1 },
      { role: "toolResult", toolCallId: "c", toolName: "read", content: [image], isError: false, timestamp: 2 },
    ]);
    expect(user!.content).toEqual([
      { type: "text", text: "look" },
      { type: "text", text: "Image reading is disabled." },
    ]);
    expect(result!.content).toEqual([{ type: "text", text: "Image reading is disabled." }]);
  });

  it("the clipboard's best image type is taken as pi takes it", () => {
    expect(preferredImageType("TARGETS\ntext/plain\nimage/jpeg\nimage/png\n")).toBe("image/png");
    expect(preferredImageType("image/bmp\n")).toBe("image/bmp");
    expect(preferredImageType("UTF8_STRING\ntext/plain")).toBeUndefined();
  });
});
