import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { classifyHead } from "../../../kit/tools/read-output.js";
import { resolveToCwd } from "../../../kit/index.js";
import { numberedLines, put, read, tempFolder, textOf } from "./harness.js";

/** A real 1x1 PNG. */
const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64",
);
/** A real 1x1 GIF. */
const GIF_1X1 = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

describe("read: text files", () => {
  it("returns a small file whole, with no details", async () => {
    const dir = tempFolder();
    put(dir, "hello.txt", "alpha\nbeta\ngamma\n");
    const result = await read(dir, { path: "hello.txt" });
    expect(result.content).toEqual([{ type: "text", text: "alpha\nbeta\ngamma\n" }]);
    expect(result.details).toBeUndefined();
  });

  it("resolves absolute paths and an @-prefixed path against cwd", async () => {
    const dir = tempFolder();
    const absolute = put(dir, "a.txt", "content");
    expect(textOf(await read("/", { path: absolute }))).toBe("content");
    expect(textOf(await read(dir, { path: "@a.txt" }))).toBe("content");
  });

  it("expands ~ to the home folder", () => {
    expect(resolveToCwd("~", "/somewhere")).toBe(homedir());
    expect(resolveToCwd("~/notes/x.md", "/somewhere")).toBe(join(homedir(), "notes/x.md"));
    expect(resolveToCwd("rel/x.md", "/somewhere")).toBe("/somewhere/rel/x.md");
  });

  it("honours offset (1-based) and limit, and says where the rest continues", async () => {
    const dir = tempFolder();
    put(dir, "ten.txt", numberedLines(10));
    const result = await read(dir, { path: "ten.txt", offset: 3, limit: 2 });
    expect(textOf(result)).toBe("line 3\nline 4\n\n[6 more lines in file. Use offset=5 to continue.]");
    expect(result.details).toBeUndefined();
  });

  it("adds no note when offset/limit reach the end of the file", async () => {
    const dir = tempFolder();
    put(dir, "ten.txt", numberedLines(10));
    expect(textOf(await read(dir, { path: "ten.txt", offset: 8, limit: 50 }))).toBe("line 8\nline 9\nline 10");
    expect(textOf(await read(dir, { path: "ten.txt", offset: 10 }))).toBe("line 10");
  });

  it("truncates a huge file at 2,000 lines and names the exact offset to continue", async () => {
    const dir = tempFolder();
    put(dir, "huge.txt", numberedLines(3000));
    const result = await read(dir, { path: "huge.txt" });
    const text = textOf(result);
    expect(text.endsWith("line 2000\n\n[Showing lines 1-2000 of 3000. Use offset=2001 to continue.]")).toBe(true);
    expect(text.startsWith("line 1\nline 2\n")).toBe(true);
    expect(result.details?.truncation).toMatchObject({
      truncated: true,
      truncatedBy: "lines",
      totalLines: 3000,
      outputLines: 2000,
      maxLines: 2000,
      maxBytes: 51200,
    });

    const rest = await read(dir, { path: "huge.txt", offset: 2001 });
    expect(textOf(rest)).toBe(numberedLines(3000).split("\n").slice(2000).join("\n"));
    expect(rest.details).toBeUndefined();
  });

  it("truncates at 50 KB before 2,000 lines, counting UTF-8 bytes, with the byte-limit hint", async () => {
    const dir = tempFolder();
    // Each line is 49 two-byte characters + 1 ASCII char = 99 bytes, 100 with its newline.
    const lines = Array.from({ length: 1000 }, (_, i) => `${"é".repeat(49)}${i % 10}`);
    put(dir, "wide.txt", lines.join("\n"));
    // 99 + 100 * (n - 1) <= 51,200  =>  n = 512 lines fit.
    const first = await read(dir, { path: "wide.txt" });
    expect(textOf(first)).toBe(
      `${lines.slice(0, 512).join("\n")}\n\n[Showing lines 1-512 of 1000 (50.0KB limit). Use offset=513 to continue.]`,
    );
    expect(first.details?.truncation).toMatchObject({ truncatedBy: "bytes", outputLines: 512, outputBytes: 51_199 });

    const fromTen = await read(dir, { path: "wide.txt", offset: 10 });
    expect(textOf(fromTen).endsWith("[Showing lines 10-521 of 1000 (50.0KB limit). Use offset=522 to continue.]")).toBe(
      true,
    );
  });

  it("following the continuation offsets reassembles the whole file", async () => {
    const dir = tempFolder();
    const original = Array.from({ length: 4500 }, (_, i) => (i % 7 === 0 ? "x".repeat(120) : `row ${i}`)).join("\n");
    put(dir, "long.txt", original);
    const pieces: string[] = [];
    let offset: number | undefined = 1;
    while (offset !== undefined) {
      const text = textOf(await read(dir, { path: "long.txt", offset }));
      const hint = /\n\n\[Showing lines \d+-\d+ of \d+(?: \(50\.0KB limit\))?\. Use offset=(\d+) to continue\.\]$/.exec(
        text,
      );
      pieces.push(hint ? text.slice(0, hint.index) : text);
      offset = hint ? Number(hint[1]) : undefined;
    }
    expect(pieces.length).toBeGreaterThan(2);
    expect(pieces.join("\n")).toBe(original);
  });

  it("points at a bash fallback when one line alone exceeds 50 KB", async () => {
    const dir = tempFolder();
    put(dir, "minified.js", `short\n${"a".repeat(60_000)}\nafter`);
    const result = await read(dir, { path: "minified.js", offset: 2 });
    expect(textOf(result)).toBe(
      "[Line 2 is 58.6KB, exceeds 50.0KB limit. Use bash: sed -n '2p' minified.js | head -c 51200]",
    );
    expect(result.details?.truncation).toMatchObject({ firstLineExceedsLimit: true, outputLines: 0, content: "" });
  });

  it("reads an empty file as empty text", async () => {
    const dir = tempFolder();
    put(dir, "empty.txt", "");
    expect(textOf(await read(dir, { path: "empty.txt" }))).toBe("");
  });
});

