/**
 * Extensions' renderers in the TUI's transcript: `pi.registerMessageRenderer` for custom messages, and
 * tools' `renderCall` / `renderResult` (with `pi.registerToolRenderer` resolvers around them), called
 * with pi's arguments and drawn at the width the view gives. A renderer that is missing, returns
 * nothing or throws leaves the view's own rendering, as pi falls back.
 */
import type { TuiCustomEntry, TuiCustomMessage, TuiMarkdownContext } from "pi-host";
import type { TuiRenderOptions, TuiToolRender, TuiToolRows } from "pi-host";
import type { Component } from "./pi-tui.js";
import type { ExtensionSurfaces } from "./tui-surfaces.js";
import type { LoadedExtension } from "./types.js";

/** pi's ToolRenderers. */
interface ToolRenderers {
  renderCall?: (args: unknown, theme: unknown, context: unknown) => Component | undefined;
  renderResult?: (result: unknown, options: unknown, theme: unknown, context: unknown) => Component | undefined;
  renderShell?: "default" | "self";
}

/** Per tool call: pi's row-local `state` and the last components of each slot. */
interface ToolRow {
  state: Record<string, unknown>;
  call?: Component;
  result?: Component;
}

/** The `renderMessage` / `renderTool` members of the surfaces provider. */
export class ExtensionRenderers {
  private readonly rows = new Map<string, ToolRow>();

  constructor(
    private readonly extensions: () => readonly LoadedExtension[],
    private readonly surfaces: ExtensionSurfaces,
    private readonly cwd: () => string,
  ) {}

  renderMessage(message: TuiCustomMessage, options: TuiRenderOptions): string[] | undefined {
    const renderer = this.extensions()
      .map((e) => e.messageRenderers.get(message.customType))
      .find((r) => r !== undefined);
    if (renderer === undefined) return undefined;
    return this.lines(options.width, () =>
      renderer(message, { expanded: options.expanded, outputPad: 1, ...this.hints() }, this.surfaces.theme),
    );
  }

  /** pi's `registerEntryRenderer`: `renderer(entry, { expanded }, theme)` for an `appendEntry` entry. */
  renderEntry(entry: TuiCustomEntry, options: TuiRenderOptions): string[] | undefined {
    const renderer = this.extensions()
      .map((e) => e.entryRenderers.get(entry.customType))
      .find((r) => r !== undefined);
    if (renderer === undefined) return undefined;
    const piEntry = { type: "custom", id: entry.id, customType: entry.customType, data: entry.data };
    return this.lines(options.width, () =>
      renderer(piEntry, { expanded: options.expanded, outputPad: 1, ...this.hints() }, this.surfaces.theme),
    );
  }

  /**
   * pi's markdown transformers, in load order, each on the previous one's output; one that throws or
   * returns no string is skipped (the markdown so far goes on), as in pi.
   */
  transformMarkdown(markdown: string, context: TuiMarkdownContext): string {
    let out = markdown;
    for (const extension of this.extensions())
      for (const { transformer, options } of extension.markdownTransformers) {
        const types = (options as { messageTypes?: string[] } | undefined)?.messageTypes ?? [];
        if (!types.includes(context.messageType)) continue;
        try {
          const next = transformer(out, { ...context, messageId: undefined, timestamp: undefined });
          if (typeof next === "string") out = next;
        } catch {
          // pi keeps the markdown produced so far.
        }
      }
    return out;
  }

  renderTool(tool: TuiToolRender, options: TuiRenderOptions): TuiToolRows | undefined {
    const renderers = this.resolve(tool.toolName);
    if (renderers === undefined || (renderers.renderCall === undefined && renderers.renderResult === undefined))
      return undefined;
    let row = this.rows.get(tool.toolCallId);
    if (row === undefined) {
      row = { state: {} };
      this.rows.set(tool.toolCallId, row);
    }
    const context = (last: Component | undefined) => ({
      args: tool.args,
      state: row.state,
      lastComponent: last,
      invalidate: () => this.surfaces.tui.requestRender(),
      toolCallId: tool.toolCallId,
      cwd: this.cwd(),
      executionStarted: tool.executionStarted,
      argsComplete: tool.args !== undefined,
      isPartial: tool.isPartial,
      expanded: options.expanded,
      showImages: false,
      isError: tool.result?.isError === true,
      durationMs: undefined,
      outputPad: 1,
      ...this.hints(),
    });
    const theme = this.surfaces.theme;
    const out: TuiToolRows = { selfShell: renderers.renderShell === "self" };
    const call = renderers.renderCall;
    if (call !== undefined)
      out.call = this.lines(options.width, () => (row.call = call(tool.args, theme, context(row.call))));
    const result = renderers.renderResult;
    if (result !== undefined && tool.result !== undefined) {
      const opts = { expanded: options.expanded, isPartial: tool.isPartial };
      out.result = this.lines(
        options.width,
        () => (row.result = result(tool.result, opts, theme, context(row.result))),
      );
    }
    return out.call === undefined && out.result === undefined ? undefined : out;
  }

  /** The tool's own renderers, then each `registerToolRenderer` resolver around the ones before it. */
  private resolve(toolName: string): ToolRenderers | undefined {
    const extensions = this.extensions();
    let resolved = (): ToolRenderers | undefined => {
      const definition = extensions
        .map((e) => e.tools.get(toolName) as ToolRenderers | undefined)
        .slice()
        .reverse()
        .find((d) => d !== undefined);
      return definition === undefined
        ? undefined
        : {
            renderCall: definition.renderCall,
            renderResult: definition.renderResult,
            renderShell: definition.renderShell,
          };
    };
    for (const resolver of extensions.flatMap((e) => e.toolRenderers)) {
      const previous = resolved;
      resolved = () => resolver(toolName, previous) as ToolRenderers | undefined;
    }
    try {
      return resolved();
    } catch {
      return undefined;
    }
  }

  private lines(width: number, make: () => unknown): string[] | undefined {
    try {
      const component = make() as Component | undefined;
      if (component === undefined || component === null || typeof component.render !== "function") return undefined;
      return [...component.render(width)];
    } catch {
      return undefined;
    }
  }

  /** pi's `keyText` / `keyHint` over the view's key bindings. */
  private hints() {
    const keyText = (action: string): string => this.surfaces.keybindings.getKeys(action).join("/");
    return {
      keyText,
      keyHint: (action: string, description: string) =>
        this.surfaces.theme.fg("dim", keyText(action)) + this.surfaces.theme.fg("muted", ` ${description}`),
    };
  }
}
