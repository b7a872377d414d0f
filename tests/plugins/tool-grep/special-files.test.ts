/**
 * grep never hangs on endless or blocking input: an explicit FIFO or /dev/zero is refused in one line,
 * a FIFO (even one named .gitignore) inside a searched folder is skipped, and a large file is read only
 * as far as the match limit needs. Each call gets a generous bound; on the old code these hung.
 */
import { execFileSync } from "node:child_process";
import { closeSync, constants, existsSync, mkdtempSync, openSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFileLocks, type ToolResult } from "../../../contracts/tool.js";
import { createGrepTool, type GrepDetails } from "../../../plugins/tools/tool-grep/grep-tool.js";
import { readFileLines } from "../../../plugins/tools/tool-grep/file-lines.js";
import { requireSystemTool } from "../../support/system-tools.js";

const HAS_RG = requireSystemTool("ripgrep (rg)", ["rg"], "the special-file grep tests of the native backend");
const BACKENDS_HERE = HAS_RG ? (["native", "node"] as const) : (["node"] as const);
const BOUND_MS = 10_000;
const fifos: string[] = [];

function tempFolder(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "pi-tool-grep-special-")));
}

function makeFifo(path: string): void {
  execFileSync("mkfifo", [path]);
  fifos.push(path);
}

/** Runs grep, failing with "hung" when it has not settled within BOUND_MS. */
function grepWithinBound(
  backend: "native" | "node",
  cwd: string,
  params: Record<string, unknown>,
): Promise<ToolResult<GrepDetails | undefined>> {
  const call = createGrepTool({ backend }).execute("call", params as any, undefined, undefined, {
    cwd,
    withFileLock: createFileLocks(),
  });
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`grep hung for ${BOUND_MS} ms`)), BOUND_MS)),
  );
  return Promise.race([call, hung]).finally(() => clearTimeout(timer));
}

function textOf(result: ToolResult<unknown>): string {
  const block = result.content[0];
  return block?.type === "text" ? block.text : "";
}

afterEach(() => {
  // Opening read-write never blocks on Linux and releases any reader a broken implementation left waiting.
  for (const path of fifos.splice(0))
    if (existsSync(path)) closeSync(openSync(path, constants.O_RDWR | constants.O_NONBLOCK));
});

describe.each(BACKENDS_HERE)("grep on endless or blocking input (%s backend)", (backend) => {
  it.skipIf(!existsSync("/dev/zero"))("refuses /dev/zero in one line instead of reading forever", async () => {
    await expect(grepWithinBound(backend, "/", { pattern: "x", path: "/dev/zero" })).rejects.toThrow(
      "Cannot search /dev/zero: it is a character device, not a regular file or a folder.",
    );
  });

  it("refuses an explicit FIFO instead of blocking on it", async () => {
    const dir = tempFolder();
    makeFifo(join(dir, "pipe"));
    await expect(grepWithinBound(backend, dir, { pattern: "x", path: "pipe" })).rejects.toThrow(
      `Cannot search ${join(dir, "pipe")}: it is a FIFO (named pipe), not a regular file or a folder.`,
    );
  });

  it("skips a FIFO inside a searched folder", async () => {
    const dir = tempFolder();
    writeFileSync(join(dir, "a.txt"), "needle\n");
    makeFifo(join(dir, "b-pipe"));
    const result = await grepWithinBound(backend, dir, { pattern: "needle" });
    expect(textOf(result)).toBe("a.txt:1: needle");
  });
});

// rg reads .gitignore files and decides binary files its own way; these are the Node search's guarantees.
describe("the Node search on special files", () => {
  const backend = "node";

  it("skips FIFOs inside a searched folder, even one named .gitignore", async () => {
    const dir = tempFolder();
    writeFileSync(join(dir, "a.txt"), "needle\n");
    makeFifo(join(dir, "b-pipe"));
    makeFifo(join(dir, ".gitignore"));
    const result = await grepWithinBound(backend, dir, { pattern: "needle" });
    expect(textOf(result)).toBe("a.txt:1: needle");
  });

  it("a binary file stays skipped when its NUL byte comes after the match limit", async () => {
    const dir = tempFolder();
    writeFileSync(join(dir, "late-binary.dat"), `needle\n${"text line\n".repeat(20_000)}\u0000\n`);
    writeFileSync(join(dir, "z.txt"), "needle\n");
    expect(textOf(await grepWithinBound(backend, dir, { pattern: "needle", limit: 1 }))).toBe("z.txt:1: needle");
  });
});

describe("readFileLines", () => {
  it("stops reading once the visitor has what it needs, and does not read a FIFO", async () => {
    const dir = tempFolder();
    writeFileSync(join(dir, "big.txt"), "line\n".repeat(1_000_000));
    let visited = 0;
    const read = await readFileLines(join(dir, "big.txt"), () => ++visited < 3);
    expect(read).toEqual({ readable: true, sawNul: false });
    expect(visited).toBe(3);
    makeFifo(join(dir, "pipe"));
    expect(await readFileLines(join(dir, "pipe"), () => true)).toEqual({ readable: false, sawNul: false });
  });

  it("numbers lines like the search (CRLF kept for the caller, last line without a newline included)", async () => {
    const dir = tempFolder();
    writeFileSync(join(dir, "f.txt"), "a\r\n\nlast");
    const lines: Array<[string, number]> = [];
    await readFileLines(join(dir, "f.txt"), (line, n) => (lines.push([line, n]), true));
    expect(lines).toEqual([
      ["a\r", 1],
      ["", 2],
      ["last", 3],
    ]);
  });
});
