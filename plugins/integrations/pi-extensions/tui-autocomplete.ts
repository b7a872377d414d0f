/**
 * `ctx.ui.addAutocompleteProvider` in the TUI: each factory wraps the completion below it (the view's own
 * `/` and `@` completion first), as pi stacks them, and the stack reaches the view through
 * `tui/surfaces`' `completer`. The factories belong to this plugin generation: when it retires, the view
 * no longer sees them, and `clear()` drops them.
 */
import type { TuiCompleter } from "pi-host";

/** pi's provider factory: gets the provider below and returns the one to use instead. */
export type AutocompleteFactory = (current: TuiCompleter) => unknown;

/** The completion factories one generation's extensions added, and the stack they built last. */
export class ExtensionAutocomplete {
  private factories: AutocompleteFactory[] = [];
  private built: { base: TuiCompleter; stack: TuiCompleter } | undefined;

  constructor(
    private readonly report: (where: string, error: unknown) => void,
    private readonly requestRender: () => void,
  ) {}

  /** pi's `ctx.ui.addAutocompleteProvider(factory)`: stacked over those added before. */
  add(factory: unknown): void {
    if (typeof factory !== "function")
      throw new Error("ctx.ui.addAutocompleteProvider needs a function (current) => provider");
    this.factories.push(factory as AutocompleteFactory);
    this.built = undefined;
    this.requestRender();
  }

  /**
   * `base` with every factory applied, oldest first; the same stack while `base` and the factories stay
   * (a factory runs once per stack, as pi runs it once per set-up). A factory that throws or returns
   * something that is not a provider is reported and left out.
   */
  completer(base: TuiCompleter): TuiCompleter {
    if (this.factories.length === 0) return base;
    if (this.built?.base === base) return this.built.stack;
    let current = base;
    const triggers = new Set<string>();
    for (const factory of this.factories) {
      try {
        const next = factory(current);
        if (!isCompleter(next)) throw new Error("the factory must return { getSuggestions, applyCompletion }");
        current = next;
        for (const character of next.triggerCharacters ?? []) triggers.add(character);
      } catch (error) {
        this.report("ctx.ui.addAutocompleteProvider", error);
      }
    }
    const stack = current === base ? base : this.guarded(current, [...triggers]);
    this.built = { base, stack };
    return stack;
  }

  /** Every factory goes (the generation retires). */
  clear(): void {
    this.factories = [];
    this.built = undefined;
  }

  /** The top of the stack with the trigger characters of all of it (pi collects them the same way). */
  private guarded(top: TuiCompleter, triggerCharacters: string[]): TuiCompleter {
    return {
      triggerCharacters,
      getSuggestions: async (lines, line, col, options) => {
        try {
          return await top.getSuggestions(lines, line, col, options);
        } catch (error) {
          if (!options.signal.aborted) this.report("an autocomplete provider's getSuggestions", error);
          return null;
        }
      },
      applyCompletion: (lines, line, col, item, prefix) => top.applyCompletion(lines, line, col, item, prefix),
      shouldTriggerFileCompletion: (lines, line, col) => top.shouldTriggerFileCompletion?.(lines, line, col) ?? true,
    };
  }
}

function isCompleter(value: unknown): value is TuiCompleter {
  const provider = value as TuiCompleter | null;
  return (
    typeof provider === "object" &&
    provider !== null &&
    typeof provider.getSuggestions === "function" &&
    typeof provider.applyCompletion === "function"
  );
}
