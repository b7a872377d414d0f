/**
 * Fetches an npm package into a staging folder with the machine's npm (or the `npmCommand` setting, as
 * in pi). npm installs it as a dependency of a throwaway project with the nested strategy, so the
 * package folder holds its own `node_modules` and can be moved out whole; its install scripts run as
 * they would for any dependency, and a failing one fails the install. Peer dependencies are not
 * fetched: the host provides pi-host, pi's packages and TypeBox to plugins and extensions itself.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { NpmSource } from "pi-host";
import { runCommand, type Spawner } from "./run-command.js";

/** How to run npm: argv prefix, e.g. ["npm"] or ["mise", "exec", "node@20", "--", "npm"]. */
export type NpmCommand = string[];

/** The flags every install uses: no audit or funding chatter, no peer fetching, no dev dependencies. */
const INSTALL_FLAGS = ["--omit=dev", "--legacy-peer-deps", "--no-audit", "--no-fund", "--no-update-notifier"];

/** A package staged by npm: where its folder is and the version npm chose. */
export interface StagedNpmPackage {
  dir: string;
  version: string;
}

/** Runs npm for the package manager. */
export class NpmRunner {
  constructor(
    private readonly spawn: Spawner,
    private readonly command: NpmCommand,
  ) {}

  /** Installs `name@spec` into `stagingDir`; resolves with the package's folder there. */
  async stage(
    source: NpmSource,
    spec: string | undefined,
    stagingDir: string,
    signal?: AbortSignal,
  ): Promise<StagedNpmPackage> {
    await writeFile(
      join(stagingDir, "package.json"),
      `${JSON.stringify({ name: "pi-package-staging", private: true })}\n`,
    );
    const target = spec === undefined ? source.name : `${source.name}@${spec}`;
    await this.run(
      ["install", target, "--prefix", stagingDir, "--install-strategy=nested", ...INSTALL_FLAGS],
      stagingDir,
      `npm install ${target}`,
      signal,
    );
    const dir = join(stagingDir, "node_modules", ...source.name.split("/"));
    const version = await packageVersion(dir);
    if (version === undefined)
      throw new Error(`npm installed ${target} but ${join(dir, "package.json")} has no version`);
    return { dir, version };
  }

  /** Installs a cloned repository's own dependencies in place (git packages). */
  async installDependencies(dir: string, signal?: AbortSignal): Promise<void> {
    await this.run(
      ["install", "--no-package-lock", ...INSTALL_FLAGS],
      dir,
      "npm install (the package's dependencies)",
      signal,
    );
  }

  /** The version the registry's `latest` tag points at. */
  async latestVersion(name: string, cwd: string, signal?: AbortSignal): Promise<string> {
    const { stdout } = await this.run(["view", `${name}@latest`, "version", "--json"], cwd, `npm view ${name}`, signal);
    const parsed = JSON.parse(stdout.trim() || "null") as unknown;
    const version = Array.isArray(parsed) ? parsed[parsed.length - 1] : parsed;
    if (typeof version !== "string") throw new Error(`npm view ${name} gave no version; is the package published?`);
    return version;
  }

  private run(args: string[], cwd: string, label: string, signal?: AbortSignal) {
    const [command, ...prefix] = this.command;
    return runCommand(this.spawn, command!, [...prefix, ...args], { cwd, signal, label });
  }
}

/** The `version` of the package.json in `dir`, if any. */
export async function packageVersion(dir: string): Promise<string | undefined> {
  try {
    const data = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as { version?: unknown };
    return typeof data.version === "string" ? data.version : undefined;
  } catch {
    return undefined;
  }
}
