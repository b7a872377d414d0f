/**
 * The commands this plugin generation is running right now. The plugin registers `stopAll` as a
 * disposer, so retiring the generation (reload, disable, shutdown) kills every running command's process
 * group and waits until each has ended, instead of leaving orphans behind.
 */

/** One running command as the registry sees it. */
export interface RunningCommand {
  /** Starts killing the command's process group; idempotent. */
  stop(): void;
  /** Settles once the command has ended and its output streams are closed. */
  readonly ended: Promise<unknown>;
}

/** Tracks running commands so they can all be stopped at once. */
export class RunningCommands {
  private readonly running = new Set<RunningCommand>();
  private closed = false;

  /** Whether `stopAll` has been called; no new command may start after it. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Tracks `command` until it ends. Throws when the registry is closed. */
  add(command: RunningCommand): void {
    if (this.closed) throw new Error("the bash tool is being unloaded; the command was not started");
    this.running.add(command);
    const forget = () => this.running.delete(command);
    command.ended.then(forget, forget);
  }

  /** How many commands are running. */
  get size(): number {
    return this.running.size;
  }

  /** Refuses new commands, stops every running one and resolves when all have ended. */
  async stopAll(): Promise<void> {
    this.closed = true;
    const commands = [...this.running];
    for (const command of commands) command.stop();
    await Promise.allSettled(commands.map((command) => command.ended));
  }
}
