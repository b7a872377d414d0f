/**
 * The RPC protocol's records as pi defines them (docs/rpc.md): commands in, responses out, and the
 * checks that turn a malformed command into a one-line error instead of a crash deeper down.
 */
import type { ImageContent } from "pi-host";

/** A command line, parsed: pi's `{id?, type, ...fields}`. */
export interface RpcCommand {
  id?: string;
  type: string;
  [field: string]: unknown;
}

/** pi's response record. `data` is left out when a command has nothing to return. */
export interface RpcResponse {
  id?: string;
  type: "response";
  command: string;
  success: boolean;
  data?: unknown;
  error?: string;
}

/** The client's answer to a dialog (`extension_ui_response`). */
export interface UiResponse {
  type: "extension_ui_response";
  id: string;
  value?: string;
  confirmed?: boolean;
  cancelled?: boolean;
}

/** A successful response; `data` undefined means none (pi omits the key), null is sent as null. */
export function success(id: string | undefined, command: string, data?: unknown): RpcResponse {
  const response: RpcResponse = { ...(id !== undefined && { id }), type: "response", command, success: true };
  if (data !== undefined) response.data = data;
  return response;
}

/** A failed response with a one-line error. */
export function failure(id: string | undefined, command: string, error: string): RpcResponse {
  return { ...(id !== undefined && { id }), type: "response", command, success: false, error: oneLine(error) };
}

/** Errors are one line in the protocol; a multi-line message keeps its first line. */
export function oneLine(message: string): string {
  const first = message.split("\n").find((line) => line.trim() !== "");
  return (first ?? message).trim() || "unknown error";
}

/** A command's input was wrong; the message says which field and what it must be. */
export class CommandInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CommandInputError";
  }
}

/**
 * Why a parsed line is not a command, or undefined when it is one: a JSON object with a string `type`
 * and, if present, a string `id`.
 */
export function commandProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return 'a command must be a JSON object such as {"type":"get_state"}';
  const record = value as Record<string, unknown>;
  if (typeof record.type !== "string" || record.type === "")
    return 'a command needs a string "type", such as "prompt" or "get_state"';
  if (record.id !== undefined && typeof record.id !== "string") return 'a command\'s "id" must be a string';
  return undefined;
}

/** A required string field. */
export function requireString(command: RpcCommand, field: string): string {
  const value = command[field];
  if (typeof value !== "string") throw new CommandInputError(`"${command.type}" needs "${field}" as a string`);
  return value;
}

/** An optional string field. */
export function optionalString(command: RpcCommand, field: string): string | undefined {
  const value = command[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new CommandInputError(`"${command.type}": "${field}" must be a string`);
  return value;
}

/** A required boolean field. */
export function requireBoolean(command: RpcCommand, field: string): boolean {
  const value = command[field];
  if (typeof value !== "boolean") throw new CommandInputError(`"${command.type}" needs "${field}" as true or false`);
  return value;
}

/** A required field that must be one of `choices`. */
export function requireChoice<T extends string>(command: RpcCommand, field: string, choices: readonly T[]): T {
  const value = command[field];
  if (typeof value !== "string" || !choices.includes(value as T)) {
    throw new CommandInputError(
      `"${command.type}" needs "${field}" as one of ${choices.map((c) => `"${c}"`).join(", ")}`,
    );
  }
  return value as T;
}

/** An optional field that, when present, must be one of `choices`. */
export function optionalChoice<T extends string>(
  command: RpcCommand,
  field: string,
  choices: readonly T[],
): T | undefined {
  if (command[field] === undefined || command[field] === null) return undefined;
  return requireChoice(command, field, choices);
}

/** The optional `images` field: pi's ImageContent blocks `{type: "image", data, mimeType}`. */
export function optionalImages(command: RpcCommand): ImageContent[] | undefined {
  const value = command.images;
  if (value === undefined || value === null) return undefined;
  const shape = '{"type":"image","data":"<base64>","mimeType":"image/png"}';
  if (!Array.isArray(value)) throw new CommandInputError(`"${command.type}": "images" must be an array of ${shape}`);
  return value.map((image, index) => {
    const i = image as Partial<ImageContent> | null;
    if (
      i === null ||
      typeof i !== "object" ||
      i.type !== "image" ||
      typeof i.data !== "string" ||
      typeof i.mimeType !== "string"
    ) {
      throw new CommandInputError(`"${command.type}": images[${index}] must be ${shape}`);
    }
    return { type: "image", data: i.data, mimeType: i.mimeType };
  });
}
