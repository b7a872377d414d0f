/**
 * The `pi` command. It parses flags, answers `--version` and `--help` before loading anything, and
 * otherwise composes a kernel from the distribution: `pi plugins` lists it, `pi trust` saves project trust,
 * `--list-models` lists the catalog, and everything else is a run of the agent in a mode plugin.
 */
import { fileURLToPath } from "node:url";
import { exportFlagValue } from "./cli-export-flag.js";
import { splitExtensionFlags } from "./cli-extension-flags.js";
import { helpText, parseCliArgs, UsageError, type CliArgs } from "./cli-flags.js";
import { maybeSubcommand } from "./cli-subcommand-word.js";

declare const __PI_VERSION__: string;

/** Exit codes: 0 success, 1 the run failed, 2 bad input (flags, plugins.json). */
const EXIT_FAILURE = 1;
const EXIT_BAD_INPUT = 2;

/** Words that are commands when they come first and no mode was asked for; otherwise they are messages. */
const COMMANDS = new Set(["plugins"]);

/**
 * pi's auth subcommand. The same word is the default auth plugin's id, which a host must not name;
 * the host reaches that plugin only through its contracts (hosts/auth-cli.ts), so the word is matched here.
 */
const AUTH_WORD = /^auth$/;

/** `pi install/remove/uninstall/update/list`: package commands with their own flags (hosts/packages-cli.ts). */
const PACKAGE_COMMANDS = new Set(["install", "remove", "uninstall", "update", "list"]);

