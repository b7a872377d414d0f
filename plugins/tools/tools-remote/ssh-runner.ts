/**
 * The SSH transport, and the only file that loads `ssh2` (lazily, at the first remote tool call, so a
 * run without `--remote` never pays for it). Authentication uses the ssh-agent (SSH_AUTH_SOCK) and
 * private key files only — never a password or a prompt the model could see; the host key must be in
 * known_hosts. One connection serves every tool call; each call is one exec channel.
 */
import { readFileSync } from "node:fs";
import type { AgentAuthMethod, PublicKeyAuthMethod } from "ssh2";
import type { SshTarget } from "pi-host";
import { checkHostKey } from "./known-hosts.js";
import { type RemoteRunner, type RunEnd, type RunIo, shellCommandLine } from "./runner.js";

/** What the SSH runner needs besides the target; paths absolute. */
export interface SshOptions {
  target: SshTarget;
  /** The login name when the target names none. */
  defaultUser: string;
  /** The machine as messages name it (`user@host[:port]`, remote-setup's targetLabel). */
  label: string;
  knownHostsPath: string;
  /** Private key files tried in order (missing ones are skipped). */
  identityFiles: string[];
  /** The ssh-agent socket, when one is running. */
  agentSocket: string | undefined;
  /** Milliseconds to wait for the server's greeting and authentication. */
  readyTimeoutMs: number;
}

/** OpenSSH allows 10 sessions per connection; stay below so parallel tool calls queue instead of failing. */
const MAX_CHANNELS = 8;

/** Connects and authenticates; rejects with one line (host key refused, no usable key, unreachable). */
export async function connectSsh(options: SshOptions): Promise<RemoteRunner> {
  const ssh2 = await import("ssh2");
  const Client = (ssh2 as { Client?: typeof import("ssh2").Client }).Client ?? ssh2.default.Client;
  const { target } = options;
  const username = target.user ?? options.defaultUser;
  const label = options.label;
  const knownHosts = readKnownHosts(options.knownHostsPath);
  const auth = authMethods(options, username);
  if (auth.length === 0)
    throw new Error(
      `No SSH key for ${label}: start an ssh-agent with your key (SSH_AUTH_SOCK) or set identityFile; passwords are never asked.`,
    );

  const client = new Client();
  let refusal: string | undefined;
  await new Promise<void>((resolve, reject) => {
    client.once("ready", () => resolve());
    client.once("error", (error: Error & { level?: string }) => {
      if (refusal !== undefined) return reject(new Error(refusal));
      if (error.level === "client-authentication")
        return reject(
          new Error(
            `SSH authentication to ${label} failed with the agent and key files tried; add your key to the agent or set identityFile (passwords are never asked).`,
          ),
        );
      reject(new Error(`Cannot connect to ${label}: ${error.message}`));
    });
    client.connect({
      host: target.host,
      port: target.port,
      username,
      readyTimeout: options.readyTimeoutMs,
      keepaliveInterval: 15_000,
      authHandler: auth,
      hostVerifier: (key: Buffer) => {
        const verdict = checkHostKey(knownHosts, options.knownHostsPath, target.host, target.port, key);
        if (!verdict.ok) refusal = verdict.message;
        return verdict.ok;
      },
    });
  });
  return new SshRunner(client, label);
}

function readKnownHosts(path: string): string {
  try {
    return readFileSync(path, "utf-8");
  } catch {
    return "";
  }
}

/** The agent first (as ssh does), then each readable key file; unreadable or encrypted keys are skipped. */
function authMethods(options: SshOptions, username: string): Array<AgentAuthMethod | PublicKeyAuthMethod> {
  const methods: Array<AgentAuthMethod | PublicKeyAuthMethod> = [];
  if (options.agentSocket !== undefined && options.agentSocket !== "")
    methods.push({ type: "agent", username, agent: options.agentSocket });
  for (const path of options.identityFiles) {
    let key: Buffer;
    try {
      key = readFileSync(path);
    } catch {
      continue;
    }
    methods.push({ type: "publickey", username, key });
  }
  return methods;
}

type Ssh2Client = InstanceType<typeof import("ssh2").Client>;

class SshRunner implements RemoteRunner {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private closed = false;
  private lost: string | undefined;

  constructor(
    private readonly client: Ssh2Client,
    readonly label: string,
  ) {
    client.on("close", () => {
      this.lost ??= `the SSH connection to ${label} closed`;
      for (const wake of this.waiting.splice(0)) wake();
    });
    client.on("error", (error: Error) => {
      this.lost = `the SSH connection to ${label} failed: ${error.message}`;
    });
  }

  /** Whether the connection can still take runs (false once closed or lost). */
  get usable(): boolean {
    return !this.closed && this.lost === undefined;
  }

  async run(argv: string[], io: RunIo = {}): Promise<RunEnd> {
    await this.slot();
    try {
      return await this.exec(shellCommandLine(argv), io);
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  private async slot(): Promise<void> {
    while (this.active >= MAX_CHANNELS && this.usable) await new Promise<void>((wake) => this.waiting.push(wake));
    if (!this.usable) throw new Error(`Remote tools: ${this.lost ?? `the connection to ${this.label} is closed`}`);
    this.active++;
  }

  private exec(command: string, io: RunIo): Promise<RunEnd> {
    return new Promise((resolve, reject) => {
      if (io.signal?.aborted) return resolve({ code: null, signal: "aborted" });
      this.client.exec(command, (error, stream) => {
        if (error) return reject(new Error(`Remote tools: cannot run on ${this.label}: ${error.message}`));
        let end: RunEnd = { code: null, signal: null };
        const onAbort = () => stream.close();
        io.signal?.addEventListener("abort", onAbort, { once: true });
        stream.on("exit", (code: number | null, signal?: string) => {
          end = { code: code ?? null, signal: signal ?? null };
        });
        stream.on("data", (chunk: Buffer) => {
          const wait = io.onStdout?.(chunk);
          if (wait === undefined) return;
          stream.pause();
          const resume = () => stream.resume();
          wait.then(resume, resume);
        });
        stream.stderr.on("data", (chunk: Buffer) => io.onStderr?.(chunk));
        stream.on("close", () => {
          io.signal?.removeEventListener("abort", onAbort);
          resolve(end);
        });
        if (io.stdin !== undefined) stream.end(io.stdin);
        else stream.end();
      });
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await new Promise<void>((resolve) => {
      this.client.once("close", () => resolve());
      this.client.end();
      setTimeout(resolve, 1_000).unref();
    });
  }
}
