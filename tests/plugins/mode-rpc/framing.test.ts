import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { fauxEcho } from "../../../plugins/ai/provider-faux/faux.js";
import { jsonLine, readLines } from "../../../plugins/modes/mode-rpc/jsonl.js";
import { startRpc, type RpcHarness } from "./rpc-harness.js";

let harness: RpcHarness | undefined;
afterEach(async () => {
  harness?.endInput();
  await harness?.exit;
  await harness?.kernel.shutdown();
  harness = undefined;
});

/** Feeds `chunks` to the reader and resolves with the lines it saw. */
function linesOf(chunks: Array<string | Buffer>): Promise<string[]> {
  const stream = new PassThrough();
  const lines: string[] = [];
  const done = new Promise<string[]>((resolve) =>
    readLines(stream, { onLine: (l) => lines.push(l), onEnd: () => resolve(lines) }),
  );
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  return done;
}

describe("JSONL framing", () => {
  it("splits on LF only: U+2028 and U+2029 stay inside their record", async () => {
    const record = { type: "prompt", message: "one\u2028two\u2029three" };
    const lines = await linesOf([jsonLine(record) + jsonLine({ type: "get_state" })]);
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toEqual(record);
  });

  it("strips one trailing CR, keeps a last line without LF, and joins lines and characters cut across chunks", async () => {
    const euro = Buffer.from("€");
    const lines = await linesOf([
      '{"a":1}\r\n{"b":',
      Buffer.from('"x'),
      euro.subarray(0, 1),
      euro.subarray(1),
      Buffer.from('"}\n{"c":3}'),
    ]);
    expect(lines).toEqual(['{"a":1}', '{"b":"x€"}', '{"c":3}']);
  });

  it("writes one record per line with the only LF at the end", () => {
    const line = jsonLine({ text: "a\nb\u2028c" });
    expect(line.indexOf("\n")).toBe(line.length - 1);
    expect(line).toContain("\u2028");
  });
});

describe("framing in the running mode", () => {
  it("a prompt containing U+2028 reaches the model whole and comes back whole", async () => {
    const h = (harness = await startRpc({ faux: { responses: [fauxEcho("echo: ")] } }));
    const text = "before\u2028middle\u2029after";
    expect(await h.client.request({ type: "prompt", message: text })).toMatchObject({ success: true });
    const end = await h.client.next((r) => r.type === "message_end" && r.message.role === "assistant");
    expect(end.message.content).toEqual([{ type: "text", text: `echo: ${text}` }]);
    expect(h.faux.requests[0]!.context.messages[0]).toMatchObject({ role: "user", content: text });
    // The raw output line holds the separators unescaped, and every line parsed as one record.
    expect(h.client.lines.some((l) => l.includes("\u2028middle\u2029"))).toBe(true);
  });

  it("a line that is not JSON gets pi's parse error, and the loop goes on", async () => {
    const h = (harness = await startRpc());
    const from = h.client.count;
    h.client.writeLine("{not json");
    const parseError = await h.client.next((r) => r.type === "response", from);
    expect(parseError).toEqual({
      type: "response",
      command: "parse",
      success: false,
      error: expect.stringMatching(/^Failed to parse command: /),
    });
    expect(parseError.error).not.toContain("\n");
    expect(await h.client.request({ type: "get_state" })).toMatchObject({ command: "get_state", success: true });
  });

  it("JSON that is not a command is refused with a clear line, keeping its id when it has one", async () => {
    const h = (harness = await startRpc());
    const from = h.client.count;
    h.client.writeLine("[1,2]");
    expect(await h.client.next((r) => r.type === "response", from)).toMatchObject({
      command: "parse",
      success: false,
      error: 'Failed to parse command: a command must be a JSON object such as {"type":"get_state"}',
    });
    h.client.send({ id: "no-type" });
    expect(await h.client.next((r) => r.id === "no-type")).toMatchObject({
      command: "parse",
      success: false,
      error: expect.stringMatching(/needs a string "type"/),
    });
  });

  it("an unknown command is refused with its id and one line", async () => {
    const h = (harness = await startRpc());
    expect(await h.client.request({ type: "make_coffee" })).toEqual({
      id: "req-1",
      type: "response",
      command: "make_coffee",
      success: false,
      error: "Unknown command: make_coffee",
    });
  });

  it("CRLF input is accepted, blank lines are skipped, and several commands in one write each answer", async () => {
    const h = (harness = await startRpc());
    const from = h.client.count;
    h.client.stdin.write(
      '{"type":"get_state","id":"a"}\r\n\n   \n{"type":"get_last_assistant_text","id":"b"}\n{"type":"get_messages","id":"c"}\n',
    );
    const c = await h.client.next((r) => r.id === "c");
    expect(c).toMatchObject({ success: true, data: { messages: [] } });
    const responses = h.client.records.slice(from).filter((r) => r.type === "response");
    expect(responses.map((r) => r.id).sort()).toEqual(["a", "b", "c"]);
  });
});
