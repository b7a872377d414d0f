#!/usr/bin/env node
/**
 * The `pi` command. It parses flags, answers `--version` and `--help` before loading anything, and
 * otherwise composes a kernel from the distribution. Everything it runs is a plugin.
 */
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

declare const __PI_VERSION__: string;

const HELP = `pi — a terminal coding agent built as a plugin host

Usage:
  pi [options] <command>

Commands:
  plugins [--json]        List the distribution's plugins: id, version, status, generation,
                          provided contracts and source
  trust [dir]             Trust a project folder (default: the current one) so its
                          .pi/plugins.json applies

Options:
  --plugin [id=]<use>     Add or replace a plugin for this run; <use> is a built-in name,
                          a path, npm:<pkg> or git:<url> (repeatable)
  --no-plugin <id>        Disable a plugin for this run (repeatable)
  --distribution <file>   Overlay a plugins.json on the distribution; a file with
                          "extends": "none" replaces it (repeatable)
  -v, --version           Print the version and exit
  -h, --help              Print this help and exit

Distribution layers, later wins, merged by plugin id:
  the package's plugins.json < ~/.pi/agent/plugins.json < trusted .pi/plugins.json
  < --distribution < --plugin / --no-plugin
Environment:
  PI_CODING_AGENT_DIR     Agent folder (default ~/.pi/agent)
`;

/** Exit codes: 0 success, 1 the run failed, 2 bad input (flags, plugins.json). */
const EXIT_FAILURE = 1;
const EXIT_BAD_INPUT = 2;

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        plugin: { type: "string", multiple: true },
        "no-plugin": { type: "string", multiple: true },
        distribution: { type: "string", multiple: true },
        json: { type: "boolean" },
        version: { type: "boolean", short: "v" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    const first = (error as Error).message.split(/\.\s/)[0];
    return fail(`${first}; run "pi --help" for the options`, EXIT_BAD_INPUT);
  }
  const { values, positionals } = parsed;
  if (values.version) {
    process.stdout.write(`${__PI_VERSION__}\n`);
    return 0;
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const [command, ...rest] = positionals;
  const { agentDir } = await import("./paths.js");
  const agent = agentDir();
  const cwd = process.cwd();

  if (command === "trust") {
    const { trustProject } = await import("./trust.js");
    const { resolve } = await import("node:path");
    const dir = resolve(cwd, rest[0] ?? ".");
    await trustProject(agent, dir);
    process.stdout.write(`trusted ${dir}: its .pi/plugins.json now applies\n`);
    return 0;
  }
  if (command !== "plugins") {
    return fail(command === undefined ? `no command given; run "pi --help"` : `unknown command "${command}"; run "pi --help"`, EXIT_BAD_INPUT);
  }

  const { composeKernel, resolveDistribution } = await import("./compose.js");
  const { DistributionError } = await import("./distribution.js");
  const builtinDir = fileURLToPath(new URL("./plugins/", import.meta.url));
  let composed;
  try {
    const distribution = await resolveDistribution({
      cwd,
      agentDir: agent,
      defaultFile: fileURLToPath(new URL("../plugins.json", import.meta.url)),
      builtinDir,
      distributionFiles: values.distribution,
      pluginFlags: values.plugin,
      noPluginFlags: values["no-plugin"],
    });
    for (const notice of distribution.notices) process.stderr.write(`pi: ${notice}\n`);
    composed = await composeKernel(distribution, builtinDir);
  } catch (error) {
    if (error instanceof DistributionError) return fail(error.message, EXIT_BAD_INPUT);
    throw error;
  }
  const { kernel, boot, configErrors } = composed;
  if (configErrors.length > 0) {
    for (const line of configErrors) process.stderr.write(`pi: ${line}\n`);
    return EXIT_BAD_INPUT;
  }
  const { formatLifecycleError } = await import("../kernel/index.js");
  for (const error of boot.errors) process.stderr.write(`pi: ${formatLifecycleError(error)}\n`);
  const plugins = kernel.describe().plugins;
  if (values.json) {
    // Fields without a value print as null, so JSON readers see every key.
    process.stdout.write(`${JSON.stringify(plugins, (_key, value: unknown) => (value === undefined ? null : value), 2)}\n`);
  } else {
    process.stdout.write(formatTable(plugins));
  }
  await kernel.shutdown();
  return boot.ok ? 0 : EXIT_FAILURE;
}

type Described = Awaited<ReturnType<import("../kernel/index.js").Kernel["describe"]>>["plugins"][number];

/** A plain aligned table for humans. */
function formatTable(plugins: Described[]): string {
  if (plugins.length === 0) return "no plugins in the distribution\n";
  const rows = [
    ["ID", "VERSION", "STATUS", "GEN", "PROVIDES", "SOURCE"],
    ...plugins.map((p) => [
      p.id,
      p.version ?? "-",
      p.status,
      p.generation === undefined ? "-" : String(p.generation),
      p.provides.map((c) => `${c.contract}@${c.version}`).join(",") || "-",
      p.source,
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")).join("\n") + "\n";
}

function fail(message: string, code: number): number {
  process.stderr.write(`pi: ${message}\n`);
  return code;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`pi: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = EXIT_FAILURE;
  },
);
