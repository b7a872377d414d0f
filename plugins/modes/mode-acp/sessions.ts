/**
 * The ACP sessions of one connection. pi-host's agent session has one conversation open at a time; an
 * editor may hold several threads. Each ACP session remembers its session file, so a prompt to a thread
 * that is not the open one switches the agent session to that file first. A session kept only in memory
 * (`--no-session`) cannot be reopened once another one was opened; its prompts then fail and say so.
 */
import { existsSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { SessionStore } from "pi-host";
import type { Handle } from "pi-host";
import type { PermissionMemory } from "./permissions.js";

/** What the connection keeps per ACP session. */
export interface AcpSession {
  /** The session file; undefined for a session kept in memory. */
  path: string | undefined;
  /** "Always" permission answers. */
  permissions: PermissionMemory;
  /** Counts `session/cancel` notifications: a prompt queued before a cancel is cancelled, not run. */
  cancels: number;
}

/** A fresh record for a session created or loaded on this connection. */
export function newAcpSession(path: string | undefined): AcpSession {
  return { path, permissions: { allowed: new Set(), rejected: new Set() }, cancels: 0 };
}

/**
 * The file of a stored session named by `sessionId`: a path (with a slash or ending in .jsonl, resolved
 * against `cwd`), or a session id looked up among `cwd`'s sessions, then among all of them. Undefined
 * when nothing matches.
 */
export async function locateSession(
  sessionId: string,
  cwd: string,
  store: Handle<SessionStore>,
): Promise<string | undefined> {
  if (sessionId.includes("/") || sessionId.includes("\\") || sessionId.endsWith(".jsonl")) {
    const path = isAbsolute(sessionId) ? sessionId : resolve(cwd, sessionId);
    return existsSync(path) ? path : undefined;
  }
  if (!store.available) return undefined;
  const here = await store.api.list({ cwd });
  const found = here.find((s) => s.id === sessionId) ?? (await store.api.list({})).find((s) => s.id === sessionId);
  return found?.path;
}
