/**
 * A throwaway OpenSSH server for the remote tools' tests: `/usr/sbin/sshd` on 127.0.0.1 on a free port,
 * with a temp host key, a temp authorized_keys holding a temp client key, and a temp known_hosts
 * naming the host key — nothing under ~/.ssh is read or written. `sshdMissing()` says why a test must
 * skip (no sshd, no ssh-keygen, no privilege separation folder).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, connect } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";

export const SSHD = "/usr/sbin/sshd";

/** Why sshd cannot run here, or undefined when it can. */
export function sshdMissing(): string | undefined {
  if (!existsSync(SSHD)) return `${SSHD} is absent (apt-get install openssh-server)`;
  try {
    execFileSync("ssh-keygen", ["-?"], { stdio: "ignore" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "ssh-keygen is absent";
  }
  if (!existsSync("/run/sshd")) {
    try {
      mkdirSync("/run/sshd", { recursive: true, mode: 0o755 });
    } catch {
      return "sshd needs /run/sshd (its privilege separation folder) and it cannot be created";
    }
  }
  return undefined;
}

/** A running sshd and the files a client needs. */
export interface TestSshd {
  port: number;
  user: string;
  /** known_hosts naming this server's key as `[127.0.0.1]:port`. */
  knownHosts: string;
  /** The client's private key (authorized by the server). */
  identity: string;
  /** The server's public host key line (`ssh-ed25519 AAAA...`). */
  hostKey: string;
  folder: string;
  stop(): Promise<void>;
}

function keygen(path: string): void {
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "pi-test", "-f", path], { stdio: "ignore" });
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something on `port` speaks SSH; rejects when sshd exited first. */
async function greeting(port: number, child: ChildProcess, log: () => string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) throw new Error(`sshd exited (${child.exitCode}): ${log()}`);
    const banner = await new Promise<string>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("data", (data) => {
        socket.destroy();
        resolve(data.toString());
      });
      socket.once("error", () => resolve(""));
    });
    if (banner.startsWith("SSH-")) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`sshd did not answer on port ${port}: ${log()}`);
}

/** Starts sshd with fresh keys. */
export async function startSshd(): Promise<TestSshd> {
  const missing = sshdMissing();
  if (missing !== undefined) throw new Error(missing);
  const folder = mkdtempSync(join(tmpdir(), "pi-sshd-"));
  const user = userInfo().username;
  keygen(join(folder, "host_ed25519"));
  keygen(join(folder, "id_ed25519"));
  writeFileSync(join(folder, "authorized_keys"), readFileSync(join(folder, "id_ed25519.pub")));
  const port = await freePort();
  const config = [
    `Port ${port}`,
    "ListenAddress 127.0.0.1",
    `HostKey ${join(folder, "host_ed25519")}`,
    `AuthorizedKeysFile ${join(folder, "authorized_keys")}`,
    `PidFile ${join(folder, "sshd.pid")}`,
    "StrictModes no",
    "UsePAM no",
    "PasswordAuthentication no",
    "KbdInteractiveAuthentication no",
    "PubkeyAuthentication yes",
    "PermitRootLogin prohibit-password",
    `AllowUsers ${user}`,
    "MaxSessions 30",
    "LogLevel ERROR",
  ];
  writeFileSync(join(folder, "sshd_config"), `${config.join("\n")}\n`);
  const hostKey = readFileSync(join(folder, "host_ed25519.pub"), "utf-8").trim().split(/\s+/).slice(0, 2).join(" ");
  const knownHosts = join(folder, "known_hosts");
  writeFileSync(knownHosts, `[127.0.0.1]:${port} ${hostKey}\n`);
  const child = spawn(SSHD, ["-D", "-e", "-f", join(folder, "sshd_config")], { stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    log += chunk.toString();
  });
  await greeting(port, child, () => log);
  return {
    port,
    user,
    knownHosts,
    identity: join(folder, "id_ed25519"),
    hostKey,
    folder,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
