/**
 * Evaluates extension files. jiti (imported on first need, so a run without extensions never loads a
 * transpiler) turns TypeScript into code on the fly; its `virtualModules` hand every import of pi's
 * packages the host's modules (modules.ts). The module cache is off: each plugin generation evaluates
 * its extensions afresh, as pi's `/reload` does.
 */

type Jiti = { import: (id: string, options?: { default?: boolean }) => Promise<unknown> };

/** pi's extension factory: `export default function (pi: ExtensionAPI) {...}`, possibly async. */
export type ExtensionFactory = (pi: unknown) => unknown;

/** Loads extension modules with one jiti instance. */
export class ExtensionModuleLoader {
  private jiti: Promise<Jiti> | undefined;

  constructor(private readonly virtualModules: Record<string, unknown>) {}

  /** The default export of `path`; throws one line when it is not a function. */
  async factory(path: string): Promise<ExtensionFactory> {
    const exported = await (await this.instance()).import(path, { default: true });
    if (typeof exported !== "function") {
      throw new Error(`${path} does not export a factory function (export default function (pi: ExtensionAPI) {...})`);
    }
    return exported as ExtensionFactory;
  }

  private instance(): Promise<Jiti> {
    this.jiti ??= import("jiti").then(
      ({ createJiti }) =>
        createJiti(import.meta.url, {
          moduleCache: false,
          fsCache: true,
          interopDefault: true,
          virtualModules: this.virtualModules,
        }) as unknown as Jiti,
    );
    return this.jiti;
  }
}
