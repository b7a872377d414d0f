/**
 * How the CLI gets a running kernel: the distribution layers plus the command line's own layer (flags
 * that configure a plugin, e.g. `--api-key` → auth, `--model` → agent-session), booted; bad input is
 * printed as one line per problem and becomes exit code 2.
 */
import { formatLifecycleError } from "../kernel/index.js";
import { composeKernel, resolveDistribution, type ComposedKernel, type ConfigOverride } from "./compose.js";
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
}

/** Exit code for bad input (flags, plugins.json, plugin config). */
export const EXIT_BAD_INPUT = 2;

/** Boots the distribution, or prints why not and returns the exit code. Boot errors of single plugins are printed, not fatal. */
export async function composeForCli(
  flags: DistributionFlags,
  overrides: ConfigOverride[],
  where: { agentDir: string; cwd: string; paths: PackagePaths },
): Promise<ComposedKernel | number> {
  let composed: ComposedKernel;
  try {
    const distribution = await resolveDistribution({
      cwd: where.cwd,
      agentDir: where.agentDir,
      defaultFile: where.paths.defaultFile,
      builtinDir: where.paths.builtinDir,
      distributionFiles: flags.distributions,
      pluginFlags: flags.plugins,
      noPluginFlags: flags.noPlugins,
      configOverrides: overrides,
      approveProject: flags.approve === true,
      noApproveProject: flags.noApprove === true,
      ...(flags.askTrust === true && { askProjectTrust: (await import("./trust-prompt.js")).askOnTerminal }),
    });
    for (const notice of distribution.notices) process.stderr.write(`pi: ${notice}\n`);
    composed = await composeKernel(distribution, where.paths.builtinDir);
  } catch (error) {
    if (error instanceof DistributionError) {
      process.stderr.write(`pi: ${error.message}\n`);
      return EXIT_BAD_INPUT;
    }
    throw error;
  }
  if (composed.configErrors.length > 0) {
    for (const line of composed.configErrors) process.stderr.write(`pi: ${line}\n`);
    await composed.kernel.shutdown();
    return EXIT_BAD_INPUT;
  }
  for (const error of composed.boot.errors) process.stderr.write(`pi: ${formatLifecycleError(error)}\n`);
  return composed;
}