async function main(input: string[]): Promise<number> {
  const argv = applyOffline(input);
  if (argv[0] === "plugin") {
    const [{ runPluginCommand }, { agentDir }] = await Promise.all([import("./plugin-cli.js"), import("./paths.js")]);
    return runPluginCommand(argv.slice(1), {
      agentDir: agentDir(),
      cwd: process.cwd(),
      packageRoot: fileURLToPath(new URL("../", import.meta.url)),
      defaultFile: fileURLToPath(new URL("../plugins.json", import.meta.url)),
      builtinDir: fileURLToPath(new URL("./plugins/", import.meta.url)),
      apiModule: fileURLToPath(new URL("./api.js", import.meta.url)),
    });
  }
  if (argv[0] !== undefined && PACKAGE_COMMANDS.has(argv[0])) {
    const [{ runPackageCommand }, { agentDir }] = await Promise.all([
      import("./packages-cli.js"),
      import("./paths.js"),
    ]);
    return runPackageCommand(argv, {
      agentDir: agentDir(),
      cwd: process.cwd(),
      packageRoot: fileURLToPath(new URL("../", import.meta.url)),
      builtinDir: fileURLToPath(new URL("./plugins/", import.meta.url)),
      defaultFile: fileURLToPath(new URL("../plugins.json", import.meta.url)),
    });
  }
  if (argv[0] !== undefined && AUTH_WORD.test(argv[0])) return runAuth(argv.slice(1));
  if (argv[0] === "session" && (argv[1] === "export" || argv[1] === "import")) {
    const [{ runSessionCommand }, { agentDir }] = await Promise.all([import("./session-cli.js"), import("./paths.js")]);
    return runSessionCommand(argv.slice(1), {
      agentDir: agentDir(),
      cwd: process.cwd(),
      paths: {
        defaultFile: fileURLToPath(new URL("../plugins.json", import.meta.url)),
        builtinDir: fileURLToPath(new URL("./plugins/", import.meta.url)),
      },
    });
  }
  if (
    argv[0] === "trust" &&
    !argv.some((a) => a === "-p" || a === "--print" || a === "--mode" || a.startsWith("--mode="))
  ) {
    const [{ runTrustCommand }, { agentDir }] = await Promise.all([import("./trust-cli.js"), import("./paths.js")]);
    return runTrustCommand(argv.slice(1), {
      agentDir: agentDir(),
      cwd: process.cwd(),
      stdout: process.stdout,
      stderr: process.stderr,
    });
  }
  // A word a plugin provides as a subcommand (`pi mcp login <server>`); any other word is a prompt.
  if (maybeSubcommand(argv) && !COMMANDS.has(argv[0]!)) {
    const [{ runContributedCommand }, { agentDir }] = await Promise.all([
      import("./cli-subcommand.js"),
      import("./paths.js"),
    ]);
    const paths = {
      defaultFile: fileURLToPath(new URL("../plugins.json", import.meta.url)),
      builtinDir: fileURLToPath(new URL("./plugins/", import.meta.url)),
    };
    const code = await runContributedCommand(argv, { agentDir: agentDir(), cwd: process.cwd(), paths });
    if (code !== undefined) return code;
  }
  let args: CliArgs;
  let unclaimed: string[] = [];
  try {
    const split = splitExtensionFlags(argv);
    unclaimed = Object.keys(split.flags);
    args = Object.assign(parseCliArgs(split.argv), { extensionFlags: split.flags });
  } catch (error) {
    if (error instanceof UsageError) return fail(error.message, EXIT_BAD_INPUT);
    throw error;
  }
  if (args.version) {
    process.stdout.write(`${__PI_VERSION__}\n`);
    return 0;
  }
  if (args.help) {
    process.stdout.write(helpText());
    return 0;
  }
  const exportInput = exportFlagValue(argv);
  if (exportInput !== undefined && unclaimed.length > 0)
    return fail(`unknown flag --${unclaimed[0]}; run "pi --help" for the options`, EXIT_BAD_INPUT);
  if (exportInput !== undefined) {
    const { runExport } = await import("./cli-export.js");
    return runExport(exportInput, args.positionals[0], process.cwd());
  }
  const { agentDir } = await import("./paths.js");
  const agent = agentDir();
  const cwd = process.cwd();
  const paths = {
    defaultFile: fileURLToPath(new URL("../plugins.json", import.meta.url)),
    builtinDir: fileURLToPath(new URL("./plugins/", import.meta.url)),
  };
  const [first] = args.positionals;
  const command =
    first !== undefined && COMMANDS.has(first) && argv[0] === first && !args.print && args.mode === undefined
      ? first
      : undefined;

  // Flags set aside for extensions mean something only to a run of the agent, where extensions load.
  if (unclaimed.length > 0 && (command !== undefined || args.listModels !== undefined))
    return fail(`unknown flag --${unclaimed[0]}; run "pi --help" for the options`, EXIT_BAD_INPUT);
  if (args.approve && args.noApprove)
    return fail(`--approve and --no-approve cannot be combined; choose one`, EXIT_BAD_INPUT);
  if (args.apiKey === "") return fail(`--api-key is empty; give the key`, EXIT_BAD_INPUT);
  if (args.provider === "") return fail(`--provider is empty; give a provider name such as anthropic`, EXIT_BAD_INPUT);
  if (args.listModels !== undefined) {
    if (args.positionals.length > 0)
      return fail(
        `--list-models takes one search term; remove "${args.positionals[0]}" or quote the search`,
        EXIT_BAD_INPUT,
      );
    return listModels(args, agent, cwd, paths);
  }
  if (command === "plugins") return listPlugins(args, agent, cwd, paths);

  const { runAgentCommand, chooseMode } = await import("./cli-run.js");
  // Only the interactive mode can ask about project trust; every other mode decides without asking.
  const askTrust = chooseMode(args, process.stdin.isTTY === true, process.stdout.isTTY === true) === "interactive";
  try {
    return await runAgentCommand({ ...args, askTrust }, { agentDir: agent, cwd, paths, env: process.env });
  } catch (error) {
    if (error instanceof UsageError) return fail(error.message, EXIT_BAD_INPUT);
    throw error;
  }
}

type Paths = import("./cli-compose.js").PackagePaths;

