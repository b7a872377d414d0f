import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createFileLocks, type ToolContext } from "../../../contracts/tool.js";
import { lockKeyFor } from "../../../kit/index.js";
import { createWriteTool, type WriteParams } from "../../../plugins/tools/tool-write/write-tool.js";

function tempFolder(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "pi-tool-write-")));
}

function write(cwd: string, params: WriteParams, withFileLock = createFileLocks(), signal?: AbortSignal) {
  const ctx: ToolContext = { cwd, withFileLock };
  return createWriteTool().execute("call-1", params, signal, undefined, ctx);
}

describe("write", () => {
  it("creates a file and reports the UTF-8 bytes written", async () => {
    const dir = tempFolder();
    const result = await write(dir, { path: "note.txt", content: "héllo\n" });
    expect(readFileSync(join(dir, "note.txt"), "utf-8")).toBe("héllo\n");
    expect(result.content).toEqual([{ type: "text", text: "Successfully wrote 7 bytes to note.txt" }]);
  });

  it("creates missing parent folders", async () => {
    const dir = tempFolder();
    await write(dir, { path: "a/b/c/deep.ts", content: "export {};\n" });
    expect(readFileSync(join(dir, "a/b/c/deep.ts"), "utf-8")).toBe("export {};\n");
  });

  it("overwrites an existing file completely", async () => {
    const dir = tempFolder();
    writeFileSync(join(dir, "f.txt"), "a much longer original content");
    await write(dir, { path: "f.txt", content: "short" });
    expect(readFileSync(join(dir, "f.txt"), "utf-8")).toBe("short");
  });

  it("writes an empty file", async () => {
    const dir = tempFolder();
    const result = await write(dir, { path: "empty", content: "" });
    expect(readFileSync(join(dir, "empty"), "utf-8")).toBe("");
    expect(result.content).toEqual([{ type: "text", text: "Successfully wrote 0 bytes to empty" }]);
  });

  it("writes inside the file's lock, keyed by its absolute path", async () => {
    const dir = tempFolder();
    const locks = createFileLocks();
    const lockedPaths: string[] = [];
    const seen: Array<{ before: boolean; after: string }> = [];
    await write(dir, { path: "sub/locked.txt", content: "inside" }, (path, work) => {
      lockedPaths.push(path);
      return locks(path, async () => {
        const before = existsSync(join(dir, "sub/locked.txt"));
        const result = await work();
        seen.push({ before, after: readFileSync(join(dir, "sub/locked.txt"), "utf-8") });
        return result;
      });
    });
    expect(lockedPaths).toEqual([join(dir, "sub/locked.txt")]);
    expect(seen).toEqual([{ before: false, after: "inside" }]);
  });

  it("waits while another holder has the file's lock", async () => {
    const dir = tempFolder();
    const target = join(dir, "busy.txt");
    const locks = createFileLocks();
    let releaseHolder!: () => void;
    const holder = locks(target, () => new Promise<void>((resolve) => (releaseHolder = resolve)));
    let requested!: () => void;
    const lockRequested = new Promise<void>((resolve) => (requested = resolve));
    const writing = write(dir, { path: "busy.txt", content: "after the holder" }, (path, work) => {
      requested();
      return locks(path, work);
    });
    await lockRequested;
    expect(existsSync(target)).toBe(false);
    releaseHolder();
    await holder;
    await writing;
    expect(readFileSync(target, "utf-8")).toBe("after the holder");
  });

  it("locks a symlink and its target under one key", () => {
    const dir = tempFolder();
    writeFileSync(join(dir, "real.txt"), "x");
    symlinkSync(join(dir, "real.txt"), join(dir, "alias.txt"));
    expect(lockKeyFor(join(dir, "alias.txt"))).toBe(join(dir, "real.txt"));
    expect(lockKeyFor(join(dir, "new-file.txt"))).toBe(join(dir, "new-file.txt"));
  });

  it("refuses to write over a folder", async () => {
    const dir = tempFolder();
    mkdirSync(join(dir, "src"));
    await expect(write(dir, { path: "src", content: "x" })).rejects.toThrow("Cannot write src: it is a directory.");
  });

  it("refuses a path whose parent is a file", async () => {
    const dir = tempFolder();
    writeFileSync(join(dir, "plain.txt"), "x");
    await expect(write(dir, { path: "plain.txt/child.txt", content: "x" })).rejects.toThrow(
      "Cannot write plain.txt/child.txt: a parent in that path is a file, not a folder.",
    );
  });

  it("an aborted signal writes nothing", async () => {
    const dir = tempFolder();
    const controller = new AbortController();
    controller.abort();
    await expect(write(dir, { path: "never.txt", content: "x" }, createFileLocks(), controller.signal)).rejects.toThrow(
      "Operation aborted",
    );
    expect(existsSync(join(dir, "never.txt"))).toBe(false);
  });
});
