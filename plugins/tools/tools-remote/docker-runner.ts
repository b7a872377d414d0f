/**
 * The container transport: each run is `docker exec -i <container> <argv>` through the local docker
 * client, so the tools act inside a running container while sessions stay on this machine.
 */
import { childProcess, findExecutable } from "pi-host";
import type { RemoteRunner, RunEnd, RunIo } from "./runner.js";

/** A runner for `container`; one line when there is no docker client. */
export function dockerRunner(container: string): RemoteRunner {
  const docker = findExecutable(["docker"]);
  if (docker === undefined)
    throw new Error(
      `--remote docker:${container} needs the docker client on PATH; install Docker or use an ssh target.`,
    );
  return {
    label: `docker:${container}`,
    run: (argv, io) => runDocker(docker, container, argv, io ?? {}),
    close: async () => {},
  };
}

function runDocker(docker: string, container: string, argv: string[], io: RunIo): Promise<RunEnd> {
  return new Promise((resolve, reject) => {
    if (io.signal?.aborted) return resolve({ code: null, signal: "aborted" });
    const child = childProcess().spawn(docker, ["exec", "-i", container, ...argv], { stdio: ["pipe", "pipe", "pipe"] });
    const onAbort = () => child.kill();
    io.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (chunk: Buffer) => {
      const wait = io.onStdout?.(chunk);
      if (wait === undefined) return;
      child.stdout.pause();
      const resume = () => child.stdout.resume();
      wait.then(resume, resume);
    });
    child.stderr.on("data", (chunk: Buffer) => io.onStderr?.(chunk));
    child.once("error", (error) => reject(new Error(`Cannot run docker exec in ${container}: ${error.message}`)));
    child.once("close", (code, signal) => {
      io.signal?.removeEventListener("abort", onAbort);
      resolve({ code, signal });
    });
    child.stdin.on("error", () => {});
    child.stdin.end(io.stdin);
  });
}
