/**
 * How the CLI gets a running kernel: the distribution layers booted with the host environment carrying
 * the per-run flags (`--api-key`, `--model`, ...) for whichever plugin owns them; bad input is printed as
 * one line per problem and becomes exit code 2.
 */
import { AuthContract } from "../contracts/ai/index.js";
import type { HostFlags } from "../contracts/host-environment.js";
import type { Kernel } from "./host-kernel.js";
import { formatLifecycleError } from "./kernel-report.js";
import { checkConfigFiles } from "./config-check.js";
import { composeKernel, resolveDistribution, type ComposedKernel } from "./compose.js";
import { DistributionError } from "./distribution.js";

/** Where the package's own files are, relative to the running entry point. */
export interface PackagePaths {
  /** The package's default plugins.json. */
  defaultFile: string;
  /** The compiled built-in plugins, `<name>/index.js`. */
  builtinDir: string;
}

/** The flags that choose the distribution. */
export interface DistributionFlags {
  distributions: string[];
  plugins: string[];
  noPlugins: string[];
  /** `--approve`: treat an untrusted project as trusted for this run. */
  approve?: boolean;
  /** `--no-approve`: treat the project as untrusted for this run. */
  noApprove?: boolean;
  /** Whether the run may ask about project trust on the terminal (interactive mode). */
  askTrust?: boolean;
  /** Flags for pi extensions (cli-extension-flags.ts), handed on in the host environment. */
  extensionFlags?: Record<string, string | boolean>;
}

/** Exit code for bad input (flags, plugins.json, plugin config, settings.json, models.json, auth.json). */
export const EXIT_BAD_INPUT = 2;

/** What composeForCli checks besides the distribution. */
export interface ComposeChecks {
  /** Read settings.json, models.json and auth.json after boot; a broken one is bad input (exit 2). */
  configFiles?: boolean;
  /** Print no notices or boot errors (a probe whose run may not happen: the real run prints them). */
  quiet?: boolean;
}

/**
 * Boots the distribution, or prints why not and returns the exit code. Boot errors of single plugins are
 * printed, not fatal. With `checks.configFiles`, a broken user config file is reported once (a notice
 * about the same file is dropped) and returns exit code 2.
 */
export async function composeForCli(
  flags: DistributionFlags,
  runFlags: HostFlags,
  where: { agentDir: string; cwd: string; paths: PackagePaths },
  checks: ComposeChecks = {},
): Promise<ComposedKernel | number> {
  let composed: ComposedKernel;
  let notices: string[];
  try {
    const distribution = await resolveDistribution({
      cwd: where.cwd,
      agentDir: where.agentDir,
      defaultFile: where.paths.defaultFile,
      builtinDir: where.paths.builtinDir,
      distributionFiles: flags.distributions,
      pluginFlags: flags.plugins,
      noPluginFlags: flags.noPlugins,
      flags: withExtensionFlags(runFlags, flags.extensionFlags),
      approveProject: flags.approve === true,
      noApproveProject: flags.noApprove === true,
      ...(flags.askTrust === true && { askProjectTrust: (await import("./trust-prompt.js")).askOnTerminal }),
    });
    notices = distribution.notices;
    if (checks.configFiles !== true && checks.quiet !== true) printNotices(notices);
    composed = await composeKernel(distribution, where.paths.builtinDir);
  } catch (error) {
    if (error instanceof DistributionError) {
      if (checks.quiet !== true) process.stderr.write(`pi: ${error.message}\n`);
      return EXIT_BAD_INPUT;
    }
    throw error;
  }
  if (composed.configErrors.length > 0) {
    if (checks.configFiles === true) printNotices(notices);
    if (checks.quiet !== true) for (const line of composed.configErrors) process.stderr.write(`pi: ${line}\n`);
    await composed.kernel.shutdown();
    return EXIT_BAD_INPUT;
  }
  if (checks.configFiles === true) {
    const problems = await checkConfigFiles(composed.kernel, where.cwd);
    // The distribution's notice about a file (e.g. "settings.json: not valid JSON; its packages are not
    // loaded") says the same as the file's problem line: the user sees each broken file once.
    const reported = problems.map((p) => p.file).filter((f): f is string => f !== undefined);
    printNotices(notices.filter((notice) => !reported.some((file) => notice.startsWith(`${file}: `))));
    if (problems.length > 0) {
      for (const problem of problems) process.stderr.write(`pi: ${problem.message}\n`);
      await composed.kernel.shutdown();
      return EXIT_BAD_INPUT;
    }
  }
  if (checks.quiet === true) return composed;
  for (const error of composed.boot.errors) process.stderr.write(`pi: ${formatLifecycleError(error)}\n`);
  printNotices(unusedFlagNotices(composed.kernel, runFlags));
  return composed;
}

/** Flags no running plugin can take: `--api-key` without a key store says so rather than being silently dropped. */
function unusedFlagNotices(kernel: Kernel, runFlags: HostFlags): string[] {
  if (runFlags.apiKey !== undefined && !kernel.use(AuthContract).available)
    return [`--api-key has no effect: no enabled plugin provides "${AuthContract.id}"`];
  return [];
}

function printNotices(notices: string[]): void {
  for (const notice of notices) process.stderr.write(`pi: ${notice}\n`);
}

/** The run's flags with the extension flags of the command line, when there are any. */
function withExtensionFlags(
  runFlags: HostFlags,
  extensionFlags: Record<string, string | boolean> | undefined,
): HostFlags {
  return extensionFlags === undefined || Object.keys(extensionFlags).length === 0
    ? runFlags
    : { ...runFlags, extensionFlags };
}
