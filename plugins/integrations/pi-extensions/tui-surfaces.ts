/**
 * The components extensions put into the TUI — `ctx.ui.setHeader`, `setFooter`, `setWidget` with a
 * factory, `custom()` screens and overlays — kept here, in the plugin that made them, and offered to the
 * view through `tui/surfaces`: the view asks for their lines each frame and hands the focused one its
 * keys (as the raw terminal data pi-tui components read). A component that throws while it renders is
 * reported once and taken away, so one broken extension cannot break every frame.
 */
import type {
  TuiApp,
  TuiBlocked,
  TuiKey,
  TuiOverlayOptions,
  TuiOverlaySpec,
  TuiSurfaceSlot,
  WidgetPlacement,
} from "pi-host";
import { keyData } from "./key-data.js";
import { matchesKey, type Component } from "./pi-tui.js";
import { createTuiTheme, type TuiTheme } from "./tui-theme.js";

/** A component as extensions return it (pi's `Component & { dispose?() }`). */
export type ExtensionComponent = Component & { dispose?(): void; focused?: boolean };

/** pi's component factories get the TUI, the theme and (for custom screens) the key bindings. */
export type ComponentFactory = (tui: unknown, theme: TuiTheme, ...rest: any[]) => unknown;

/** pi's `custom()` options. */
export interface CustomOptions {
  overlay?: boolean;
  overlayOptions?: TuiOverlayOptions | (() => TuiOverlayOptions);
  onHandle?: (handle: OverlayHandle) => void;
  /** pi's terminal program status while the component waits for an answer. */
  blocked?: TuiBlocked;
}

/** pi-tui's OverlayHandle, for overlays `custom()` shows. */
export interface OverlayHandle {
  hide(): void;
  setHidden(hidden: boolean): void;
  isHidden(): boolean;
  focus(): void;
  unfocus(options?: { target?: unknown }): void;
  isFocused(): boolean;
  getBounds(): undefined;
}

interface Custom {
  id: string;
  /** Shown as the `seq`-th: the most recent blocked one names the status. */
  seq: number;
  blocked: TuiBlocked | undefined;
  overlay: boolean;
  options: CustomOptions["overlayOptions"];
  component: ExtensionComponent;
  hidden: boolean;
  focused: boolean;
}

/** What the surfaces need from the runtime. */
export interface SurfaceHost {
  app(): TuiApp | undefined;
  /** Reports a component's failure (an error notice naming the member). */
  report(where: string, error: unknown): void;
  /** The extension statuses (`setStatus`) and the working folder, for footers. */
  statuses(): ReadonlyMap<string, string>;
  gitBranch(): string | null;
}

/** The surfaces of one plugin generation. */
export class ExtensionSurfaces {
  private header: ExtensionComponent | undefined;
  private footer: ExtensionComponent | undefined;
  private readonly widgets = new Map<string, { component: ExtensionComponent; placement: WidgetPlacement }>();
  /** `custom()` components, oldest first; the newest visible focused one takes the keys. */
  private customs: Custom[] = [];
  private nextId = 1;
  private listeners: Array<(data: string) => unknown> = [];
  /** `setEditorComponent`: the factory and the editor it made. */
  private editor: { factory: ComponentFactory; component: ExtensionComponent } | undefined;
  /** True while a component handles a key: keys it passes on to the view go past the surfaces. */
  private dispatching = false;
  readonly theme: TuiTheme;

  constructor(private readonly host: SurfaceHost) {
    this.theme = this.themeNamed(undefined);
  }

  /** pi's Theme over the view's active theme, or over the theme `name`. */
  themeNamed(name: string | undefined): TuiTheme {
    return createTuiTheme(() => {
      const app = this.host.app();
      if (app === undefined) throw new Error("the terminal view is not running");
      return app;
    }, name);
  }

  /** pi's `tui` argument: render requests and the terminal's size. */
  readonly tui = {
    requestRender: (): void => this.host.app()?.requestRender(),
    terminal: {
      get columns(): number {
        return process.stdout.columns ?? 80;
      },
      get rows(): number {
        return process.stdout.rows ?? 24;
      },
    },
  };

  /** pi's KeybindingsManager over the view's keybindings.json. */
  readonly keybindings = {
    getKeys: (action: string): string[] => this.host.app()?.actionKeys(action) ?? [],
    matches: (data: string, action: string): boolean =>
      this.keybindings.getKeys(action).some((k) => matchesKey(data, k)),
  };

