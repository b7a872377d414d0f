import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createFileLocks, type ToolResult } from "../../../contracts/tool.js";
import { createLsTool, type LsParams, type LsToolDetails } from "../../../plugins/tools/tool-ls/ls-tool.js";

function tempFolder(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "pi-tool-ls-")));
}

/** Creates files ("name") and folders ("name/") inside `folder`. */
function populate(folder: string, names: string[]): void {
  for (const name of names) {
    if (name.endsWith("/")) mkdirSync(join(folder, name), { recursive: true });
    else writeFileSync(join(folder, name), "x");
  }
}

function ls(cwd: string, params: LsParams, signal?: AbortSignal): Promise<ToolResult<LsToolDetails | undefined>> {
  return createLsTool().execute("call-1", params, signal, undefined, { cwd, withFileLock: createFileLocks() });
}

function textOf(result: ToolResult<unknown>): string {
  expect(result.content).toHaveLength(1);
  return (result.content[0] as { text: string }).text;
}

describe("ls", () => {
  it("lists the working folder by default: case-insensitive order, folders with '/', dotfiles included", async () => {
    const dir = tempFolder();
    populate(dir, ["b.txt", "Zeta/", "alpha", "A.md", "c/", ".env", ".git/"]);
    const result = await ls(dir, {});
    expect(textOf(result)).toBe([".env", ".git/", "A.md", "alpha", "b.txt", "c/", "Zeta/"].join("\n"));
    expect(result.details).toBeUndefined();
  });

  it("lists a relative or absolute path", async () => {
    const dir = tempFolder();
    populate(dir, ["src/", "src/main.ts", "src/util/"]);
    expect(textOf(await ls(dir, { path: "src" }))).toBe("main.ts\nutil/");
    expect(textOf(await ls("/", { path: join(dir, "src") }))).toBe("main.ts\nutil/");
  });

  it("marks a link to a folder with '/' and still lists a dangling link", async () => {
    const dir = tempFolder();
    populate(dir, ["real/"]);
    symlinkSync(join(dir, "real"), join(dir, "linked"));
    symlinkSync(join(dir, "nowhere"), join(dir, "broken"));
    expect(textOf(await ls(dir, {}))).toBe("broken\nlinked/\nreal/");
  });

  it("stops at `limit` entries and says how to see more", async () => {
    const dir = tempFolder();
    populate(dir, ["a", "b", "c", "d", "e"]);
    const result = await ls(dir, { limit: 3 });
    expect(textOf(result)).toBe("a\nb\nc\n\n[3 entries limit reached. Use limit=6 for more]");
    expect(result.details).toEqual({ entryLimitReached: 3 });
    expect(textOf(await ls(dir, { limit: 5 }))).toBe("a\nb\nc\nd\ne");
  });

  it("defaults to pi's limit of 500 entries", async () => {
    const dir = tempFolder();
    const names = Array.from({ length: 520 }, (_, i) => `file-${String(i).padStart(3, "0")}`);
    populate(dir, names);
    const result = await ls(dir, {});
    expect(textOf(result)).toBe(
      `${names.slice(0, 500).join("\n")}\n\n[500 entries limit reached. Use limit=1000 for more]`,
    );
  });

  it("cuts the listing at 50 KB with a note", async () => {
    const dir = tempFolder();
    // 300 names of 200 bytes: 60,299 bytes listed; 254 whole lines fit in 51,200 (200 + 201 * 253 = 51,053).
    const names = Array.from({ length: 300 }, (_, i) => `${String(i).padStart(3, "0")}${"n".repeat(197)}`);
    populate(dir, names);
    const result = await ls(dir, {});
    expect(textOf(result)).toBe(`${names.slice(0, 254).join("\n")}\n\n[50.0KB limit reached]`);
    expect(result.details?.truncation).toMatchObject({ truncated: true, truncatedBy: "bytes", outputLines: 254 });
    expect(result.details?.entryLimitReached).toBeUndefined();
  });

  it("says so when the folder is empty", async () => {
    expect(textOf(await ls(tempFolder(), {}))).toBe("(empty directory)");
  });

  it("a missing path and a file are clear errors", async () => {
    const dir = tempFolder();
    populate(dir, ["file.txt"]);
    await expect(ls(dir, { path: "nope" })).rejects.toThrow(`Path not found: ${join(dir, "nope")}`);
    await expect(ls(dir, { path: "file.txt" })).rejects.toThrow(`Not a directory: ${join(dir, "file.txt")}`);
  });

  it("refuses a limit that lists nothing", async () => {
    await expect(ls(tempFolder(), { limit: 0 })).rejects.toThrow(
      "limit must be a whole number of entries (1 or more), got 0",
    );
  });

  it("an aborted signal stops the listing", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(ls(tempFolder(), {}, controller.signal)).rejects.toThrow("Operation aborted");
  });
});
