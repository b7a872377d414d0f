/**
 * `pi plugin new <name> [--dir D]` and `pi plugin eject <id> [-l]`: the authoring commands. `new` starts
 * a plugin of your own; `eject` makes a built-in yours to edit (live, under `pi --watch`). Both write
 * files and exit; neither boots the agent. Bad input is one line and exit code 2.
 */
import { UsageError } from "./cli-flags.js";
import { DistributionError } from "./distribution.js";

const EXIT_FAILURE = 1;
const EXIT_BAD_INPUT = 2;

/** Where the command runs and where this installation's files are. */
export interface PluginCommandPlace {
  agentDir: string;
  cwd: string;
  /** The package root: `plugins/`, `contracts/` and `kernel/` sources, `plugins.json`. */
  packageRoot: string;
  /** The package's default plugins.json. */
  defaultFile: string;
  /** The compiled built-in plugins, `<name>/index.js`. */
  builtinDir: string;
  /** This installation's "pi-host" module file (dist/api.js), for the scaffold's test config. */
  apiModule: string;
}

/** A parsed `pi plugin` command line. */
type PluginCommand =
  | { name: "help" }
  | { name: "new"; pluginName: string; dir: string }
  | { name: "eject"; id: string; local: boolean };

/** Runs `pi plugin ...` (argv after the word "plugin"); resolves with the exit code. */
export async function runPluginCommand(argv: string[], place: PluginCommandPlace): Promise<number> {
  try {
    const command = parsePluginCommand(argv);
    if (command.name === "help") {
      process.stdout.write(USAGE);
      return 0;
    }
    if (command.name === "new") return await runNew(command.pluginName, command.dir, place);
    return await runEject(command.id, command.local, place);
  } catch (error) {
    if (error instanceof UsageError || error instanceof DistributionError) {
      process.stderr.write(`pi: ${error.message}\n`);
      return EXIT_BAD_INPUT;
    }
    // A file system refusal (a --dir that is a file, a read-only agent folder) is one line too.
    if (error instanceof Error && typeof (error as NodeJS.ErrnoException).code === "string") {
      process.stderr.write(`pi: ${error.message}\n`);
      return EXIT_FAILURE;
    }
    throw error;
  }
}

const USAGE = `Usage:
  pi plugin new <name> [--dir <folder>]   Create <folder>/<name>/ (default: ./<name>/): a tool plugin
                                          importing only "pi-host", its vitest test and a README
  pi plugin eject <id> [-l]               Copy the built-in plugin <id>'s source to ~/.pi/agent/plugins/<id>/
                                          (-l: .pi/plugins/<id>/ of this project) and point plugins.json
                                          at the copy; edit it live with pi --watch
`;

/** Reads the subcommand, its one positional and its flags; anything else is a UsageError. */
export function parsePluginCommand(argv: string[]): PluginCommand {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === "--help" || sub === "-h" || sub === "help") return { name: "help" };
  if (sub !== "new" && sub !== "eject")
    throw new UsageError(`unknown command "pi plugin ${sub}"; use "pi plugin new <name>" or "pi plugin eject <id>"`);
  const positionals: string[] = [];
  let dir: string | undefined;
  let local = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === "--help" || arg === "-h") return { name: "help" };
    if (sub === "new" && (arg === "--dir" || arg.startsWith("--dir="))) {
      const value = arg === "--dir" ? rest[++i] : arg.slice("--dir=".length);
      if (value === undefined || value === "")
        throw new UsageError(`--dir needs a folder: pi plugin new <name> --dir <folder>`);
      dir = value;
    } else if (sub === "eject" && (arg === "-l" || arg === "--local")) {
      local = true;
    } else if (arg.startsWith("-")) {
      throw new UsageError(
        `unknown flag ${arg} for "pi plugin ${sub}"; ${sub === "new" ? "it takes --dir <folder>" : "it takes -l"}`,
      );
    } else {
      positionals.push(arg);
    }
  }
  const what = sub === "new" ? "<name>" : "<id>";
  if (positionals.length !== 1)
    throw new UsageError(
      `pi plugin ${sub} takes one ${what}${positionals.length > 1 ? `, not ${positionals.length}` : ""}: pi plugin ${sub} ${what}`,
    );
  return sub === "new"
    ? { name: "new", pluginName: positionals[0]!, dir: dir ?? "." }
    : { name: "eject", id: positionals[0]!, local };
}

async function runNew(name: string, dir: string, place: PluginCommandPlace): Promise<number> {
  const { scaffoldPlugin } = await import("./plugin-scaffold.js");
  const made = await scaffoldPlugin({ name, parentDir: dir, cwd: place.cwd, apiModule: place.apiModule });
  const width = Math.max(...made.files.map((f) => f.path.length)) + 2;
  process.stdout.write(
    `Created ${made.dir}\n${made.files.map((f) => `  ${f.path.padEnd(width)}${f.purpose}`).join("\n")}\n\n` +
      `Run it:   pi --plugin ${made.dir} -p "..."   (add --watch to edit it while pi runs)\n` +
      `Test it:  cd ${made.dir} && npx vitest run\n`,
  );
  return 0;
}

async function runEject(id: string, local: boolean, place: PluginCommandPlace): Promise<number> {
  const { ejectPlugin } = await import("./plugin-eject.js");
  const outcome = await ejectPlugin({ id, local, ...place });
  const lines = [
    `Ejected ${outcome.builtin} to ${outcome.dest} (${outcome.files.length} files, copied unchanged)`,
    `${outcome.distributionFile}: "${id}" now uses ${outcome.use}`,
  ];
  if (outcome.dependencies !== undefined)
    lines.push(`Its npm imports resolve from ${outcome.dependencies} (node_modules link in the copy)`);
  lines.push(`Edit it while pi runs: pi --watch`);
  process.stdout.write(`${lines.join("\n")}\n`);
  for (const notice of outcome.notices) process.stderr.write(`pi: ${notice}\n`);
  return 0;
}
