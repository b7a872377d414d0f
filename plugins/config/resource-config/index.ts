/**
 * `pi config`, pi 1.6.0's resource switchboard: lists the extensions, skills, prompt templates and
 * themes found in pi's folders and switches each on or off by writing pi's `+path` / `-path` entries
 * into the `extensions`, `skills`, `prompts` and `themes` settings (the global file, or with `-l` / Tab the trusted
 * project's `.pi/settings.json`), through the settings contract. The loaders read the same entries
 * (kit/fs/resource-overrides.ts), so a switched-off resource stays out of the next run. In a terminal
 * it is an interactive list (screen.ts); without one it prints the list and exits 0.
 */
import { join } from "node:path";
import {
  agentDir,
  CliCommandContract,
  type CliCommandIo,
  definePlugin,
  HostEnvironmentContract,
  projectFilesApply,
  readHostEnvironment,
  readResourceOverrides,
  resourcePattern,
  SettingsContract,
  withSwitch,
} from "pi-host";
import { listResources, type ResourceItem } from "./catalog.js";
import { listPackageGroups, readPackageEntries, withPackageSwitch } from "./package-items.js";
import { listText, runScreen, type WriteScope } from "./screen.js";

const USAGE = "pi config [-l] [--approve|--no-approve]";

const HELP = `Usage:
  ${USAGE}

Open the resource configuration TUI to enable or disable package resources.
Without -l, starts in global settings (~/.pi/agent/settings.json).
Press Tab in the TUI to switch between global and project-local modes.

Options:
  -l, --local       Edit project overrides (.pi/settings.json)
  -a, --approve     Trust project-local files for this command with -l
  -na, --no-approve Ignore project-local files for this command with -l
`;

/** pi's project-mode cycle: from inherit to the opposite of what is inherited, then the other, then back. */
function nextProjectState(
  state: "load" | "unload" | "inherit",
  inheritedEnabled: boolean,
): "load" | "unload" | "inherit" {
  if (state === "inherit") return inheritedEnabled ? "unload" : "load";
  if (state === "unload") return inheritedEnabled ? "load" : "inherit";
  return inheritedEnabled ? "inherit" : "unload";
}

export default definePlugin({
  id: "resource-config",
  version: "1.0.0",
  description: "pi config: switch discovered extensions, skills, prompt templates and themes on or off in settings",
  provides: [CliCommandContract],
  // Settings are written through the settings plugin; without one `pi config` says so when run.
  requires: [
    { contract: SettingsContract, optional: true },
    { contract: HostEnvironmentContract, optional: true },
  ],
  setup(ctx) {
    const settings = ctx.use(SettingsContract);
    const host = ctx.use(HostEnvironmentContract);
    const run = async (args: string[], io: CliCommandIo): Promise<number> => {
      let local = false;
      let approve: boolean | undefined;
      for (const arg of args) {
        if (arg === "-h" || arg === "--help") {
          io.stdout(HELP);
          return 0;
        }
        if (arg === "-l" || arg === "--local") local = true;
        else if (arg === "-a" || arg === "--approve") approve = true;
        else if (arg === "-na" || arg === "--no-approve") approve = false;
        else {
          io.stderr(
            `${arg.startsWith("-") ? `Unknown option ${arg} for "config".` : `Unexpected argument ${arg}.`} Usage: ${USAGE}\n`,
          );
          return 2;
        }
      }
      if (!settings.available) {
        io.stderr("pi config needs the settings plugin to save switches; enable it in plugins.json\n");
        return 1;
      }
      const folder = agentDir(readHostEnvironment(host)?.agentDir ?? io.agentDir);
      const trusted = approve ?? (await projectFilesApply(host, io.cwd).catch(() => false));
      if (local && !trusted) {
        io.stderr("Project is not trusted. Use --approve to modify local resource config.\n");
        return 1;
      }
      const projectDir = join(io.cwd, ".pi");
      const file = (scope: WriteScope): string =>
        scope === "project" ? join(projectDir, "settings.json") : join(folder, "settings.json");
      const groups = async (scope: WriteScope) => {
        const overrides = await readResourceOverrides(folder, io.cwd, scope === "project");
        const own = await listResources(folder, scope === "project" ? projectDir : undefined, overrides);
        // pi lists packages first, then the folders' resources.
        return [...listPackageGroups(folder, scope === "project" ? projectDir : undefined), ...own];
      };
      const toggle = async (item: ResourceItem, scope: WriteScope): Promise<void> => {
        if (item.package !== undefined) {
          // A package's resource: pi's filter form in that package's entry, in the file that holds it.
          // From the project's settings, a global package is switched by a project delta entry.
          const where: WriteScope = item.package.scope === "project" || scope === "project" ? "project" : "global";
          const asDelta = where === "project" && item.package.scope === "user";
          const packages = withPackageSwitch(readPackageEntries(file(where)), item, !item.enabled, asDelta);
          return settings.api.set(io.cwd, "packages", packages, where);
        }
        const overrides = await readResourceOverrides(folder, io.cwd, true);
        if (scope === "global") {
          // The global settings: on and off (`+path` / `-path`, relative to the agent folder).
          const enabled = !item.enabled;
          const entries = withSwitch(
            overrides.user.entries[item.kind],
            resourcePattern(item.baseDir, item.path),
            enabled,
          );
          return settings.api.set(io.cwd, item.kind, entries, "global");
        }
        // The project's settings: pi's cycle through inherit, + and -; a user resource is named by its
        // absolute path there, a project one relative to `.pi`.
        const pattern = item.scope === "project" ? resourcePattern(item.baseDir, item.path) : item.path;
        let entries = overrides.project!.entries[item.kind];
        for (const name of new Set([pattern, item.path, resourcePattern(projectDir, item.path)]))
          entries = withSwitch(entries, name, undefined);
        const next = nextProjectState(item.projectState ?? "inherit", item.inherited);
        if (next !== "inherit") entries = withSwitch(entries, pattern, next === "load");
        return settings.api.set(io.cwd, item.kind, entries, "project");
      };
      const start: WriteScope = local ? "project" : "global";
      if (!process.stdin.isTTY || !process.stdout.isTTY) {
        const title = start === "project" ? "Project Local Resources" : "Global Resources";
        io.stdout(listText(await groups(start), title, file(start)));
        return 0;
      }
      await runScreen(
        { groups, toggle, file, projectAvailable: trusted },
        { input: process.stdin, write: (text) => io.stdout(text), rows: () => process.stdout.rows ?? 24 },
        start,
      );
      return 0;
    };
    ctx.provide(
      CliCommandContract,
      {
        name: "config",
        description: "Switch discovered extensions, skills, prompt templates and themes (pi config)",
        run,
      },
      { key: "config" },
    );
  },
});
