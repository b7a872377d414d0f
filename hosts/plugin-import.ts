/**
 * How the host evaluates a user, project or package plugin's source (.ts or .js), handed to the kernel as
 * `importSource`: through jiti, with its module cache off (each load is a fresh generation) and
 * `virtualModules` so the plugin's imports of the host's packages resolve to the running host's own
 * instances. jiti is imported on first need only, so a run with built-ins alone loads no transpiler.
 */

type Jiti = { import: (id: string, opts?: { default?: boolean }) => Promise<unknown> };

/** A source importer whose imports of the `virtualModules` names get the host's own module objects. */
export function sourceImporter(virtualModules: Record<string, unknown>): (path: string) => Promise<unknown> {
  let jiti: Promise<Jiti> | undefined;
  return async (path) => {
    jiti ??= createJitiOnce(virtualModules);
    return (await jiti).import(path, { default: true });
  };
}

async function createJitiOnce(virtualModules: Record<string, unknown>): Promise<Jiti> {
  // jiti evaluates each transpiled module as a new script, and V8 keeps every distinct script's compiled
  // code in its compilation cache until memory pressure: in a live-editing session that is ~16 KB per
  // save that ordinary GC never returns. Plugin modules are evaluated once per generation, so the cache
  // buys nothing here.
  (await import("node:v8")).setFlagsFromString("--no-compilation-cache");
  const { createJiti } = await import("jiti");
  return createJiti(import.meta.url, {
    moduleCache: false,
    fsCache: true,
    interopDefault: true,
    virtualModules,
  }) as unknown as Jiti;
}
