/**
 * `ctx.ui.addAutocompleteProvider` in the terminal view, in-process: providers stack over the view's own
 * completion as pi 1.6.0 stacks them (each gets the one below as `current`), their trigger characters
 * open the list, their items are shown with labels and descriptions, and taking one inserts it through
 * the stack's `applyCompletion`. The stack lives in the extensions' generation: cleared, it is gone.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { TuiCompleter } from "../../../contracts/tui-surfaces.js";
import { ExtensionAutocomplete } from "../../../plugins/integrations/pi-extensions/tui-autocomplete.js";
import { viewCompleter } from "../../../plugins/ui/tui/view-complete.js";
import { bootTui, type TuiHarness } from "../tui/harness.js";
import { fixture, withExtensions } from "./ext-harness.js";

let harness: TuiHarness | undefined;
afterEach(async () => {
  await harness?.stop();
  await harness?.kernel.shutdown();
  harness = undefined;
});

const editorRow = (h: TuiHarness): string =>
  h.vt.lines().find((line) => line.startsWith("see") || line.startsWith("pay")) ?? "";

describe("addAutocompleteProvider in the TUI", () => {
  it("a # provider over the built-in one: typing # opens its list, Tab inserts the choice; / still lists commands", async () => {
    const h = (harness = await bootTui({ ...withExtensions([fixture("autocomplete.ts")]), width: 80, height: 24 }));
    // Extensions load (and session_start runs) with the first prompt.
    h.type("/money\r");
    await h.waitFor("money completion added");
    h.type("see #");
    let screen = await h.waitFor("Extension API for autocomplete");
    expect(screen).toContain("#2753");
    h.type("29");
    screen = await h.waitFor((s) => !s.includes("#2753"));
    expect(screen).toContain("#2983");
    h.type("\t");
    await h.waitFor((s) => s.includes("see #2983") && !s.includes("Extension API for autocomplete"));
    expect(editorRow(h).trimEnd()).toBe("see #2983");
    // The built-in `/` completion comes through the stack (the providers delegate to it).
    h.type("\x15/mod");
    await h.waitFor("/model");
  });

  it("the second provider's own trigger ($) and applyCompletion; Down moves the selection", async () => {
    const h = (harness = await bootTui({ ...withExtensions([fixture("autocomplete.ts")]), width: 80, height: 24 }));
    h.type("/money\r");
    await h.waitFor("money completion added");
    h.type("pay $");
    await h.waitFor("$EUR");
    h.type("\x1b[B\t");
    await h.waitFor("pay [EUR]");
    expect(editorRow(h).trimEnd()).toBe("pay [EUR]");
  });
});

describe("ExtensionAutocomplete", () => {
  const base = viewCompleter(
    () => process.cwd(),
    () => [],
  );

  it("stacks factories oldest first, each over the one below, and builds the stack once per base", () => {
    const seen: string[] = [];
    const stack = new ExtensionAutocomplete(
      () => {},
      () => {},
    );
    const wrap = (name: string, trigger: string) => (current: TuiCompleter) => {
      seen.push(`${name} over ${current === base ? "base" : "other"}`);
      return { ...current, triggerCharacters: [trigger] };
    };
    stack.add(wrap("a", "$"));
    stack.add(wrap("b", "%"));
    const top = stack.completer(base);
    expect(seen).toEqual(["a over base", "b over other"]);
    expect(top.triggerCharacters).toEqual(["$", "%"]);
    expect(stack.completer(base)).toBe(top);
    expect(seen).toHaveLength(2);
    stack.clear();
    expect(stack.completer(base)).toBe(base);
  });

  it("a factory that throws or returns no provider is reported and left out; a non-function is refused", () => {
    const reports: string[] = [];
    const stack = new ExtensionAutocomplete(
      (where, error) => reports.push(`${where}: ${(error as Error).message}`),
      () => {},
    );
    stack.add(() => {
      throw new Error("boom");
    });
    stack.add(() => ({ nope: true }));
    expect(stack.completer(base)).toBe(base);
    expect(reports).toEqual([
      "ctx.ui.addAutocompleteProvider: boom",
      "ctx.ui.addAutocompleteProvider: the factory must return { getSuggestions, applyCompletion }",
    ]);
    expect(() => stack.add("x")).toThrow("ctx.ui.addAutocompleteProvider needs a function (current) => provider");
  });

  it("the view's own completer: commands without the slash (pi's items), applied with a space", async () => {
    const found = await base.getSuggestions(["/mod"], 0, 4, { signal: new AbortController().signal });
    expect(found?.prefix).toBe("/mod");
    expect(found?.items[0]).toMatchObject({ value: "model", label: "model" });
    expect(base.applyCompletion(["/mod"], 0, 4, found!.items[0]!, "/mod")).toEqual({
      lines: ["/model "],
      cursorLine: 0,
      cursorCol: 7,
    });
    expect(base.applyCompletion(["a #2", "x"], 0, 4, { value: "#2983", label: "#2983" }, "#2")).toEqual({
      lines: ["a #2983", "x"],
      cursorLine: 0,
      cursorCol: 7,
    });
  });
});
