/**
 * The view as the plugin provides it: a thin front that loads the real view's code (markdown, widths,
 * wrapping — the bulk of this plugin) on its first call. Every run of `pi` boots this plugin, but only an
 * interactive run ever calls it, so `pi -p` never pays for loading the UI. Once loaded, calls are
 * synchronous again.
 */
import type { SessionEvent } from "pi-host";
import type { KeyOutcome, TuiFrame, TuiKey, TuiStart, TuiTerminalColors, TuiView } from "pi-host";
import type { TerminalView } from "./view.js";
import type { ViewDeps } from "./view-deps.js";

/** Forwards each call to the real view, loading it on the first. */
export class LazyView implements TuiView {
  private view: TerminalView | undefined = undefined;
  private loading: Promise<TerminalView> | undefined = undefined;

  /** `alsoLoad`: code the view's first call loads with it (the `tui/app` the plugin provides). */
  constructor(
    private readonly deps: ViewDeps,
    private readonly alsoLoad: () => Promise<void> = async () => {},
  ) {}

  private load(): Promise<TerminalView> {
    this.loading ??= Promise.all([import("./view.js"), this.alsoLoad()]).then(
      ([module]) => (this.view = new module.TerminalView(this.deps)),
    );
    return this.loading;
  }

  start(info: TuiStart): void | Promise<void> {
    return this.view !== undefined ? this.view.start(info) : this.load().then((view) => view.start(info));
  }

  handleKey(key: TuiKey): KeyOutcome | Promise<KeyOutcome> {
    return this.view !== undefined ? this.view.handleKey(key) : this.load().then((view) => view.handleKey(key));
  }

  handleEvent(event: SessionEvent): void | Promise<void> {
    return this.view !== undefined ? this.view.handleEvent(event) : this.load().then((view) => view.handleEvent(event));
  }

  render(width: number, height: number): TuiFrame | Promise<TuiFrame> {
    return this.view !== undefined
      ? this.view.render(width, height)
      : this.load().then((view) => view.render(width, height));
  }

  stop(): void | Promise<void> {
    return this.view !== undefined ? this.view.stop() : this.load().then((view) => view.stop());
  }

  resize(width: number, height: number): void | Promise<void> {
    return this.view !== undefined
      ? this.view.resize(width, height)
      : this.load().then((view) => view.resize(width, height));
  }

  terminalColorsChanged(colors: TuiTerminalColors): void | Promise<void> {
    return this.view !== undefined
      ? this.view.terminalColorsChanged(colors)
      : this.load().then((view) => view.terminalColorsChanged(colors));
  }
}
