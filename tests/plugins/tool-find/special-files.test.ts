/**
 * The Node find never blocks on a FIFO named .gitignore (the walk reads each folder's .gitignore): it is
 * skipped and the listing comes back. A generous bound; on the old code the walk hung on the FIFO.
 */
import { execFileSync } from "node:child_process";
import { closeSync, constants, existsSync, openSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFileLocks } from "../../../contracts/tool.js";
import { createFindTool } from "../../../plugins/tools/tool-find/find-tool.js";
import { tempDir } from "./fixture-tree.js";

const BOUND_MS = 10_000;
const fifos: string[] = [];

afterEach(() => {
  // Opening read-write never blocks on Linux and releases any reader a broken implementation left waiting.
  for (const path of fifos.splice(0))
    if (existsSync(path)) closeSync(openSync(path, constants.O_RDWR | constants.O_NONBLOCK));
});

describe("find (node backend) with special files", () => {
  it("a FIFO named .gitignore is not read, and FIFOs are listed like any entry", async () => {
    const dir = tempDir("pi-tool-find-special-");
    writeFileSync(join(dir, "a.txt"), "");
    for (const name of [".gitignore", "pipe"]) {
      execFileSync("mkfifo", [join(dir, name)]);
      fifos.push(join(dir, name));
    }
    const call = createFindTool({ backend: "node" }).execute("call", { pattern: "*" }, undefined, undefined, {
      cwd: dir,
      withFileLock: createFileLocks(),
    });
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<never>(
      (_, reject) => (timer = setTimeout(() => reject(new Error(`find hung for ${BOUND_MS} ms`)), BOUND_MS)),
    );
    const result = await Promise.race([call, hung]).finally(() => clearTimeout(timer));
    const block = result.content[0];
    expect(block?.type === "text" ? block.text.split("\n") : []).toEqual(expect.arrayContaining(["a.txt"]));
  });
});
