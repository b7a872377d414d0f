/**
 * The TUI side of extensions: the `tui/surfaces` provider (their components and renderers, read by the
 * view each frame) and the `ctx.ui` members for pi's own TUI in interactive mode — `custom` (screens and
 * overlays), `setHeader`, `setFooter`, `setWidget` with a factory, `onTerminalInput`, `theme`,
 * `getAllThemes` / `getTheme` / `setTheme`, `getToolsExpanded` / `setToolsExpanded`, `getEditorText`,
 * `pasteToEditor`, `addAutocompleteProvider` — over the view's `tui/app`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Handle, TuiApp, TuiSurfaces, WidgetPlacement } from "pi-host";
import { ExtensionAutocomplete } from "./tui-autocomplete.js";
import { ExtensionRenderers } from "./tui-renderers.js";
import { type ComponentFactory, type CustomOptions, ExtensionSurfaces } from "./tui-surfaces.js";
import type { LoadedExtension } from "./types.js";

/** What the TUI side needs from the runtime. */
export interface TuiUiHost {
  app: Handle<TuiApp> | undefined;
  extensions: readonly LoadedExtension[];
  cwd(): string;
  report(where: string, error: unknown): void;
}

/** The running branch of the git checkout at `cwd` (pi's footer shows it), or null. */
function gitBranch(cwd: string): string | null {
  try {
    const head = readFileSync(join(cwd, ".git", "HEAD"), "utf8").trim();
    return head.startsWith("ref: refs/heads/") ? head.slice("ref: refs/heads/".length) : "detached";
  } catch {
    return null;
  }
}

/** One generation's TUI side. */
export class ExtensionTui {
  /** `ctx.ui.setStatus` values, which custom footers read (`footerData.getExtensionStatuses()`). */
  readonly statuses = new Map<string, string>();
  readonly surfaces: ExtensionSurfaces;
  readonly renderers: ExtensionRenderers;
  readonly autocomplete: ExtensionAutocomplete;

  constructor(private readonly host: TuiUiHost) {
    this.surfaces = new ExtensionSurfaces({
      app: () => this.app(),
      report: (where, error) => host.report(where, error),
      statuses: () => this.statuses,
      gitBranch: () => gitBranch(host.cwd()),
    });
    this.renderers = new ExtensionRenderers(
      () => host.extensions,
      this.surfaces,
      () => host.cwd(),
    );
    this.autocomplete = new ExtensionAutocomplete(
      (where, error) => host.report(where, error),
      () => this.app()?.requestRender(),
    );
  }

  /** The generation retires: its components and completion providers go. */
  dispose(): void {
    this.surfaces.disposeAll();
    this.autocomplete.clear();
  }

  /** The view, while it runs. */
  app(): TuiApp | undefined {
    const app = this.host.app;
    return app?.available === true && app.api.running() ? app.api : undefined;
  }

  /** The `tui/surfaces` provider. */
  provider(): TuiSurfaces {
    const s = this.surfaces;
    return {
      slot: (slot, width) => s.slot(slot, width),
      overlays: () => s.overlays(),
      renderOverlay: (id, width) => s.renderOverlay(id, width),
      input: (key) => s.input(key),
      renderMessage: (message, options) => this.renderers.renderMessage(message, options),
      renderTool: (tool, options) => this.renderers.renderTool(tool, options),
      renderEntry: (entry, options) => this.renderers.renderEntry(entry, options),
      transformMarkdown: (markdown, context) => this.renderers.transformMarkdown(markdown, context),
      completer: (base) => this.autocomplete.completer(base),
      blocked: () => s.blocked(),
    };
  }

  /** `setWidget` with a component factory (lines go through the ui contract). */
  setWidget(key: string, factory: ComponentFactory | undefined, placement?: WidgetPlacement): void {
    this.surfaces.setWidget(key, factory, placement);
  }

  /** The TUI-only `ctx.ui` members in interactive mode; the names absent here still throw (context.ts). */
  members(): Record<string, unknown> {
    const s = this.surfaces;
    const app = (): TuiApp => {
      const running = this.app();
      if (running === undefined) throw new Error("the terminal view is not running");
      return running;
    };
    return {
      custom: <T>(factory: ComponentFactory, options?: CustomOptions) => {
        if (typeof factory !== "function") throw new Error("ctx.ui.custom needs a component factory");
        return s.custom<T>(factory, options);
      },
      setHeader: (factory: ComponentFactory | undefined) =>
        s.setChrome("header", factoryOrUndefined("setHeader", factory)),
      setFooter: (factory: ComponentFactory | undefined) =>
        s.setChrome("footer", factoryOrUndefined("setFooter", factory)),
      onTerminalInput: (listener: (data: string) => unknown) => s.onTerminalInput(listener),
      setEditorComponent: (factory: ComponentFactory | undefined) =>
        s.setEditorComponent(factoryOrUndefined("setEditorComponent", factory)),
      getEditorComponent: () => s.editorFactory(),
      theme: s.theme,
      getAllThemes: () =>
        app()
          .themes()
          .map((t) => ({ name: t.name, path: t.path })),
      getTheme: (name: string) => (app().theme(name) === undefined ? undefined : s.themeNamed(name)),
      setTheme: (theme: string | { name?: string }) => {
        const name = typeof theme === "string" ? theme : theme?.name;
        if (typeof name !== "string") return { success: false, error: "setTheme needs a theme name or a Theme" };
        return app().setTheme(name);
      },
      setWorkingMessage: (message?: string) =>
        app().setWorking({ message: message === undefined ? null : String(message) }),
      setWorkingVisible: (visible: boolean) => app().setWorking({ visible: visible !== false }),
      setWorkingIndicator: (options?: { frames?: unknown; intervalMs?: unknown }) => {
        if (options === undefined) return app().setWorking({ indicator: null });
        if (!Array.isArray(options.frames) || !options.frames.every((f) => typeof f === "string"))
          throw new Error("ctx.ui.setWorkingIndicator needs { frames: string[] } or nothing to restore the default");
        const intervalMs =
          typeof options.intervalMs === "number" && options.intervalMs > 0 ? options.intervalMs : undefined;
        app().setWorking({ indicator: { frames: options.frames, ...(intervalMs !== undefined && { intervalMs }) } });
      },
      setHiddenThinkingLabel: (label?: string) =>
        app().setWorking({ hiddenThinkingLabel: label === undefined ? null : String(label) }),
      getToolsExpanded: () => app().toolsExpanded(),
      setToolsExpanded: (expanded: boolean) => app().setToolsExpanded(expanded === true),
      getEditorText: () => app().editorText(),
      pasteToEditor: (text: string) => app().pasteToEditor(String(text)),
      addAutocompleteProvider: (factory: unknown) => this.autocomplete.add(factory),
    };
  }
}

function factoryOrUndefined(member: string, factory: unknown): ComponentFactory | undefined {
  if (factory === undefined) return undefined;
  if (typeof factory !== "function") throw new Error(`ctx.ui.${member} needs a component factory or undefined`);
  return factory as ComponentFactory;
}