/** `pi auth ...`: sign-in, sign-out and credential printing (hosts/auth-cli.ts). */
async function runAuth(args: string[]): Promise<number> {
  const [{ runAuthCommand }, { processTerminal }, { agentDir }] = await Promise.all([
    import("./auth-cli.js"),
    import("./auth-login.js"),
    import("./paths.js"),
  ]);
  const paths = {
    defaultFile: fileURLToPath(new URL("../plugins.json", import.meta.url)),
    builtinDir: fileURLToPath(new URL("./plugins/", import.meta.url)),
  };
  return runAuthCommand(args, { agentDir: agentDir(), cwd: process.cwd(), paths, terminal: processTerminal() });
}

/** `pi --list-models [search]`: `--api-key` reaches the auth plugin so the key column shows it. */
async function listModels(args: CliArgs, agent: string, cwd: string, paths: Paths): Promise<number> {
  const { composeForCli } = await import("./cli-compose.js");
  const runFlags = {
    ...(args.apiKey !== undefined && { apiKey: args.apiKey }),
    ...(args.provider !== undefined && { provider: args.provider }),
  };
  const composed = await composeForCli(args, runFlags, { agentDir: agent, cwd, paths });
  if (typeof composed === "number") return composed;
  const { listModels: list } = await import("./list-models.js");
  const outcome = await list(composed.kernel, args.listModels === true ? undefined : args.listModels, args.provider);
  await composed.kernel.shutdown();
  if (!outcome.ok) return fail(outcome.message, outcome.badInput ? EXIT_BAD_INPUT : EXIT_FAILURE);
  process.stdout.write(outcome.text);
  return 0;
}

/** `pi plugins [--json]`: the distribution as the kernel booted it. */
async function listPlugins(args: CliArgs, agent: string, cwd: string, paths: Paths): Promise<number> {
  const { composeForCli } = await import("./cli-compose.js");
  const composed = await composeForCli(args, {}, { agentDir: agent, cwd, paths });
  if (typeof composed === "number") return composed;
  const { kernel, boot } = composed;
  // The host's own plugin is not part of any distribution (no plugins.json can change it), so it is not listed.
  const { HOST_PLUGIN_ID } = await import("./host-plugin.js");
  const plugins = kernel.describe().plugins.filter((p) => p.id !== HOST_PLUGIN_ID);
  if (args.json) {
    // Fields without a value print as null, so JSON readers see every key.
    process.stdout.write(
      `${JSON.stringify(plugins, (_key, value: unknown) => (value === undefined ? null : value), 2)}\n`,
    );
  } else {
    process.stdout.write(formatTable(plugins));
  }
  await kernel.shutdown();
  return boot.ok ? 0 : EXIT_FAILURE;
}

type Described = import("./kernel-report.js").PluginDescription;

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
  return `${rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")).join("\n")}\n`;
}

/**
 * pi's `--offline`: PI_OFFLINE=1 (and PI_SKIP_VERSION_CHECK=1) for the whole process, so every part of
 * it and every child (extensions, their commands) sees it. Commands with flags of their own (pi update,
 * pi install, pi auth ...) get their arguments without it, as in pi; an agent run keeps it for the parser.
 */
function applyOffline(argv: string[]): string[] {
  const value = process.env.PI_OFFLINE?.trim().toLowerCase();
  const offline = argv.includes("--offline") || (value !== undefined && ["1", "true", "yes"].includes(value));
  if (!offline) return argv;
  process.env.PI_OFFLINE = "1";
  process.env.PI_SKIP_VERSION_CHECK = "1";
  const word = argv[0];
  const commandWithOwnFlags =
    word !== undefined &&
    (PACKAGE_COMMANDS.has(word) || AUTH_WORD.test(word) || word === "plugin" || word === "session");
  return commandWithOwnFlags ? argv.filter((arg) => arg !== "--offline") : argv;
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
