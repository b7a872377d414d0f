/**
 * The system prompt of a remote run names the folder the tools act in: pi's "Current working
 * directory: <local folder>" line becomes the remote folder and machine, so the model writes paths that
 * mean something there (pi's SSH example does the same). The rest of the prompt is left as it is.
 */
import { type AgentHooks, parseRemoteTarget } from "pi-host";
import type { HostSource } from "./remote-host.js";
import { targetLabel } from "./remote-setup.js";

/** What the hook needs: the local folder named in the prompt and, per request, the remote side. */
export interface PromptPlace {
  /** The local working folder the prompt names, or undefined without a host. */
  localCwd(): string | undefined;
  /** The run's target, or undefined when the tools are local this run. */
  target(): string | undefined;
  source: HostSource;
}

/** A `prepareRequest` hook rewriting the working-folder line while the tools are remote. */
export function remotePromptHook(place: PromptPlace): AgentHooks {
  return {
    async prepareRequest(request) {
      const target = place.target();
      const localCwd = place.localCwd();
      const prompt = request.context.systemPrompt;
      if (target === undefined || localCwd === undefined || prompt === undefined) return undefined;
      const line = `Current working directory: ${localCwd.replace(/\\/g, "/")}`;
      if (!prompt.includes(line)) return undefined;
      const where = await remoteFolderLine(target, place.source);
      const systemPrompt = prompt.replace(line, `Current working directory: ${where}`);
      return { ...request, context: { ...request.context, systemPrompt } };
    },
  };
}

/**
 * The folder and machine: from the target alone when it names the folder (no connection needed, so an
 * unreachable host costs no wait here), else from the connection's probe of the remote home.
 */
async function remoteFolderLine(targetText: string, source: HostSource): Promise<string> {
  const target = parseRemoteTarget(targetText);
  const label = targetLabel(target);
  if (target.path !== undefined) return `${target.path} (on ${label}, where every tool acts)`;
  return source.host().then(
    (host) => `${host.facts.root} (on ${label}, where every tool acts)`,
    () => `the remote home folder on ${label} (where every tool acts; not reachable yet)`,
  );
}
