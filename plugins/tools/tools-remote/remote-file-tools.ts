/**
 * read, write, edit and ls on the remote folder: pi's schemas, descriptions, limits and messages from
 * kit (the same as the local tools'), the file operations from remote-files.ts. Relative paths resolve
 * against the remote folder, "~" against the remote home; writes to one remote file are serialized by
 * the session's file lock under a key naming the remote machine.
 */
import {
  checkReadLineArguments,
  compareEntryNames,
  EDIT_DESCRIPTION,
  EDIT_GUIDELINES,
  EditParameters,
  editFileText,
  editNotRegular,
  editRefusal,
  editSuccessText,
  LS_DESCRIPTION,
  lsEntryLimit,
  lsFailure,
  lsListingResult,
  LsParameters,
  prepareEditArguments,
  READ_DESCRIPTION,
  READ_GUIDELINES,
  readBytesResult,
  readDirectoryError,
  readEditArguments,
  readFailure,
  readNotRegularError,
  ReadParameters,
  resolveToRemoteFolder,
  throwIfToolAborted,
  WRITE_DESCRIPTION,
  WRITE_GUIDELINES,
  WriteParameters,
  writeNotRegular,
  writeRefusal,
  writeSuccessText,
  type AgentTool,
  type EditToolDetails,
  type LsToolDetails,
  type ReadToolDetails,
} from "pi-host";
import type { HostSource, RemoteHost } from "./remote-host.js";
import { listRemoteFolder, readRemoteFile, RemoteFileError, writeRemoteFile } from "./remote-files.js";

/** An absolute remote path for what the model wrote. */
export function remotePath(host: RemoteHost, path: string): string {
  return resolveToRemoteFolder(path, host.facts.root, host.facts.home);
}

/** The session's lock key for a remote file: the machine and the path, never a local path. */
function lockKey(host: RemoteHost, absolutePath: string): string {
  return `remote:${host.runner.label}:${absolutePath}`;
}

/** The remote `read`. */
export function createRemoteRead(
  connection: HostSource,
): AgentTool<typeof ReadParameters, ReadToolDetails | undefined> {
  return {
    name: "read",
    label: "read",
    description: READ_DESCRIPTION,
    guidelines: READ_GUIDELINES,
    parameters: ReadParameters,
    async execute(_id, params, signal) {
      throwIfToolAborted(signal);
      checkReadLineArguments(params);
      const host = await connection.host();
      const bytes = await readRemoteFile(host.runner, remotePath(host, params.path), signal).catch((error) => {
        throwIfToolAborted(signal);
        throw readProblem(error, params.path);
      });
      throwIfToolAborted(signal);
      return readBytesResult(bytes, params);
    },
  };
}

function readProblem(error: unknown, path: string): Error {
  if (!(error instanceof RemoteFileError)) return error as Error;
  const { problem } = error;
  if (problem.why === "not-found") return readFailure(path, "not-found");
  if (problem.why === "permission") return readFailure(path, "permission");
  if (problem.why === "directory") return readDirectoryError(path);
  if (problem.why === "not-regular") return readNotRegularError(path);
  return new Error(`Could not read ${path}: ${error.message}`);
}

/** The remote `write`. */
export function createRemoteWrite(connection: HostSource): AgentTool<typeof WriteParameters, undefined> {
  return {
    name: "write",
    label: "write",
    description: WRITE_DESCRIPTION,
    guidelines: WRITE_GUIDELINES,
    parameters: WriteParameters,
    async execute(_id, { path, content }, signal, _onUpdate, ctx) {
      throwIfToolAborted(signal);
      const host = await connection.host();
      const absolutePath = remotePath(host, path);
      return ctx.withFileLock(lockKey(host, absolutePath), async () => {
        throwIfToolAborted(signal);
        await writeRemoteFile(host.runner, absolutePath, content).catch((error) => {
          throw writeProblem(error, path);
        });
        return { content: [{ type: "text", text: writeSuccessText(content, path) }], details: undefined };
      });
    },
  };
}

function writeProblem(error: unknown, path: string): Error {
  if (!(error instanceof RemoteFileError)) return error as Error;
  const { problem } = error;
  if (problem.why === "directory") return new Error(writeRefusal(path, "directory"));
  if (problem.why === "parent-is-file") return new Error(writeRefusal(path, "parent-is-file"));
  if (problem.why === "not-regular") return new Error(writeNotRegular(path, problem.kind));
  if (problem.why === "permission" || problem.why === "not-found") return new Error(writeRefusal(path, "permission"));
  return new Error(`Cannot write ${path}: ${error.message}`);
}

/** The remote `edit`. */
export function createRemoteEdit(connection: HostSource): AgentTool<typeof EditParameters, EditToolDetails> {
  return {
    name: "edit",
    label: "edit",
    description: EDIT_DESCRIPTION,
    guidelines: EDIT_GUIDELINES,
    parameters: EditParameters,
    prepareArguments: prepareEditArguments,
    async execute(_id, params, signal, _onUpdate, ctx) {
      throwIfToolAborted(signal);
      const { path, edits } = readEditArguments(params);
      const host = await connection.host();
      const absolutePath = remotePath(host, path);
      return ctx.withFileLock(lockKey(host, absolutePath), async () => {
        throwIfToolAborted(signal);
        const bytes = await readRemoteFile(host.runner, absolutePath, signal).catch((error) => {
          throwIfToolAborted(signal);
          throw editProblem(error, path);
        });
        const edited = editFileText(bytes, edits, path);
        throwIfToolAborted(signal);
        await writeRemoteFile(host.runner, absolutePath, edited.content).catch((error) => {
          throw editProblem(error, path);
        });
        return { content: [{ type: "text", text: editSuccessText(edits.length, path) }], details: edited.details };
      });
    },
  };
}

function editProblem(error: unknown, path: string): Error {
  if (!(error instanceof RemoteFileError)) return error as Error;
  const { problem } = error;
  if (problem.why === "not-found" || problem.why === "parent-is-file") return editRefusal(path, "not-found");
  if (problem.why === "permission") return editRefusal(path, "permission");
  if (problem.why === "directory") return editRefusal(path, "directory");
  if (problem.why === "not-regular") return new Error(editNotRegular(path, problem.kind));
  return new Error(`Could not edit file: ${path}. ${error.message}`);
}

/** The remote `ls`. */
export function createRemoteLs(connection: HostSource): AgentTool<typeof LsParameters, LsToolDetails | undefined> {
  return {
    name: "ls",
    label: "ls",
    description: LS_DESCRIPTION,
    parameters: LsParameters,
    async execute(_id, { path, limit }, signal) {
      throwIfToolAborted(signal);
      const entryLimit = lsEntryLimit(limit);
      const host = await connection.host();
      const folder = remotePath(host, path || ".");
      const names = await listRemoteFolder(host.runner, folder, signal).catch((error) => {
        throwIfToolAborted(signal);
        if (!(error instanceof RemoteFileError)) throw error;
        if (error.problem.why === "not-found") throw lsFailure(folder, "not-found");
        if (error.problem.why === "directory") throw lsFailure(folder, "not-directory");
        throw new Error(
          `Cannot read directory: ${error.problem.why === "permission" ? "permission denied" : error.message}`,
        );
      });
      throwIfToolAborted(signal);
      names.sort((a, b) => compareEntryNames(a.replace(/\/$/, ""), b.replace(/\/$/, "")));
      return lsListingResult(names.slice(0, entryLimit), names.length, entryLimit);
    },
  };
}
