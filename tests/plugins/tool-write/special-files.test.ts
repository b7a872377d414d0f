/**
 * write on a FIFO, a socket or a device: refused with one line instead of blocking the turn forever
 * (opening a FIFO for writing waits for a reader). Each call gets a generous bound; on the old code it hung.
 */
import { execFileSync } from "node:child_process";
import { closeSync, constants, existsSync, mkdtempSync, openSync, realpathSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFileLocks } from "../../../contracts/tool.js";
import { createWriteTool } from "../../../plugins/tools/tool-write/write-tool.js";

const BOUND_MS = 10_000;
const fifos: string[] = [];

function tempFolder(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "pi-tool-write-special-")));
}

/** Runs write, failing with "hung" when it has not settled within BOUND_MS. */
function writeWithinBound(cwd: string, path: string): Promise<unknown> {
  const call = createWriteTool().execute("call-1", { path, content: "data" }, undefined, undefined, {
    cwd,
    withFileLock: createFileLocks(),
  });
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`write on ${path} hung for ${BOUND_MS} ms`)), BOUND_MS)),
  );
  return Promise.race([call, hung]).finally(() => clearTimeout(timer));
}

function makeFifo(dir: string, name: string): string {
  const path = join(dir, name);
  execFileSync("mkfifo", [path]);
  fifos.push(path);
  return path;
}

afterEach(() => {
  // Opening read-write never blocks on Linux and releases any writer a broken implementation left waiting.
  for (const path of fifos.splice(0))
    if (existsSync(path)) closeSync(openSync(path, constants.O_RDWR | constants.O_NONBLOCK));
});

describe("write refuses files that are not regular files", () => {
  it("a FIFO with no reader", async () => {
    const dir = tempFolder();
    makeFifo(dir, "pipe");
    await expect(writeWithinBound(dir, "pipe")).rejects.toThrow(
      "Cannot write pipe: it is a FIFO or socket, not a regular file; write only creates or replaces regular files.",
    );
  });

  it("a FIFO that has a reader: refused, nothing is written into it", async () => {
    const dir = tempFolder();
    const fifo = makeFifo(dir, "pipe");
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      await expect(writeWithinBound(dir, "pipe")).rejects.toThrow(
        "Cannot write pipe: it is a FIFO (named pipe), not a regular file; write only creates or replaces regular files.",
      );
    } finally {
      closeSync(reader);
    }
  });

  it("a unix socket", async () => {
    const dir = tempFolder();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(dir, "sock"), resolve));
    try {
      await expect(writeWithinBound(dir, "sock")).rejects.toThrow(
        "Cannot write sock: it is a FIFO or socket, not a regular file",
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.skipIf(!existsSync("/dev/null"))("a character device", async () => {
    await expect(writeWithinBound("/", "/dev/null")).rejects.toThrow(
      "Cannot write /dev/null: it is a character device, not a regular file",
    );
  });
});