describe("read: images", () => {
  it("returns a PNG as image content (base64 + mimeType) after a short text note", async () => {
    const dir = tempFolder();
    put(dir, "pixel.png", PNG_1X1);
    const result = await read(dir, { path: "pixel.png" });
    expect(result.content).toEqual([
      { type: "text", text: "Read image file [image/png]" },
      { type: "image", data: PNG_1X1.toString("base64"), mimeType: "image/png" },
    ]);
  });

  it("detects an image by its bytes, not its name", async () => {
    const dir = tempFolder();
    put(dir, "upload.dat", GIF_1X1);
    const result = await read(dir, { path: "upload.dat" });
    expect(result.content[1]).toEqual({ type: "image", data: GIF_1X1.toString("base64"), mimeType: "image/gif" });

    put(dir, "not-really.png", "<svg xmlns='http://www.w3.org/2000/svg'/>");
    expect((await read(dir, { path: "not-really.png" })).content).toEqual([
      { type: "text", text: "<svg xmlns='http://www.w3.org/2000/svg'/>" },
    ]);
  });

  it("leaves out an image too large to inline, saying why", async () => {
    const dir = tempFolder();
    put(dir, "poster.png", Buffer.concat([PNG_1X1.subarray(0, 8), Buffer.alloc(4_000_000)]));
    const result = await read(dir, { path: "poster.png" });
    expect(result.content).toEqual([
      {
        type: "text",
        text: "Read image file [image/png]\n[Image omitted: 5.1MB encoded is above the 4.5MB inline image size limit.]",
      },
    ]);
  });

  it("recognizes the magic bytes of png, jpeg, gif and webp", () => {
    expect(classifyHead(PNG_1X1)).toEqual({ kind: "image", mimeType: "image/png" });
    expect(classifyHead(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46]))).toEqual({
      kind: "image",
      mimeType: "image/jpeg",
    });
    expect(classifyHead(Buffer.from("GIF87a\x01\x00", "latin1"))).toEqual({ kind: "image", mimeType: "image/gif" });
    expect(classifyHead(Buffer.from("RIFF\x24\x00\x00\x00WEBPVP8 ", "latin1"))).toEqual({
      kind: "image",
      mimeType: "image/webp",
    });
    expect(classifyHead(Buffer.from("RIFF\x24\x00\x00\x00WAVEfmt ", "latin1"))).toEqual({ kind: "binary" });
    expect(classifyHead(Buffer.from("plain text"))).toEqual({ kind: "text" });
  });
});

describe("read: errors", () => {
  it("a missing file is a clear error", async () => {
    const dir = tempFolder();
    await expect(read(dir, { path: "nope.txt" })).rejects.toThrow("File not found: nope.txt");
  });

  it("a folder is refused and pointed at ls", async () => {
    const dir = tempFolder();
    mkdirSync(join(dir, "src"));
    await expect(read(dir, { path: "src" })).rejects.toThrow(
      "src is a directory, not a file. Use ls to list its contents.",
    );
  });

  it("a pipe is refused instead of blocking on it", async () => {
    const dir = tempFolder();
    execFileSync("mkfifo", [join(dir, "pipe")]);
    await expect(read(dir, { path: "pipe" })).rejects.toThrow(
      "Cannot read pipe: it is not a regular file (a device, pipe or socket).",
    );
  });

  it("a binary non-image file is refused", async () => {
    const dir = tempFolder();
    put(dir, "program.bin", Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00]));
    await expect(read(dir, { path: "program.bin" })).rejects.toThrow(
      "Cannot read program.bin: it is a binary file. read returns text files and images (png, jpeg, gif, webp).",
    );
  });

  it("an offset past the end is a clear error", async () => {
    const dir = tempFolder();
    put(dir, "three.txt", "a\nb\nc");
    await expect(read(dir, { path: "three.txt", offset: 10 })).rejects.toThrow(
      "Offset 10 is beyond end of file (3 lines total)",
    );
  });

  it("offset and limit that name no lines are refused", async () => {
    const dir = tempFolder();
    put(dir, "three.txt", "a\nb\nc");
    await expect(read(dir, { path: "three.txt", limit: 0 })).rejects.toThrow(
      "limit must be a whole number of lines (1 or more), got 0",
    );
    await expect(read(dir, { path: "three.txt", offset: -2 })).rejects.toThrow(
      "offset must be a line number (1 or more), got -2",
    );
    await expect(read(dir, { path: "three.txt", offset: 1.5 })).rejects.toThrow(
      "offset must be a line number (1 or more), got 1.5",
    );
  });

  it("an aborted signal stops the read", async () => {
    const dir = tempFolder();
    put(dir, "a.txt", "content");
    const controller = new AbortController();
    controller.abort();
    await expect(read(dir, { path: "a.txt" }, controller.signal)).rejects.toThrow("Operation aborted");
  });
});
