import { describe, expect, afterEach, it } from "vitest";
import type { ImageContent, UserMessage } from "../../../contracts/ai/index.js";
import modePrint from "../../../plugins/modes/mode-print/index.js";
import { fauxText, fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { bootSession, testTool, type SessionHarness } from "../agent-session/harness.js";
import { runMode, testIO } from "./mode-io.js";

const PIXEL: ImageContent = { type: "image", mimeType: "image/png", data: "iVBORw0KGgo=" };

let harness: SessionHarness | undefined;
afterEach(async () => {
  await harness?.kernel.shutdown();
  harness = undefined;
});

describe("mode-print", () => {
  it("sends each message in order (the first with the images) and prints only the final answer's text", async () => {
    const h = (harness = await bootSession({
      faux: {
        responses: [
          { content: "first answer" },
          { content: [fauxToolCall("look", {}, "l1")] },
          { content: [fauxText("line one"), fauxText("line two")] },
        ],
      },
      tools: [testTool("look", async () => "seen")],
      extra: [modePrint],
    }));
    const io = testIO();
    const code = await runMode(h.kernel, "print", { messages: ["one", "two"], images: [PIXEL] }, io);
    expect(code).toBe(0);
    expect(io.stdout.text).toBe("line one\nline two\n");
    expect(io.stderr.text).toBe("");
    const users = (i: number) =>
      h.faux.requests[i]!.context.messages.filter((m): m is UserMessage => m.role === "user");
    expect(users(0)).toHaveLength(1);
    expect(users(0)[0]!.content).toEqual([{ type: "text", text: "one" }, PIXEL]);
    expect(users(1).map((m) => m.content)).toEqual([[{ type: "text", text: "one" }, PIXEL], "two"]);
    expect(h.faux.requests).toHaveLength(3);
  });

  it("an error answer prints its message on stderr as one line, nothing on stdout, exit 1; later messages are not sent", async () => {
    const h = (harness = await bootSession({
      faux: {
        responses: [{ stopReason: "error", errorMessage: "401 invalid x-api-key\nsee docs" }, { content: "never" }],
      },
      extra: [modePrint],
    }));
    const io = testIO();
    const code = await runMode(h.kernel, "print", { messages: ["hi", "again"] }, io);
    expect(code).toBe(1);
    expect(io.stdout.text).toBe("");
    expect(io.stderr.text).toBe("401 invalid x-api-key see docs\n");
    expect(h.faux.requests).toHaveLength(1);
  });

  it("a refused prompt (unknown model) is one line on stderr and exit 1", async () => {
    const h = (harness = await bootSession({ config: { model: "faux/nope" }, extra: [modePrint] }));
    const io = testIO();
    expect(await runMode(h.kernel, "print", { messages: ["hi"] }, io)).toBe(1);
    expect(io.stderr.text).toBe('unknown model "faux/nope"\n');
    expect(io.stdout.text).toBe("");
  });

  it("the stop signal aborts the answer being streamed: stderr says so, exit 1", async () => {
    let waiting!: () => void;
    const started = new Promise<void>((resolve) => (waiting = resolve));
    const h = (harness = await bootSession({
      faux: {
        responses: [
          async ({ options }) => {
            waiting();
            await new Promise((resolve) => options?.signal?.addEventListener("abort", resolve));
            return { content: "too late" };
          },
        ],
      },
      extra: [modePrint],
    }));
    const io = testIO();
    const running = runMode(h.kernel, "print", { messages: ["long task"] }, io);
    await started;
    io.stop();
    expect(await running).toBe(1);
    expect(io.stdout.text).toBe("");
    expect(io.stderr.text).toBe("Request was aborted\n");
  });

  it("a stop that arrives before the run starts still aborts it", async () => {
    const h = (harness = await bootSession({
      faux: { responses: [{ content: "x".repeat(400) }] },
      extra: [modePrint],
    }));
    const io = testIO();
    io.stop();
    const code = await runMode(h.kernel, "print", { messages: ["hi"] }, io);
    expect(code).toBe(1);
    expect(io.stdout.text).toBe("");
  });

  it("a stop during a tool call ends the run with exit 1 even though no answer failed", async () => {
    let toolStarted!: () => void;
    const inTool = new Promise<void>((resolve) => (toolStarted = resolve));
    const h = (harness = await bootSession({
      faux: { responses: [{ content: [fauxToolCall("wait", {}, "w1")] }, { content: "after the tool" }] },
      tools: [
        {
          ...testTool("wait", async () => ""),
          async execute(_id, _args, signal) {
            toolStarted();
            await new Promise((resolve) => signal?.addEventListener("abort", resolve));
            return { content: [{ type: "text", text: "stopped" }] };
          },
        },
      ],
      extra: [modePrint],
    }));
    const io = testIO();
    const running = runMode(h.kernel, "print", { messages: ["go"] }, io);
    await inTool;
    io.stop();
    expect(await running).toBe(1);
    expect(io.stdout.text).toBe("");
    expect(io.stderr.text).toBe("aborted\n");
  });
});
