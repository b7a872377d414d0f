/**
 * The components extensions hand the TUI, kept by the pi-extensions plugin: which one takes the keys,
 * overlay handles (hide, focus), terminal-input listeners, and a component that throws while it renders.
 */
import { describe, expect, it } from "vitest";
import type { TuiKey } from "../../../contracts/tui.js";
import type { TuiApp } from "../../../contracts/tui-surfaces.js";
import { ExtensionSurfaces, type OverlayHandle } from "../../../plugins/integrations/pi-extensions/tui-surfaces.js";

const key = (name: string, text?: string): TuiKey => ({ name, ctrl: false, alt: false, shift: false, text });

function surfaces() {
  const reports: string[] = [];
  let renders = 0;
  const app = {
    running: () => true,
    theme: () => ({ name: "dark", appearance: "dark" as const }),
    paint: (token: string, text: string) => `<${token}>${text}`,
    ansi: () => "",
    themes: () => [],
    addThemes: () => [],
    setTheme: () => ({ success: true as const }),
    actionKeys: (action: string) => (action === "tui.select.confirm" ? ["enter"] : []),
    requestRender: () => void renders++,
    editorText: () => "",
    setEditorText: () => {},
    pasteToEditor: () => {},
    editorRows: () => [],
    editorKey: () => {},
    toolsExpanded: () => false,
    setToolsExpanded: () => {},
    setWorking: () => {},
  } satisfies TuiApp;
  const s = new ExtensionSurfaces({
    app: () => app,
    report: (where, error) => reports.push(`${where}: ${(error as Error).message}`),
    statuses: () => new Map(),
    gitBranch: () => null,
  });
  return { s, reports, renders: () => renders };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("extension surfaces", () => {
  it("the newest custom screen has the keys; done() resolves and gives them back", async () => {
    const { s } = surfaces();
    const seen: string[] = [];
    const first = s.custom<string>((_tui, theme, keybindings, done) => ({
      render: () => [theme.fg("accent", "first")],
      handleInput: (data: string) => {
        seen.push(`first:${JSON.stringify(data)}`);
        if (keybindings.matches(data, "tui.select.confirm")) done("one");
      },
    }));
    await settle();
    expect(s.slot("editor", 40)).toEqual(["<accent>first"]);
    expect(s.input(key("text", "a"))).toBe(true);
    expect(s.input(key("enter"))).toBe(true);
    expect(await first).toBe("one");
    expect(s.slot("editor", 40)).toBeUndefined();
    expect(s.input(key("text", "b"))).toBe(false);
    expect(seen).toEqual(['first:"a"', 'first:"\\r"']);
  });

  it("an overlay's handle hides it and takes the keys away; focus() brings it to the front", async () => {
    const { s } = surfaces();
    let handle!: OverlayHandle;
    const keys: string[] = [];
    const overlay = (name: string) => ({ render: () => [name], handleInput: (d: string) => keys.push(`${name}:${d}`) });
    void s.custom(() => overlay("back"), { overlay: true, onHandle: (h) => (handle = h) });
    void s.custom(() => overlay("front"), { overlay: true, overlayOptions: () => ({ anchor: "top-left" }) });
    await settle();
    expect(s.overlays().map((o) => o.id)).toHaveLength(2);
    expect(s.overlays()[1]!.options).toEqual({ anchor: "top-left" });
    s.input(key("text", "x"));
    handle.focus();
    s.input(key("text", "y"));
    expect(handle.isFocused()).toBe(true);
    handle.setHidden(true);
    expect(handle.isHidden()).toBe(true);
    expect(s.overlays()).toHaveLength(1);
    s.input(key("text", "z"));
    expect(keys).toEqual(["front:x", "back:y", "front:z"]);
  });

  it("a terminal-input listener sees keys first and may consume them", async () => {
    const { s } = surfaces();
    const heard: string[] = [];
    const stop = s.onTerminalInput((data) => {
      heard.push(data);
      return data === "q" ? { consume: true } : undefined;
    });
    expect(s.input(key("text", "q"))).toBe(true);
    expect(s.input(key("text", "w"))).toBe(false);
    stop();
    expect(s.input(key("text", "q"))).toBe(false);
    expect(heard).toEqual(["q", "w"]);
  });

  it("a component that throws while rendering is reported and taken away; a factory must return a component", async () => {
    const { s, reports } = surfaces();
    s.setChrome("footer", () => ({
      render: () => {
        throw new Error("boom");
      },
    }));
    expect(s.slot("footer", 40)).toBeUndefined();
    expect(reports).toEqual(["a component's render: boom"]);
    expect(s.slot("footer", 40)).toBeUndefined();
    expect(reports).toHaveLength(1);
    expect(() => s.setWidget("w", () => 42)).toThrow('setWidget("w"): the factory must return a component');
    await expect(s.custom(() => ({}))).rejects.toThrow("ctx.ui.custom: the factory must return a component");
  });

  it("widgets keep their placement and order; replacing one disposes the old", () => {
    const { s } = surfaces();
    const disposed: string[] = [];
    const widget = (text: string) => () => ({ render: () => [text], dispose: () => disposed.push(text) });
    s.setWidget("a", widget("A"));
    s.setWidget("b", widget("B"), "belowEditor");
    s.setWidget("c", widget("C"));
    expect(s.slot("aboveEditor", 10)).toEqual(["A", "C"]);
    expect(s.slot("belowEditor", 10)).toEqual(["B"]);
    s.setWidget("a", widget("A2"));
    expect(disposed).toEqual(["A"]);
    s.setWidget("b", undefined);
    expect(s.slot("belowEditor", 10)).toBeUndefined();
  });
});

describe("pi-tui controls", () => {
  it("SelectList moves, wraps and selects with the keys of tui.select.*", async () => {
    const { SelectList } = await import("../../../plugins/integrations/pi-extensions/pi-tui-controls.js");
    const theme = {
      selectedPrefix: (t: string) => t,
      selectedText: (t: string) => `[${t}]`,
      description: (t: string) => t,
      scrollInfo: (t: string) => t,
      noMatch: (t: string) => t,
    };
    const list = new SelectList(
      [
        { value: "a", label: "alpha", description: "first letter" },
        { value: "b", label: "beta" },
        { value: "c", label: "gamma" },
      ],
      2,
      theme,
    );
    const chosen: string[] = [];
    list.onSelect = (item) => chosen.push(item.value);
    expect(list.render(60)).toEqual(["[→ alpha                           first letter]", "  beta", "  (1/3)"]);
    list.handleInput("\x1b[A");
    expect(list.getSelectedItem()?.value).toBe("c");
    list.handleInput("\r");
    list.setFilter("b");
    list.handleInput("\r");
    expect(chosen).toEqual(["c", "b"]);
    list.setFilter("zz");
    expect(list.render(40)).toEqual(["  No matching commands"]);
  });

  it("Input edits one line, shows the cursor when focused, and submits on Enter", async () => {
    const { Input } = await import("../../../plugins/integrations/pi-extensions/pi-tui-controls.js");
    const { CURSOR_MARKER, visibleWidth } = await import("../../../plugins/integrations/pi-extensions/pi-tui.js");
    const input = new Input();
    const submitted: string[] = [];
    input.onSubmit = (value) => submitted.push(value);
    for (const data of ["hello", " wor", "ld", "\x17", "there", "\x1b[D", "\x7f", "\x01", "<"]) input.handleInput(data);
    expect(input.getValue()).toBe("<hello thee");
    input.focused = true;
    const [line] = input.render(20);
    expect(line).toContain(CURSOR_MARKER);
    expect(visibleWidth(line!)).toBe(20);
    input.handleInput("\x1b[200~pasted\nline\x1b[201~");
    input.handleInput("\r");
    expect(submitted).toEqual(["<pasted linehello thee"]);
  });
});
