import { Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { describe, expect, it } from "vitest";
import { hostModules, StringEnum } from "../../../plugins/integrations/pi-extensions/modules.js";
import { checkableParameters } from "../../../plugins/integrations/pi-extensions/tool-source.js";
import {
  formatSize,
  truncateHead,
  truncateLine,
  truncateTail,
} from "../../../plugins/integrations/pi-extensions/truncate.js";

const modules = hostModules({
  agentDir: () => "/agent",
  models: () => [],
  findModel: () => undefined,
  stream: () => {
    throw new Error("no streams in this test");
  },
  withFileMutationQueue: (_path, work) => work(),
  reportBusError: () => {},
});

describe("pi's output-limit helpers", () => {
  it("give pi's results: whole lines, the limit that cut, a partial line only for a too-long last line", () => {
    expect([
      formatSize(500),
      formatSize(1024),
      formatSize(1536),
      formatSize(50 * 1024),
      formatSize(3 * 1024 * 1024),
    ]).toEqual(["500B", "1.0KB", "1.5KB", "50.0KB", "3.0MB"]);
    expect(truncateLine("abc", 2)).toEqual({ text: "ab... [truncated]", wasTruncated: true });
    expect(truncateLine("abc")).toEqual({ text: "abc", wasTruncated: false });
    expect(truncateHead("a\nb\nc\nd", { maxLines: 2 })).toMatchObject({
      content: "a\nb",
      truncated: true,
      truncatedBy: "lines",
      totalLines: 4,
      totalBytes: 7,
      outputLines: 2,
      outputBytes: 3,
    });
    expect(truncateTail("a\nb\nc\nd", { maxLines: 2 })).toMatchObject({
      content: "c\nd",
      truncatedBy: "lines",
      outputLines: 2,
    });
    expect(truncateHead("aaaa\nbbbb\ncccc", { maxBytes: 7 })).toMatchObject({
      content: "aaaa",
      truncatedBy: "bytes",
      outputBytes: 4,
    });
    expect(truncateTail("aaaa\nbbbb\ncccc", { maxBytes: 7 })).toMatchObject({
      content: "cccc",
      truncatedBy: "bytes",
      lastLinePartial: false,
    });
    expect(truncateTail("aaaaaaaaaa", { maxBytes: 4 })).toMatchObject({
      content: "aaaa",
      lastLinePartial: true,
      outputLines: 1,
    });
    expect(truncateHead("aaaaaaaaaa", { maxBytes: 4 })).toMatchObject({
      content: "",
      firstLineExceedsLimit: true,
      outputLines: 0,
    });
    expect(truncateHead("a\nb\n", { maxLines: 5 })).toEqual({
      content: "a\nb\n",
      truncated: false,
      truncatedBy: null,
      totalLines: 3,
      totalBytes: 4,
      outputLines: 3,
      outputBytes: 4,
      lastLinePartial: false,
      firstLineExceedsLimit: false,
      maxLines: 5,
      maxBytes: 51200,
    });
  });
});

describe("tool parameter schemas", () => {
  it("StringEnum is sent as pi sends it and checked as its values", () => {
    const schema = checkableParameters(
      Type.Object({
        action: StringEnum(["list", "add"] as const, { description: "what to do" }),
        text: Type.Optional(Type.String()),
      }),
    );
    expect(JSON.parse(JSON.stringify(schema))).toEqual({
      type: "object",
      required: ["action"],
      properties: {
        action: { type: "string", enum: ["list", "add"], description: "what to do" },
        text: { type: "string" },
      },
    });
    expect(Value.Check(schema, { action: "add" })).toBe(true);
    expect(Value.Check(schema, { action: "remove" })).toBe(false);
    expect(Value.Check(schema, { action: "add", text: 3 })).toBe(false);
    expect(Value.Check(schema, {})).toBe(false);
  });

  it("schemas TypeBox can check are used as they are", () => {
    const plain = Type.Object({ name: Type.String() });
    expect(checkableParameters(plain)).toBe(plain);
  });
});

describe("host-provided modules", () => {
  it("every scope's name resolves to the same module; unsupported exports throw 'not supported yet' when used, not when imported", () => {
    expect(modules["@earendil-works/pi-coding-agent"]).toBe(modules["@mariozechner/pi-coding-agent"]);
    expect((modules.typebox as { default: unknown }).default).toBe(Type);
    const tui = modules["@mariozechner/pi-tui"] as Record<string, any>;
    expect(Object.keys(tui)).toContain("Image");
    expect(() => new tui.Image()).toThrow("not supported yet: Image");
    expect(() => tui.TUI_KEYBINDINGS).toThrow("not supported yet: TUI_KEYBINDINGS");
    const agent = modules["@mariozechner/pi-coding-agent"] as Record<string, any>;
    expect(() => agent.SessionManager.list("/")).toThrow("not supported yet: SessionManager.list");
    expect(agent.getAgentDir()).toBe("/agent");
    expect(agent.isToolCallEventType("bash", { toolName: "bash" })).toBe(true);
  });
});
