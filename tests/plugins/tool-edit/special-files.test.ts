/**
 * edit on a FIFO, a socket or a device: refused with one line instead of blocking the turn forever
 * (opening a FIFO waits for the other end). Each call gets a generous bound; on the old code it hung.
 */
import { execFileSync } from "node:child_process";
import { closeSync, constants, existsSync, openSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { edit, tempFolder } from "./harness.js";

const BOUND_MS = 10_000;
const fifos: string[] = [];

/** Runs edit, failing with "hung" when it has not settled within BOUND_MS. */
function editWithinBound(cwd: string, path: string): Promise<unknown> {
  const call = edit(cwd, { path, edits: [{ oldText: "a", newText: "b" }] });
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`edit on ${path} hung for ${BOUND_MS} ms`)), BOUND_MS)),
  );
  return Promise.race([call, hung]).finally(() => clearTimeout(timer));
}

afterEach(() => {
  // Opening read-write never blocks on Linux and releases any reader a broken implementation left waiting.
  for (const path of fifos.splice(0))
    if (existsSync(path)) closeSync(openSync(path, constants.O_RDWR | constants.O_NONBLOCK));
});

describe("edit refuses files that are not regular files", () => {
  it("a FIFO", async () => {
    const dir = tempFolder();
    const fifo = join(dir, "pipe");
    execFileSync("mkfifo", [fifo]);
    fifos.push(fifo);
    await expect(editWithinBound(dir, "pipe")).rejects.toThrow(
      "Could not edit file: pipe. It is a FIFO (named pipe), not a regular file.",
    );
  });

  it("a unix socket", async () => {
    const dir = tempFolder();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(dir, "sock"), resolve));
    try {
      await expect(editWithinBound(dir, "sock")).rejects.toThrow(
        "Could not edit file: sock. It is a FIFO or socket, not a regular file.",
      );
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it.skipIf(!existsSync("/dev/zero"))("an endless character device", async () => {
    await expect(editWithinBound("/", "/dev/zero")).rejects.toThrow(
      "Could not edit file: /dev/zero. It is a character device, not a regular file.",
    );
  });
});
