/**
 * `pi <word> ...` where a plugin provides the word as a shell subcommand (CliCommandContract), e.g. the
 * MCP plugin's `pi mcp login <server>`. The host composes the distribution, asks for a provider of that
 * word, and runs it; it names no plugin. A word nobody provides is a prompt after all, for the run.
 */
import { CliCommandContract } from "../contracts/cli-command.js";
import { composeForCli, type PackagePaths } from "./cli-compose.js";

/**
 * Runs the plugin subcommand `argv[0]`; resolves with its exit code, or undefined when no enabled plugin
 * provides the word (the kernel is shut down either way).
 */
export async function runContributedCommand(
  argv: readonly string[],
  where: { agentDir: string; cwd: string; paths: PackagePaths },
): Promise<number | undefined> {
  const [word, ...rest] = argv;
  // Quiet: when no plugin takes the word, the run that follows boots again and reports what is wrong.
  const composed = await composeForCli({ distributions: [], plugins: [], noPlugins: [] }, {}, where, { quiet: true });
  if (typeof composed === "number") return undefined;
  const { kernel } = composed;
  const controller = new AbortController();
  const interrupt = (): void => controller.abort();
  try {
    const handle = kernel
      .useAll(CliCommandContract)
      .list()
      .find((h) => h.peek()?.name === word);
    if (handle === undefined) return undefined;
    process.once("SIGINT", interrupt);
    return await handle.api.run(rest, {
      cwd: where.cwd,
      agentDir: where.agentDir,
      stdout: (text) => process.stdout.write(text),
      stderr: (text) => process.stderr.write(text),
      signal: controller.signal,
    });
  } finally {
    process.off("SIGINT", interrupt);
    await kernel.shutdown();
  }
}
