/**
 * The vendored npm tarballs of `tests/compat/npm-packages/` (real pi packages and their dependencies,
 * as `npm pack <name>@<version>` fetched them) published to a verdaccio registry on 127.0.0.1, so
 * `pi install npm:<name>@<version>` runs npm exactly as it would against the public registry while the
 * test stays offline: a dependency that is not vendored is a 404, and the install fails.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runNpm, startRegistry, type TestRegistry } from "../../fixtures/packages/registry.js";

/** The folder of vendored tarballs. */
export const TARBALLS = fileURLToPath(new URL("../npm-packages/", import.meta.url));

/** Every vendored tarball's path. */
export function vendoredTarballs(): string[] {
  return readdirSync(TARBALLS)
    .filter((name) => name.endsWith(".tgz"))
    .sort()
    .map((name) => join(TARBALLS, name));
}

/** A verdaccio registry holding every vendored tarball. */
export async function startVendoredRegistry(): Promise<TestRegistry> {
  const registry = await startRegistry();
  for (const tarball of vendoredTarballs()) {
    // A tarball as published: its own scripts do not run; provenance needs a CI identity this test has not.
    await runNpm(["publish", tarball, "--provenance=false", "--loglevel=warn", "--registry", registry.url], TARBALLS, {
      ...registry.env,
      npm_config_cache: join(registry.env.npm_config_cache!, "..", "publish-cache"),
    });
  }
  return registry;
}
