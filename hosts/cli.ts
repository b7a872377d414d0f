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
  pi --list-models [search] [--provider <name>] [--api-key <key>]

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
  --list-models [search]  List the models (built-in and models.json) with context, output
                          limit, thinking, images and where the API key comes from;
                          with a search, only models matching every word
  --provider <name>       Provider, such as anthropic, openai or google (--list-models:
                          only its models)
  --api-key <key>         API key, overriding auth.json and environment variables
                          (for --provider's models when given, else for any)
  -v, --version           Print the version and exit
  -h, --help              Print this help and exit

Distribution layers, later wins, merged by plugin id:
  the package's plugins.json < ~/.pi/agent/plugins.json < trusted .pi/plugins.json
  < --distribution < --plugin / --no-plugin
Environment:
  PI_CODING_AGENT_DIR     Agent folder (default ~/.pi/agent): plugins.json, models.json,
                          auth.json
  ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, ...   API keys
`;

/** Exit codes: 0 success, 1 the run failed, 2 bad input (flags, plugins.json). */
const EXIT_FAILURE = 1;
const EXIT_BAD_INPUT = 2;

async function main(argv: string[]): Promise<number> {
  const { listModels, rest: args } = takeListModels(argv);
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        plugin: { type: "string", multiple: true },
        "no-plugin": { type: "string", multiple: true },
        distribution: { type: "string", multiple: true },
        provider: { type: "string" },
        "api-key": { type: "string" },
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
  if (values["api-key"] === "") return fail(`--api-key is empty; give the key`, EXIT_BAD_INPUT);
  if (values.provider === "") return fail(`--provider is empty; give a provider name such as anthropic`, EXIT_BAD_INPUT);
  if (listModels !== undefined) {
    if (command !== undefined) return fail(`--list-models takes one search term; remove "${command}" or quote the search`, EXIT_BAD_INPUT);
  } else if (command !== "plugins") {
    return fail(command === undefined ? `no command given; run "pi --help"` : `unknown command "${command}"; run "pi --help"`, EXIT_BAD_INPUT);
  }

  const composed = await compose(values, agent, cwd);
  if (typeof composed === "number") return composed;
  const { kernel, boot } = composed;
  if (listModels !== undefined) {
    const { listModels: list } = await import("./list-models.js");
    const outcome = await list(kernel, listModels === true ? undefined : listModels, values.provider);
    await kernel.shutdown();
    if (!outcome.ok) return fail(outcome.message, outcome.badInput ? EXIT_BAD_INPUT : EXIT_FAILURE);
    process.stdout.write(outcome.text);
    return 0;
  }
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

/** The flags that decide which distribution runs and how its plugins are configured. */
interface CompositionFlags {
  plugin?: string[];
  "no-plugin"?: string[];
  distribution?: string[];
  provider?: string;
  "api-key"?: string;
}

/**
 * Reads the distribution and boots it. Returns the exit code instead when the input is bad (a broken
 * plugins.json or plugin config), after printing one line per problem. Flags that configure a plugin
 * (`--api-key` → the auth plugin) go in as the last distribution layer.
 */
async function compose(values: CompositionFlags, agent: string, cwd: string): Promise<import("./compose.js").ComposedKernel | number> {
  const { composeKernel, resolveDistribution } = await import("./compose.js");
  const { DistributionError } = await import("./distribution.js");
  const builtinDir = fileURLToPath(new URL("./plugins/", import.meta.url));
  const { "api-key": apiKey, provider } = values;
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
      configOverrides: apiKey === undefined ? [] : [{ id: "auth", flag: "--api-key", config: { apiKey, ...(provider !== undefined ? { apiKeyProvider: provider } : {}) } }],
    });
    for (const notice of distribution.notices) process.stderr.write(`pi: ${notice}\n`);
    composed = await composeKernel(distribution, builtinDir);
  } catch (error) {
    if (error instanceof DistributionError) return fail(error.message, EXIT_BAD_INPUT);
    throw error;
  }
  if (composed.configErrors.length > 0) {
    for (const line of composed.configErrors) process.stderr.write(`pi: ${line}\n`);
    await composed.kernel.shutdown();
    return EXIT_BAD_INPUT;
  }
  const { formatLifecycleError } = await import("../kernel/index.js");
  for (const error of composed.boot.errors) process.stderr.write(`pi: ${formatLifecycleError(error)}\n`);
  return composed;
}

/**
 * Takes `--list-models [search]` out of the arguments, as pi parses it: the next argument is the search
 * unless it looks like a flag or an @file. (node's parseArgs has no optional-value options.)
 */
function takeListModels(argv: string[]): { listModels: string | true | undefined; rest: string[] } {
  const rest: string[] = [];
  let listModels: string | true | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      rest.push(...argv.slice(i));
      break;
    }
    if (arg.startsWith("--list-models=")) {
      listModels = arg.slice("--list-models=".length) || true;
    } else if (arg === "--list-models") {
      const next = argv[i + 1];
      listModels = next !== undefined && !next.startsWith("-") && !next.startsWith("@") ? (i++, next) : true;
    } else {
      rest.push(arg);
    }
  }
  return { listModels, rest };
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
