/**
 * `pi update` for pi itself, as pi 1.6.0 does it: ask for the newest release, say "already up to date"
 * when this is it, else run an update command and say "Updated pi from A to B". The newest release comes
 * from the npm registry through npm (`npm view <name>@latest version --json`, the global `npmCommand`
 * setting if set), so npm's own registry settings (NPM_CONFIG_REGISTRY, .npmrc) point it elsewhere and a
 * test points it at a stand-in. The install step is `PI_SELF_UPDATE_COMMAND` or the `selfUpdateCommand`
 * setting when given ({packageName}, {version}, {installSpec} filled in), else `npm install --global` when
 * this copy sits in a global npm folder; any other installation (a source checkout, a wrapper) is told
 * what to run instead. Offline mode refuses with one line, as the registry cannot be asked.
 */
import { spawn, spawnSync } from "node:child_process";
import { accessSync, constants, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** pi's name for itself in messages. */
const APP_NAME = "pi";

/** How long asking the registry may take. */
const VIEW_TIMEOUT_MS = 30_000;

/** Where this copy of pi-host is and what the user configured. */
export interface SelfUpdatePlace {
  /** The package folder (the one with package.json). */
  packageRoot: string;
  agentDir: string;
  /** `--force`: reinstall even when this is the newest version. */
  force: boolean;
  env?: NodeJS.ProcessEnv;
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
}

/** One command to run, and how to show it. */
interface Step {
  argv: string[];
  display: string;
}

/** Updates pi itself; resolves with the exit code after printing pi's lines. */
export async function updateSelf(place: SelfUpdatePlace): Promise<number> {
  const env = place.env ?? process.env;
  const out = place.stdout ?? ((text) => void process.stdout.write(text));
  const err = place.stderr ?? ((text) => void process.stderr.write(text));
  const own = readOwnPackage(place.packageRoot);
  let settings: ReturnType<typeof readGlobalSettings>;
  try {
    settings = readGlobalSettings(place.agentDir);
  } catch (error) {
    err(`Error: ${(error as Error).message}\n`);
    return 1;
  }
  const npm = settings.npmCommand ?? ["npm"];
  if (["1", "true", "yes"].includes(env.PI_OFFLINE?.trim().toLowerCase() ?? "")) {
    err(`Error: Could not determine latest ${APP_NAME} version: offline mode is on (--offline or PI_OFFLINE)\n`);
    return 1;
  }
  let latest: string;
  try {
    latest = await latestVersion(npm, own.name, env);
  } catch (error) {
    err(`Error: Could not determine latest ${APP_NAME} version: ${(error as Error).message}\n`);
    return 1;
  }
  const { gt, valid } = (await import("semver")).default;
  const newer =
    valid(latest) !== null && valid(own.version) !== null ? gt(latest, own.version) : latest !== own.version;
  if (!newer && !place.force) {
    out(`${APP_NAME} is already up to date (v${own.version})\n`);
    return 0;
  }
  const installSpec = `${own.name}@${latest}`;
  const configured = configuredCommand(env, settings.selfUpdateCommand);
  let step: Step | undefined;
  if (configured !== undefined) {
    const values: Record<string, string> = { packageName: own.name, version: latest, installSpec };
    step = makeStep(configured.map((a) => a.replace(/\{(packageName|version|installSpec)\}/g, (_, k) => values[k]!)));
  } else {
    const prefix = globalNpmPrefix(place.packageRoot);
    if (prefix !== undefined) {
      const prefixArgs = settings.npmCommand === undefined ? ["--prefix", prefix] : [];
      step = makeStep([...npm, "install", "--global", ...prefixArgs, installSpec]);
    }
  }
  if (step === undefined) {
    err(`error: ${APP_NAME} cannot self-update this installation.\n`);
    err(
      `Update ${installSpec} using the package manager, wrapper, or source checkout that provides this installation.\n`,
    );
    err(
      `To make \`${APP_NAME} update\` run your own update command, set PI_SELF_UPDATE_COMMAND or the selfUpdateCommand setting.\n`,
    );
    if (process.argv[1] !== undefined) err(`\nLocation of ${APP_NAME} executable: ${process.argv[1]}\n`);
    return 1;
  }
  out(`Updating ${APP_NAME} with ${step.display}...\n`);
  try {
    await runStep(step, env);
  } catch (error) {
    err(`Error: ${(error as Error).message}\n`);
    err(`If this keeps failing, run this command yourself: ${step.display}\n`);
    return 1;
  }
  // Exit code 0 does not prove an update: a wrapper may install elsewhere. Look here, then on PATH.
  const installed = readOwnPackage(place.packageRoot).version;
  const reported = installed === latest ? installed : versionOnPath(env);
  if (configured !== undefined && reported !== latest) {
    out(`Ran ${step.display}, but \`${APP_NAME} --version\` reports ${reported ?? "no version"}, not ${latest}.\n`);
    return 0;
  }
  out(`Updated ${APP_NAME} from ${own.version} to ${latest}\n`);
  return 0;
}

/** The name and version in this copy's package.json. */
function readOwnPackage(root: string): { name: string; version: string } {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name?: unknown; version?: unknown };
  return { name: typeof pkg.name === "string" ? pkg.name : "pi-host", version: String(pkg.version ?? "0.0.0") };
}

