/**
 * One remote machine as the tools see it: a runner (SSH or docker), the folder the tools act in, the
 * remote home for "~", and which search programs it has (rg, fd or fdfind, bash). Connected at the
 * first tool call and probed once; a lost connection is opened again by the next call.
 */
import { capture, type RemoteRunner } from "./runner.js";

/** What a probe learned about the remote side. */
export interface RemoteFacts {
  /** The folder relative paths resolve against (absolute). */
  root: string;
  home: string;
  hasBash: boolean;
  rg: { path: string; noRequireGit: boolean } | undefined;
  fd: { path: string; noRequireGit: boolean } | undefined;
}

/** A connected runner and its facts. */
export interface RemoteHost {
  runner: RemoteRunner;
  facts: RemoteFacts;
}

const PROBE = `
root=$1
[ -n "$root" ] || root=$HOME
printf 'home=%s\\n' "$HOME"
if [ -d "$root" ]; then printf 'root=%s\\n' "$root"; else printf 'noroot=%s\\n' "$root"; fi
command -v bash >/dev/null 2>&1 && echo bash=1
if rg=$(command -v rg 2>/dev/null); then echo "rg=$rg"; "$rg" --help 2>/dev/null | grep -q -- --no-require-git && echo rgnrg=1; fi
if fd=$(command -v fd 2>/dev/null || command -v fdfind 2>/dev/null); then echo "fd=$fd"; "$fd" --help 2>/dev/null | grep -q -- --no-require-git && echo fdnrg=1; fi
exit 0
`;

/** Probes the remote side; one line when the folder is missing or the shell does not answer. */
export async function probeRemote(
  runner: RemoteRunner,
  folder: string | undefined,
  useSearchPrograms: boolean,
): Promise<RemoteFacts> {
  const result = await capture(runner, ["sh", "-c", PROBE, "sh", folder ?? ""]);
  const values = new Map<string, string>();
  for (const line of result.stdout.toString("utf-8").split("\n")) {
    const at = line.indexOf("=");
    if (at > 0) values.set(line.slice(0, at), line.slice(at + 1));
  }
  if (result.code !== 0 || !values.has("home"))
    throw new Error(
      `The remote shell on ${runner.label} did not answer (exit ${result.code}): ${result.stderr.trim() || "no output"}`,
    );
  const missing = values.get("noroot");
  if (missing !== undefined)
    throw new Error(`The remote folder ${missing} does not exist on ${runner.label}; create it or name another one.`);
  const home = values.get("home") || "/";
  const program = (name: string, noRequireGit: string) => {
    const path = values.get(name);
    return path === undefined || !useSearchPrograms ? undefined : { path, noRequireGit: values.has(noRequireGit) };
  };
  return {
    root: values.get("root") ?? home,
    home,
    hasBash: values.has("bash"),
    rg: program("rg", "rgnrg"),
    fd: program("fd", "fdnrg"),
  };
}

/** Where a tool gets its connected host at call time (the run's target is looked up then). */
export interface HostSource {
  host(): Promise<RemoteHost>;
}

/** Opens the connection at first use and again after it was lost; closes it when the plugin retires. */
export class RemoteConnection implements HostSource {
  private current: Promise<RemoteHost> | undefined;
  private closed = false;

  constructor(
    private readonly open: () => Promise<RemoteRunner>,
    private readonly folder: string | undefined,
    private readonly useSearchPrograms: boolean,
  ) {}

  /** The connected host; rejects with the connection's one-line error (and retries at the next call). */
  host(): Promise<RemoteHost> {
    if (this.closed) return Promise.reject(new Error("Remote tools: the plugin was unloaded"));
    const current = this.current;
    if (current !== undefined) {
      return current.then((host) => {
        if (host.runner.usable === false && this.current === current) {
          this.current = undefined;
          return this.host();
        }
        return host;
      });
    }
    const opening = this.connect();
    this.current = opening;
    opening.catch(() => {
      if (this.current === opening) this.current = undefined;
    });
    return opening;
  }

  private async connect(): Promise<RemoteHost> {
    const runner = await this.open();
    try {
      return { runner, facts: await probeRemote(runner, this.folder, this.useSearchPrograms) };
    } catch (error) {
      await runner.close();
      throw error;
    }
  }

  /** Ends the connection (at retire). */
  async close(): Promise<void> {
    this.closed = true;
    const current = this.current;
    this.current = undefined;
    if (current !== undefined) await current.then((host) => host.runner.close()).catch(() => {});
  }
}