  /** pi's `ctx.ui.setHeader` / `setFooter`: a factory, or undefined for the built-in one. */
  setChrome(which: "header" | "footer", factory: ComponentFactory | undefined): void {
    this[which]?.dispose?.();
    this[which] = undefined;
    if (factory !== undefined) {
      const footerData = which === "footer" ? this.footerData() : undefined;
      this[which] = this.build(`ctx.ui.set${which === "header" ? "Header" : "Footer"}`, () =>
        factory(this.tui, this.theme, footerData),
      );
    }
    this.tui.requestRender();
  }

  /** pi's `ctx.ui.setWidget(key, factory)`; undefined removes the component widget `key`. */
  setWidget(key: string, factory: ComponentFactory | undefined, placement: WidgetPlacement = "aboveEditor"): void {
    this.widgets.get(key)?.component.dispose?.();
    this.widgets.delete(key);
    if (factory !== undefined)
      this.widgets.set(key, {
        component: this.build(`setWidget("${key}")`, () => factory(this.tui, this.theme)),
        placement,
      });
    this.tui.requestRender();
  }

  /** pi's `ctx.ui.custom()`: resolves with what the component passes to `done`. */
  custom<T>(factory: ComponentFactory, options: CustomOptions = {}): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const blocked = blockedOption(options.blocked);
      let finished = false;
      let custom: Custom | undefined;
      const done = (value: T): void => {
        if (finished) return;
        finished = true;
        if (custom !== undefined) this.remove(custom);
        resolve(value);
      };
      Promise.resolve()
        .then(() => factory(this.tui, this.theme, this.keybindings, done))
        .then((component) => {
          const built = this.component("ctx.ui.custom", component);
          if (finished) return built.dispose?.();
          const seq = this.nextId++;
          custom = {
            id: `custom-${seq}`,
            seq,
            blocked,
            overlay: options.overlay === true,
            options: options.overlayOptions,
            component: built,
            hidden: false,
            focused: true,
          };
          this.customs.push(custom);
          if (custom.overlay) options.onHandle?.(this.handle(custom, () => done(undefined as T)));
          this.tui.requestRender();
        })
        .catch((error: unknown) => {
          finished = true;
          reject(error);
        });
    });
  }

  /** pi's `ctx.ui.setEditorComponent`: the editor in place of the view's; undefined restores it. */
  setEditorComponent(factory: ComponentFactory | undefined): void {
    this.editor?.component.dispose?.();
    this.editor = undefined;
    if (factory !== undefined) {
      const component = this.build("ctx.ui.setEditorComponent", () => factory(this.tui, this.theme, this.keybindings));
      // pi's CustomEditor (our Editor) becomes the TUI's own editor.
      (component as { attachToView?: () => void }).attachToView?.();
      this.editor = { factory, component };
    }
    this.tui.requestRender();
  }

  /** pi's `ctx.ui.getEditorComponent`: the factory set last, if any. */
  editorFactory(): ComponentFactory | undefined {
    return this.editor?.factory;
  }

  /** The `tui/surfaces` lines of a slot. */
  slot(slot: TuiSurfaceSlot, width: number): string[] | undefined {
    if (slot === "header" || slot === "footer") {
      const component = this[slot];
      return component === undefined ? undefined : this.render(component, width, () => (this[slot] = undefined));
    }
    if (slot === "editor") {
      const inline = this.customs
        .slice()
        .reverse()
        .find((c) => !c.overlay);
      if (inline !== undefined) return this.render(inline.component, width, () => this.remove(inline));
      const editor = this.editor;
      return editor === undefined ? undefined : this.render(editor.component, width, () => (this.editor = undefined));
    }
    const rows: string[] = [];
    for (const [key, widget] of this.widgets)
      if (widget.placement === slot)
        rows.push(...(this.render(widget.component, width, () => this.widgets.delete(key)) ?? []));
    return rows.length === 0 ? undefined : rows;
  }

  overlays(): TuiOverlaySpec[] {
    return this.customs
      .filter((c) => c.overlay && !c.hidden)
      .map((c) => ({ id: c.id, options: (typeof c.options === "function" ? c.options() : c.options) ?? {} }));
  }

  renderOverlay(id: string, width: number): string[] {
    const custom = this.customs.find((c) => c.id === id);
    return custom === undefined ? [] : (this.render(custom.component, width, () => this.remove(custom)) ?? []);
  }

  /**
   * The newest component that waits for the user (pi's `blocked`): the inline one while it is the one
   * shown, an overlay until it is done (hidden or covered too).
   */
  blocked(): TuiBlocked | undefined {
    const inline = this.customs.filter((c) => !c.overlay).at(-1);
    const waiting = this.customs.filter((c) => c.blocked !== undefined && (c.overlay || c === inline));
    return waiting.sort((a, b) => a.seq - b.seq).at(-1)?.blocked;
  }

  /** pi's `ctx.ui.onTerminalInput`: raw input first; `{ consume: true }` swallows it. Returns the unsubscribe. */
  onTerminalInput(listener: (data: string) => unknown): () => void {
    if (typeof listener !== "function") throw new Error("ctx.ui.onTerminalInput needs a function");
    this.listeners.push(listener);
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  /** A key: terminal-input listeners first, then the custom screen or focused overlay. True when taken. */
  input(key: TuiKey): boolean {
    if (this.dispatching) return false;
    this.dispatching = true;
    try {
      return this.dispatch(key);
    } finally {
      this.dispatching = false;
    }
  }

  private dispatch(key: TuiKey): boolean {
    const data = keyData(key);
    for (const listener of [...this.listeners]) {
      try {
        const result = listener(data) as { consume?: boolean; data?: string } | undefined;
        if (result?.consume === true) return true;
      } catch (error) {
        this.host.report("ctx.ui.onTerminalInput", error);
      }
    }
    const target = this.target()?.component ?? this.editor?.component;
    if (target === undefined) return false;
    try {
      target.handleInput?.(data);
    } catch (error) {
      const where = target === this.editor?.component ? "the editor's handleInput" : "ctx.ui.custom handleInput";
      this.host.report(where, error);
    }
    this.tui.requestRender();
    return true;
  }

  /** Every component goes (the plugin stops); open `custom()` promises stay unresolved, as pi leaves them. */
  disposeAll(): void {
    for (const component of [this.header, this.footer, ...[...this.widgets.values()].map((w) => w.component)])
      component?.dispose?.();
    for (const custom of this.customs) custom.component.dispose?.();
    this.editor?.component.dispose?.();
    this.editor = undefined;
    this.customs = [];
    this.listeners = [];
    this.widgets.clear();
    this.header = this.footer = undefined;
  }

  private target(): Custom | undefined {
    return this.customs
      .slice()
      .reverse()
      .find((c) => c.focused && !c.hidden);
  }

  private remove(custom: Custom): void {
    this.customs = this.customs.filter((c) => c !== custom);
    custom.component.dispose?.();
    this.tui.requestRender();
  }

  private handle(custom: Custom, close: () => void): OverlayHandle {
    const change = (apply: () => void): void => {
      apply();
      this.tui.requestRender();
    };
    return {
      hide: close,
      setHidden: (hidden) => change(() => (custom.hidden = hidden)),
      isHidden: () => custom.hidden,
      focus: () =>
        change(() => {
          custom.focused = true;
          // To the front: drawn last, asked first for keys.
          this.customs = [...this.customs.filter((c) => c !== custom), custom];
        }),
      unfocus: () => change(() => (custom.focused = false)),
      isFocused: () => custom.focused && this.target() === custom,
      getBounds: () => undefined,
    };
  }

  private render(component: ExtensionComponent, width: number, drop: () => void): string[] | undefined {
    try {
      return [...component.render(width)];
    } catch (error) {
      this.host.report("a component's render", error);
      drop();
      return undefined;
    }
  }

  private build(member: string, make: () => unknown): ExtensionComponent {
    return this.component(member, make());
  }

  private component(member: string, value: unknown): ExtensionComponent {
    if (value === null || typeof value !== "object" || typeof (value as Component).render !== "function")
      throw new Error(`${member}: the factory must return a component with render(width)`);
    return value as ExtensionComponent;
  }

  /** pi's ReadonlyFooterDataProvider. */
  private footerData() {
    return {
      getGitBranch: () => this.host.gitBranch(),
      getExtensionStatuses: () => this.host.statuses(),
      getAvailableProviderCount: () => 0,
      onBranchChange: () => () => {},
    };
  }
}

const BLOCKED_KINDS = new Set(["question", "permission", "auth"]);

/** pi's `blocked: { kind, message }`, checked; anything else is one clear error. */
function blockedOption(value: unknown): TuiBlocked | undefined {
  if (value === undefined) return undefined;
  const blocked = value as Partial<TuiBlocked> | null;
  if (blocked === null || typeof blocked !== "object" || !BLOCKED_KINDS.has(String(blocked.kind)))
    throw new Error('ctx.ui.custom: blocked must be { kind: "question" | "permission" | "auth", message }');
  return { kind: blocked.kind!, message: typeof blocked.message === "string" ? blocked.message : "" };
}
