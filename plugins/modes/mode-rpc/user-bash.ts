/**
 * The `bash` RPC command's runner: the shared user shell run from kit (also behind the terminal UI's
 * `!command`), under the names this mode's files use.
 */
export {
  bashExecutionMessage,
  runUserBash,
  tailOf,
  type BashExecutionMessage,
  type BashResult,
  type UserBashSpawn as Spawn,
} from "pi-host";
