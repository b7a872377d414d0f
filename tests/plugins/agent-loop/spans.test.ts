/**
 * The loop's spans, handed down explicitly: a turn span under `TurnConfig.telemetry`, the request's
 * `options.telemetry` set to that turn span, and one tool span per call under the turn — parallel calls
 * included, each ended when its own result is settled. Without a parent span nothing is opened.
 */
import { describe, expect, it } from "vitest";
import { NOOP_TELEMETRY_SPAN } from "../../../contracts/telemetry.js";
import { fauxToolCall } from "../../../plugins/ai/provider-faux/faux.js";
import { SpanLog } from "../../support/recording-span.js";
import { gate, LoopHarness, tool } from "./harness.js";

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe("agent loop spans", () => {
  it("run → turn → (request options, one span per parallel tool call); the turn ends after its tools", async () => {
    const h = new LoopHarness({
      responses: [
        {
          content: [
            fauxToolCall("wait", { n: 1 }, "a"),
            fauxToolCall("wait", { n: 2 }, "b"),
            fauxToolCall("nope", {}, "c"),
          ],
        },
        { content: "ok" },
      ],
    });
    const log = new SpanLog();
    const run = log.root("pi.agent.run");
    const base = h.config.bind(h);
    h.config = () => ({ ...base(), telemetry: run });
    const gates = [gate(), gate()];
    h.tools = [
      tool("wait", async (args: { n: number }) => {
        await gates[args.n - 1]!.promise;
        return args.n === 2 ? { content: [{ type: "text", text: "failed" }], isError: true } : "done";
      }),
    ];
    const done = h.run("go");
    while (log.named("pi.agent.tool").length < 3) await flush();
    gates[1]!.open();
    await flush();
    gates[0]!.open();
    await done;

    const turns = log.named("pi.agent.turn");
    expect(turns.map((t) => t.parent?.name)).toEqual(["pi.agent.run", "pi.agent.run"]);
    expect(turns.map((t) => t.attributes["pi.turn.index"])).toEqual([1, 2]);
    expect(turns[0]!.attributes).toMatchObject({ "pi.turn.stop": "toolUse", "pi.turn.tool_calls": 3 });
    // Each request went out with its turn's span as the parent for the router.
    expect(h.faux.requests.map((r) => r.options?.telemetry)).toHaveLength(2);
    expect(h.faux.requests.every((r) => r.options?.telemetry?.recording === true)).toBe(true);

    const tools = log.named("pi.agent.tool");
    expect(tools.every((t) => t.parent === turns[0])).toBe(true);
    expect(tools.map((t) => [t.attributes["gen_ai.tool.call.id"], t.attributes["pi.tool.is_error"]])).toEqual([
      ["a", false],
      ["b", true],
      ["c", true],
    ]);
    expect(tools.map((t) => t.error?.name)).toEqual([undefined, "tool_error", "tool_error"]);
    expect(tools.every((t) => t.ended && typeof t.attributes["pi.tool.duration_ms"] === "number")).toBe(true);
    // Settled in completion order (unknown tool c at once, then b, then a), all before the turn ends.
    const ends = log.order.filter((e) => e.startsWith("end:"));
    expect(ends.slice(0, 4)).toEqual([
      "end:pi.agent.tool",
      "end:pi.agent.tool",
      "end:pi.agent.tool",
      "end:pi.agent.turn",
    ]);
    expect(tools.map((t) => t.endIndex)).toEqual([2, 1, 0]);
    expect(turns.every((t) => t.ended)).toBe(true);
    expect(run).not.toBe(NOOP_TELEMETRY_SPAN);
  });

  it("without a run span the loop opens nothing and hands the no-op span to the request", async () => {
    const h = new LoopHarness({ responses: [{ content: [fauxToolCall("echo", {}, "x")] }, { content: "ok" }] });
    h.tools = [tool("echo", async () => "echoed")];
    await h.run("go");
    expect(h.faux.requests.map((r) => r.options?.telemetry)).toEqual([NOOP_TELEMETRY_SPAN, NOOP_TELEMETRY_SPAN]);
  });
});
