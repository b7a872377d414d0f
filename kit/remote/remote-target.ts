/**
 * What `--remote` names: a folder on a machine reached over SSH (`user@host[:port]:/path`, or
 * `ssh://user@host[:port]/path`) or inside a container (`docker:<container>[:/path]`). The host checks
 * the spelling before the run starts (a usage error says what to write) and the remote tools plugin
 * connects to what it names, so both read it with this one function.
 */

/** A folder on a machine reached over SSH. */
export interface SshTarget {
  kind: "ssh";
  /** The login name; undefined means the local user's name. */
  user: string | undefined;
  host: string;
  port: number;
  /** Absolute remote folder; undefined means the remote login's home folder. */
  path: string | undefined;
}

/** A folder inside a running container, reached with `docker exec`. */
export interface DockerTarget {
  kind: "docker";
  container: string;
  /** Absolute folder in the container; undefined means the container's working folder. */
  path: string | undefined;
}

/** Where the remote tools act. */
export type RemoteTarget = SshTarget | DockerTarget;

const USAGE =
  "write --remote user@host[:port]:/absolute/path (or ssh://user@host:port/path) or docker:<container>[:/path]";

/** Parses a `--remote` value; throws one line naming the problem and the accepted forms. */
export function parseRemoteTarget(value: string): RemoteTarget {
  const text = value.trim();
  if (text === "") throw new Error(`--remote needs a target: ${USAGE}`);
  if (text.startsWith("docker:")) return dockerTarget(text.slice("docker:".length), value);
  if (text.startsWith("ssh://")) return sshUrlTarget(text, value);
  // user@host[:port]:/path — the path starts at the first ":/"; a port sits between host and path.
  const pathAt = text.indexOf(":/");
  const place = pathAt === -1 ? text.replace(/:$/, "") : text.slice(0, pathAt);
  const path = pathAt === -1 ? undefined : text.slice(pathAt + 1);
  const at = place.lastIndexOf("@");
  const user = at === -1 ? undefined : place.slice(0, at);
  let host = at === -1 ? place : place.slice(at + 1);
  let port = 22;
  const portMatch = /^(.*):(\d+)$/.exec(host);
  if (portMatch !== null) {
    host = portMatch[1]!;
    port = checkedPort(portMatch[2]!, value);
  }
  // scp's `host:relative/path`: the tools need an absolute folder.
  if (host.includes(":")) throw new Error(`--remote ${JSON.stringify(value)}: the folder must be absolute: ${USAGE}`);
  return sshTarget(user, host, port, path, value);
}

function sshUrlTarget(text: string, value: string): SshTarget {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`--remote ${JSON.stringify(value)} is not a valid ssh:// address: ${USAGE}`);
  }
  const path = url.pathname === "" || url.pathname === "/" ? undefined : decodeURIComponent(url.pathname);
  const port = url.port === "" ? 22 : checkedPort(url.port, value);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return sshTarget(url.username === "" ? undefined : decodeURIComponent(url.username), host, port, path, value);
}

function sshTarget(
  user: string | undefined,
  host: string,
  port: number,
  path: string | undefined,
  value: string,
): SshTarget {
  if (host === "" || /[\s/@]/.test(host)) throw new Error(`--remote ${JSON.stringify(value)} names no host: ${USAGE}`);
  if (user !== undefined && (user === "" || /[\s:/]/.test(user)))
    throw new Error(`--remote ${JSON.stringify(value)} has an empty or invalid user name: ${USAGE}`);
  return { kind: "ssh", user, host, port, path: checkedPath(path, value) };
}

function dockerTarget(rest: string, value: string): DockerTarget {
  const colon = rest.indexOf(":");
  const container = colon === -1 ? rest : rest.slice(0, colon);
  const path = colon === -1 ? undefined : rest.slice(colon + 1);
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(container))
    throw new Error(`--remote ${JSON.stringify(value)} names no container: ${USAGE}`);
  return { kind: "docker", container, path: checkedPath(path === "" ? undefined : path, value) };
}

function checkedPath(path: string | undefined, value: string): string | undefined {
  if (path === undefined) return undefined;
  if (!path.startsWith("/"))
    throw new Error(`--remote ${JSON.stringify(value)}: the folder must be absolute: ${USAGE}`);
  return path.length > 1 ? path.replace(/\/+$/, "") : path;
}

function checkedPort(text: string, value: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 1 || port > 65_535)
    throw new Error(`--remote ${JSON.stringify(value)}: the port must be 1-65535: ${USAGE}`);
  return port;
}

/** The target as a short label for messages and lock keys (never holds a credential). */
export function describeRemoteTarget(target: RemoteTarget): string {
  if (target.kind === "docker")
    return `docker:${target.container}${target.path === undefined ? "" : `:${target.path}`}`;
  const user = target.user === undefined ? "" : `${target.user}@`;
  const port = target.port === 22 ? "" : `:${target.port}`;
  return `${user}${target.host}${port}:${target.path ?? "~"}`;
}
