/** The auth.json lock: one holder at a time, released on failure, and a crashed holder's lock taken over. */
import { mkdirSync, mkdtempSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { withFileLock } from "../../kit/index.js";

describe("withFileLock", () => {
  it("runs one holder at a time and releases the lock when the task throws", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "pi-lock-")), "auth.json");
    let inside = 0;
    let most = 0;
    const task = async () => {
      inside++;
      most = Math.max(most, inside);
      await new Promise((resolve) => setTimeout(resolve, 20));
      inside--;
    };
    await Promise.all([withFileLock(file, task), withFileLock(file, task), withFileLock(file, task)]);
    expect(most).toBe(1);
    await expect(withFileLock(file, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await withFileLock(file, async () => "free again")).toBe("free again");
  });

  it("takes over a lock nobody touched for staleMs, and names the lock when it must give up", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "pi-lock-")), "auth.json");
    mkdirSync(`${file}.lock`);
    await expect(withFileLock(file, async () => "x", { timeoutMs: 50, staleMs: 60_000 })).rejects.toThrow(
      `${file} is locked by another pi process (${file}.lock)`,
    );
    const old = new Date(Date.now() - 120_000);
    utimesSync(`${file}.lock`, old, old);
    expect(await withFileLock(file, async () => "taken over", { staleMs: 60_000 })).toBe("taken over");
  });
});
