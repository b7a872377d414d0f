/**
 * Two processes append to one session at once, each believing a different leaf. Because every entry is
 * one whole line in one O_APPEND write, no line is interleaved with another (lines up to 200 KB, far
 * above any pipe or page size), and every parent an entry names is already in the file, so reopening
 * yields a valid tree with both branches.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import type { TreeNode } from "../../../contracts/session.js";
import { assistant, bootStore, formatProblems, tempDir, user, type BootedStore } from "./harness.js";

const PROJECT = fileURLToPath(new URL("../../../", import.meta.url));
const CHILD = fileURLToPath(new URL("./writer-child.mjs", import.meta.url));
const PER_CHILD = 400;

const booted: BootedStore[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  for (const b of booted.splice(0)) await b.kernel.shutdown();
});

/** Starts a writer and resolves once it says "ready"; `done` resolves when it has exited cleanly. */
async function startWriter(
  file: string,
  leaf: string,
  tag: string,
): Promise<{ child: ChildProcess; done: Promise<void> }> {
  const child = spawn(process.execPath, [CHILD, PROJECT, file, leaf, String(PER_CHILD), tag], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  children.push(child);
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const exited = once(child, "exit");
  const lines = createInterface({ input: child.stdout! });
  const ready = new Promise<void>((resolve, reject) => {
    lines.on("line", (line) => line === "ready" && resolve());
    void exited.then(([code]) => reject(new Error(`writer ${tag} exited with ${code} before ready: ${stderr}`)));
  });
  await ready;
  const done = exited.then(([code]) => {
    if (code !== 0) throw new Error(`writer ${tag} exited with ${code}: ${stderr}`);
  });
  return { child, done };
}

function countNodes(roots: TreeNode[]): number {
  let count = 0;
  const stack = [...roots];
  while (stack.length > 0) {
    const node = stack.pop()!;
    count++;
    stack.push(...node.children);
  }
  return count;
}

describe("two writer processes on one session", () => {
  it("never interleave lines, and the file reopens as one valid tree with both branches", async () => {
    const agentDir = tempDir();
    const first = await bootStore(agentDir);
    booted.push(first);
    const info = await first.store.newSession({ cwd: "/p" });
    const q1 = first.store.appendMessage(user("q1"));
    const a1 = first.store.appendMessage(assistant("a1"));
    const q2 = first.store.appendMessage(user("q2"));
    const path = info.path!;

    const writers = [await startWriter(path, a1, "A"), await startWriter(path, q2, "B")];
    for (const w of writers) w.child.stdin!.write("go\n");
    await Promise.all(writers.map((w) => w.done));

    // Every line is whole JSON: a torn or interleaved line would not parse.
    const raw = readFileSync(path, "utf8");
    expect(raw.endsWith("\n")).toBe(true);
    const lines = raw.slice(0, -1).split("\n");
    const parsed = lines.map((line, i) => {
      try {
        return JSON.parse(line) as Record<string, any>;
      } catch {
        throw new Error(`line ${i + 1} is not whole JSON (${line.length} chars): ${line.slice(0, 80)}…`);
      }
    });
    // header + 3 messages + one leaf marker per writer + both writers' messages
    expect(parsed).toHaveLength(1 + 3 + 2 + 2 * PER_CHILD);
    expect(formatProblems(path)).toEqual([]);

    // Each writer's messages arrived whole and in its own order, chained under the leaf it believed in.
    for (const [tag, leaf] of [
      ["A", a1],
      ["B", q2],
    ] as const) {
      const mine = parsed.filter(
        (e) => e.type === "message" && String(e.message.content[0].text).startsWith(`${tag}-`),
      );
      expect(mine.map((e) => Number(/^.-(\d+):/.exec(e.message.content[0].text)![1]))).toEqual([
        ...Array(PER_CHILD).keys(),
      ]);
      expect(mine[0].parentId).toBe(leaf);
      for (let i = 1; i < mine.length; i++) expect(mine[i].parentId).toBe(mine[i - 1].id);
    }

    // The writers really ran at the same time: their lines alternate in the file.
    const order = parsed
      .filter((e) => e.type === "message" && /^[AB]-/.test(String(e.message.content[0].text)))
      .map((e) => e.message.content[0].text[0]);
    const switches = order.filter((tag, i) => i > 0 && tag !== order[i - 1]).length;
    console.log(`concurrent writers: ${switches} switches between A and B lines in ${order.length} lines`);
    expect(switches).toBeGreaterThan(1);

    const reopened = await bootStore(agentDir);
    booted.push(reopened);
    const report = await reopened.store.open(path);
    expect(report.setAside).toBeUndefined();
    const roots = reopened.store.tree();
    expect(roots).toHaveLength(1);
    expect(roots[0].entry.id).toBe(q1);
    expect(countNodes(roots)).toBe(3 + 2 * PER_CHILD);
    const a1Node = roots[0].children[0];
    expect(a1Node.children).toHaveLength(2);
    const leaf = reopened.store.leafId()!;
    expect(reopened.store.path(leaf).length).toBeGreaterThan(PER_CHILD);
  });
});
