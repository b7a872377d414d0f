/**
 * The full-disk sequence on a real file system: a small tmpfs is filled while a session appends, the
 * append fails part-way, the disk is freed, and the next append succeeds. The file must be whole lines
 * holding every entry, in order, and the store's listeners must have been told once. Mounting needs
 * root (CI runs as root); elsewhere the test skips and says why. save-failures.test.ts covers the same
 * logic with an injected failing write, so it always runs.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SESSION_SAVE_ERROR_EVENT, type SessionSaveProblem } from "../../../contracts/session.js";
import { assistant, bootStore, formatProblems, readJsonLines, user, type BootedStore } from "./harness.js";

/** A mounted 256 KiB tmpfs, or why none could be mounted. */
function mountSmallTmpfs(): { dir: string } | { reason: string } {
  if (process.platform !== "linux") return { reason: "tmpfs mounts need Linux" };
  if (process.getuid?.() !== 0) return { reason: "mounting a tmpfs needs root" };
  const dir = mkdtempSync(join(tmpdir(), "pi-full-disk-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=256k,mode=0700", "tmpfs", dir], { stdio: "pipe" });
    return { dir };
  } catch (error) {
    rmdirSync(dir);
    return {
      reason: `mount -t tmpfs is not permitted here: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`,
    };
  }
}

const mounted = mountSmallTmpfs();
if ("reason" in mounted) console.log(`full-disk.test.ts skipped: ${mounted.reason}`);

const booted: BootedStore[] = [];
afterAll(async () => {
  for (const b of booted.splice(0)) await b.kernel.shutdown();
  if ("dir" in mounted) {
    execFileSync("umount", [mounted.dir]);
    rmdirSync(mounted.dir);
  }
});

/** Writes filler until the disk refuses more; returns its path. */
function fillDisk(dir: string): string {
  const filler = join(dir, "filler");
  writeFileSync(filler, "");
  const block = Buffer.alloc(4096, 0x20);
  for (let i = 0; i < 1024; i++) {
    try {
      writeFileSync(filler, block, { flag: "a" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOSPC") return filler;
      throw error;
    }
  }
  throw new Error("the tmpfs never filled up");
}

describe.skipIf(!("dir" in mounted))("a session on a disk that fills up mid-append", () => {
  it("keeps the file whole, tells the listeners, and writes every entry once the disk has room", async () => {
    const dir = (mounted as { dir: string }).dir;
    const b = await bootStore(join(dir, "agent"));
    booted.push(b);
    const heard: SessionSaveProblem[] = [];
    b.kernel.on(SESSION_SAVE_ERROR_EVENT, (problem: SessionSaveProblem) => heard.push(problem));
    const { path } = await b.store.newSession({ cwd: "/p" });
    const ids = [b.store.appendMessage(user("first prompt")), b.store.appendMessage(assistant("first answer"))];
    const before = readFileSync(path!);

    const filler = fillDisk(dir);
    // Larger than any slack left in the file's last page: part of it lands, then ENOSPC.
    ids.push(b.store.appendMessage(user("x".repeat(64 * 1024))));
    expect(readFileSync(path!).equals(before)).toBe(true);
    expect(heard).toEqual([{ reason: "write", path, error: expect.stringContaining("ENOSPC") }]);
    ids.push(b.store.appendMessage(assistant("second answer")));
    expect(heard).toHaveLength(1);

    rmSync(filler);
    ids.push(b.store.appendMessage(user("third prompt")));
    expect(formatProblems(path!)).toEqual([]);
    expect(
      readJsonLines(path!)
        .slice(1)
        .map((e) => e.id),
    ).toEqual(ids);

    // What --continue would load: every entry, the first prompt included.
    const reader = await bootStore(join(dir, "agent"));
    booted.push(reader);
    await reader.store.open(path!);
    expect(reader.store.buildContext().messages.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
    ]);
  });
});
