/** The RPC line reader's cap: an overlong line is dropped and reported once; the lines around it survive. */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readLines } from "../../../plugins/modes/mode-rpc/jsonl.js";

function read(chunks: string[], maxLineLength: number): Promise<{ lines: string[]; overlong: number[] }> {
  const stream = new PassThrough();
  const lines: string[] = [];
  const overlong: number[] = [];
  const done = new Promise<{ lines: string[]; overlong: number[] }>((resolve) =>
    readLines(
      stream,
      { onLine: (l) => lines.push(l), onOverlong: (n) => overlong.push(n), onEnd: () => resolve({ lines, overlong }) },
      { maxLineLength },
    ),
  );
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  return done;
}

describe("RPC line reader limits", () => {
  it("drops a line past the cap, cut across chunks, reports its length once, and keeps reading", async () => {
    const { lines, overlong } = await read(["a\n", "x".repeat(6), "x".repeat(6), `${"x".repeat(6)}\nb\n`], 10);
    expect(lines).toEqual(["a", "b"]);
    expect(overlong).toEqual([18]);
  });

  it("drops an overlong line that arrives in one chunk, and one at the end of the stream without LF", async () => {
    const { lines, overlong } = await read([`ok\n${"y".repeat(11)}\nfine\n`, "z".repeat(12)], 10);
    expect(lines).toEqual(["ok", "fine"]);
    expect(overlong).toEqual([11, 12]);
  });

  it("keeps a line exactly at the cap", async () => {
    const { lines, overlong } = await read(["12345", "67890\n"], 10);
    expect(lines).toEqual(["1234567890"]);
    expect(overlong).toEqual([]);
  });

  it("stopping pauses the stream, so an open stdin no longer holds the process", async () => {
    const stream = new PassThrough();
    const stop = readLines(stream, { onLine: () => {}, onEnd: () => {} });
    expect(stream.isPaused()).toBe(false);
    stop();
    expect(stream.isPaused()).toBe(true);
  });
});
