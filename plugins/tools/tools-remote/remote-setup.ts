/**
 * Where the remote tools connect and with what: the target (the run's `--remote`, else the plugin's
 * `target` setting), the known_hosts file and the private key files (env beats config beats ~/.ssh),
 * and the connection made from them. Credentials are read here, used by the transport and never put in
 * a tool result or the session.
 */
import { homedir, userInfo } from "node:os";
import { join, resolve } from "node:path";
import { parseRemoteTarget, type RemoteTarget } from "pi-host";
import { dockerRunner } from "./docker-runner.js";
import { RemoteConnection } from "./remote-host.js";
import { connectSsh } from "./ssh-runner.js";

/** The plugin's settings (plugins.json config). */
export interface RemoteSettings {
  target?: string;
  identityFile?: string;
  knownHostsFile?: string;
  searchPrograms: "auto" | "posix";
  connectTimeoutMs: number;
}

function expandHome(path: string): string {
  return path === "~" ? homedir() : path.startsWith("~/") ? join(homedir(), path.slice(2)) : resolve(path);
}

/** The known_hosts file: PI_REMOTE_KNOWN_HOSTS, else the setting, else ~/.ssh/known_hosts. */
export function knownHostsPath(settings: RemoteSettings, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = env.PI_REMOTE_KNOWN_HOSTS || settings.knownHostsFile;
  return chosen ? expandHome(chosen) : join(homedir(), ".ssh", "known_hosts");
}

/** The key files: PI_REMOTE_IDENTITY, else the setting, else ~/.ssh/id_ed25519 and ~/.ssh/id_rsa. */
export function identityFiles(settings: RemoteSettings, env: NodeJS.ProcessEnv = process.env): string[] {
  const chosen = env.PI_REMOTE_IDENTITY || settings.identityFile;
  if (chosen) return [expandHome(chosen)];
  return [join(homedir(), ".ssh", "id_ed25519"), join(homedir(), ".ssh", "id_rsa")];
}

/** The machine as messages and the system prompt name it: `user@host[:port]` or `docker:container`. */
export function targetLabel(target: RemoteTarget): string {
  if (target.kind === "docker") return `docker:${target.container}`;
  const user = target.user ?? userInfo().username;
  return `${user}@${target.host}${target.port === 22 ? "" : `:${target.port}`}`;
}

/** A (not yet opened) connection to `target`. */
export function connectionFor(target: RemoteTarget, settings: RemoteSettings): RemoteConnection {
  const useSearchPrograms = settings.searchPrograms !== "posix";
  if (target.kind === "docker") {
    return new RemoteConnection(async () => dockerRunner(target.container), target.path, useSearchPrograms);
  }
  return new RemoteConnection(
    () =>
      connectSsh({
        target,
        defaultUser: userInfo().username,
        label: targetLabel(target),
        knownHostsPath: knownHostsPath(settings),
        identityFiles: identityFiles(settings),
        agentSocket: process.env.SSH_AUTH_SOCK,
        readyTimeoutMs: settings.connectTimeoutMs,
      }),
    target.path,
    useSearchPrograms,
  );
}

/** One connection per target string, made at first use; closing ends them all. */
export class RemoteConnections {
  private readonly open = new Map<string, RemoteConnection>();

  constructor(private readonly settings: RemoteSettings) {}

  /** The connection for `target` (a `--remote` value). */
  get(target: string): RemoteConnection {
    let connection = this.open.get(target);
    if (connection === undefined) {
      connection = connectionFor(parseRemoteTarget(target), this.settings);
      this.open.set(target, connection);
    }
    return connection;
  }

  /** Ends every connection (at retire). */
  async closeAll(): Promise<void> {
    const all = [...this.open.values()];
    this.open.clear();
    await Promise.all(all.map((connection) => connection.close()));
  }
}
