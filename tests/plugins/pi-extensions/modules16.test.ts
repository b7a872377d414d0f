/**
 * The modules extensions import: every export pi 1.6.0's packages have is there (working, or throwing
 * "not supported yet" where used), `VERSION` is the pi API version matched, and pi-tui's working part
 * behaves as pi-tui's does for what extensions build with it.
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { hostModules } from "../../../plugins/integrations/pi-extensions/modules.js";
import { PI16_NODE, pi16Missing } from "../../compat/pi16.js";

const modules = hostModules({
  agentDir: () => "/tmp",
  models: () => [],
  findModel: () => undefined,
  stream: () => {
    throw new Error("no model in this test");
  },
  withFileMutationQueue: (_path, work) => work(),
  reportBusError: () => {},
});

/** The export names of one of pi 1.6.0's packages, read by running it under its Node 22. */
function piExports(pkg: string): string[] {
  const entry = fileURLToPath(
    new URL(`../../compat/pi16/node_modules/@earendil-works/${pkg}/dist/index.js`, import.meta.url),
  );
  const out = execFileSync(
    PI16_NODE,
    [
      "--input-type=module",
      "-e",
      `const m = await import(${JSON.stringify(entry)}); console.log(JSON.stringify(Object.keys(m)));`,
    ],
    { encoding: "utf8" },
  );
  return JSON.parse(out) as string[];
}

describe.skipIf(pi16Missing !== undefined)("pi 1.6.0's module exports", () => {
  if (pi16Missing !== undefined) console.log(`skipped: ${pi16Missing}`);
  for (const pkg of ["pi-coding-agent", "pi-ai", "pi-tui", "pi-agent-core"]) {
    it(`@earendil-works/${pkg} has every export pi's has`, () => {
      const ours = modules[`@earendil-works/${pkg}`] as Record<string, unknown>;
      const missing = piExports(pkg).filter((name) => name !== "default" && !(name in ours));
      expect(missing).toEqual([]);
    });
  }
});

describe("modules", () => {
  it("VERSION is the pi API version matched", () => {
    expect((modules["@earendil-works/pi-coding-agent"] as { VERSION: string }).VERSION).toBe("1.6.0");
  });

  it("pi-tui: Key ids, matchesKey over terminal input, text measures and components", () => {
    const tui = modules["@earendil-works/pi-tui"] as any;
    expect(tui.Key.enter).toBe("enter");
    expect(tui.Key.ctrl("c")).toBe("ctrl+c");
    expect(tui.Key.ctrlShift("p")).toBe("ctrl+shift+p");
    expect(tui.matchesKey("\x03", tui.Key.ctrl("c"))).toBe(true);
    expect(tui.matchesKey("\r", tui.Key.enter)).toBe(true);
    expect(tui.matchesKey("\x1b[A", "up")).toBe(true);
    expect(tui.matchesKey("\x1b[99;5u", "ctrl+c")).toBe(true);
    expect(tui.matchesKey("\x1bx", "alt+x")).toBe(true);
    expect(tui.matchesKey("x", "ctrl+x")).toBe(false);
    expect(tui.visibleWidth("\x1b[31mred\x1b[0m 日本")).toBe(8);
    expect(tui.truncateToWidth("hello world", 8)).toBe("hello\x1b[0m...");
    expect(tui.wrapTextWithAnsi("one two three", 7)).toEqual(["one two", "three"]);
    const box = new tui.Container();
    box.addChild(new tui.Text("hi there", 0, 0));
    box.addChild(new tui.Spacer(1));
    expect(box.render(5)).toEqual(["hi   ", "there", ""]);
  });

  it("pi-ai: getCurrentSystemMessage / getCurrentSystemPrompt read a context_with_system transcript", () => {
    const ai = modules["@earendil-works/pi-ai"] as any;
    const messages = [
      { role: "system", content: "old" },
      { role: "user", content: "hi" },
      { role: "system", content: [{ type: "text", text: "new" }] },
    ];
    expect(ai.getCurrentSystemMessage(messages)).toBe(messages[2]);
    expect(ai.getCurrentSystemPrompt(messages)).toBe("new");
  });
});