/** The global settings this needs: `npmCommand` and `selfUpdateCommand`, each an argv array or absent. */
function readGlobalSettings(agentDir: string): { npmCommand?: string[]; selfUpdateCommand?: string[] } {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8")) as Record<string, unknown>;
  } catch {
    return {};
  }
  const argv = (key: string): string[] | undefined => {
    const value = data[key];
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === "string" && v !== ""))
      throw new Error(
        `the "${key}" setting must be a non-empty array of strings like ["npm"]; fix ${agentDir}/settings.json`,
      );
    return value as string[];
  };
  return { npmCommand: argv("npmCommand"), selfUpdateCommand: argv("selfUpdateCommand") };
}

/** PI_SELF_UPDATE_COMMAND split on spaces, else the `selfUpdateCommand` setting. */
function configuredCommand(env: NodeJS.ProcessEnv, setting: string[] | undefined): string[] | undefined {
  const fromEnv = env.PI_SELF_UPDATE_COMMAND?.trim().split(/\s+/).filter(Boolean);
  return fromEnv !== undefined && fromEnv.length > 0 ? fromEnv : setting;
}

/**
 * The npm prefix when this copy is a global npm install (`<prefix>/lib/node_modules/<name>`, scoped or
 * not) that this user may write; otherwise undefined.
 */
function globalNpmPrefix(packageRoot: string): string | undefined {
  let parent = dirname(packageRoot);
  if (basename(parent).startsWith("@")) parent = dirname(parent);
  if (basename(parent) !== "node_modules" || basename(dirname(parent)) !== "lib") return undefined;
  try {
    accessSync(parent, constants.W_OK);
  } catch {
    return undefined;
  }
  return dirname(dirname(parent));
}

/** The registry's newest version of `name`, through npm. */
async function latestVersion(npm: string[], name: string, env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await capture([...npm, "view", `${name}@latest`, "version", "--json"], env);
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch {
    value = stdout.trim();
  }
  if (Array.isArray(value)) value = value.at(-1);
  if (typeof value !== "string" || value.trim() === "") throw new Error(`npm printed no version for ${name}`);
  return value.trim();
}

/** Runs a command and collects its output; rejects with the first line npm gave as the reason. */
function capture(argv: string[], env: NodeJS.ProcessEnv): Promise<{ stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    const timer = setTimeout(() => child.kill("SIGTERM"), VIEW_TIMEOUT_MS);
    child.stdout.on("data", (d: Buffer) => void (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => void (stderr += d.toString()));
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${argv[0]} (${(error as NodeJS.ErrnoException).code ?? error.message})`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve({ stdout });
      const reason = stderr.split("\n").find((line) => /\b(E[A-Z0-9]+|error)\b/.test(line)) ?? stderr.split("\n")[0];
      reject(
        new Error(`${makeStep(argv).display} failed (${signal ?? `exit ${code}`}): ${reason?.trim() || "no output"}`),
      );
    });
  });
}

/** Runs one update step with the terminal attached, as pi does. */
function runStep(step: Step, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(step.argv[0]!, step.argv.slice(1), { env, stdio: "inherit" });
    child.on("error", (error) => reject(new Error(`cannot run ${step.argv[0]} (${error.message})`)));
    child.on("close", (code, signal) => {
      if (code === 0) resolve();
      else if (signal) reject(new Error(`${step.display} terminated by signal ${signal}`));
      else reject(new Error(`${step.display} exited with code ${code ?? "unknown"}`));
    });
  });
}

/** The version `pi --version` prints from PATH, the pi the user runs next. */
function versionOnPath(env: NodeJS.ProcessEnv): string | undefined {
  const result = spawnSync(APP_NAME, ["--version"], { encoding: "utf8", env, stdio: ["ignore", "pipe", "pipe"] });
  return result.status === 0 ? result.stdout.trim() || undefined : undefined;
}

function makeStep(argv: string[]): Step {
  return { argv, display: argv.map((a) => (/\s/.test(a) ? `"${a}"` : a)).join(" ") };
}
