/**
 * The llama.cpp router's model API, as pi 1.6.0's llama extension uses it: `GET /models` lists the
 * models the router knows with their state, `POST /models/load` and `POST /models/unload` start a load
 * or an unload, which the router finishes in the background (so the client polls the list until done).
 */

/** One model of the router's catalog (`status.value`: loaded, loading, sleeping, unloaded, ...). */
export interface RouterModel {
  id: string;
  status: { value: string };
}

/** pi's default router address. */
export const DEFAULT_LLAMA_SERVER_URL = "http://127.0.0.1:9931";

/** Whether the router has the model in memory (a sleeping model wakes when used). */
export function modelIsLoaded(model: RouterModel): boolean {
  return model.status.value === "loaded" || model.status.value === "sleeping";
}

/** A router URL without trailing slashes or a trailing `/v1`, so the model API paths append to it. */
export function normalizeServerUrl(url: string): string {
  return url.trim().replace(/\/+$/, "").replace(/\/v1$/, "");
}

/** Talks to one router. */
export class LlamaClient {
  constructor(
    readonly serverUrl: string,
    private readonly apiKey?: string,
  ) {}

  /** The catalog; fails when the server is not a router. */
  async list(): Promise<RouterModel[]> {
    const payload = (await this.request("/models")) as { data?: unknown } | null;
    if (payload === null || typeof payload !== "object" || !Array.isArray(payload.data))
      throw new Error("llama.cpp returned an invalid model catalog");
    const data = payload.data as RouterModel[];
    if (!data.every((m) => typeof m?.id === "string" && typeof m?.status?.value === "string"))
      throw new Error("Server is not running in llama.cpp router mode");
    return data;
  }

  /** Loads `model` and waits until the router reports it loaded (or the load failed). */
  async loadAndWait(model: string): Promise<void> {
    await this.request("/models/load", { method: "POST", body: JSON.stringify({ model }) });
    await this.waitFor(model, (value) => value === "loaded" || value === "sleeping", "load");
  }

  /** Unloads `model` and waits until the router reports it unloaded. */
  async unloadAndWait(model: string): Promise<void> {
    await this.request("/models/unload", { method: "POST", body: JSON.stringify({ model }) });
    await this.waitFor(model, (value) => value === "unloaded", "unload");
  }

  private async waitFor(model: string, done: (value: string) => boolean, what: string): Promise<void> {
    const deadline = Date.now() + 10 * 60_000;
    for (;;) {
      const entry = (await this.list()).find((candidate) => candidate.id === model);
      if (entry === undefined) return;
      if (done(entry.status.value)) return;
      if (entry.status.value === "failed" || entry.status.value === "error")
        throw new Error(`llama.cpp could not ${what} ${model}`);
      if (Date.now() > deadline) throw new Error(`llama.cpp did not ${what} ${model} within 10 minutes`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private async request(path: string, init: RequestInit = {}): Promise<unknown> {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    let response: Response;
    try {
      response = await fetch(`${this.serverUrl}${path}`, { ...init, headers, signal: AbortSignal.timeout(15_000) });
    } catch {
      throw new Error(`Could not connect to the server at ${this.serverUrl}.`);
    }
    const text = await response.text();
    let payload: unknown = text;
    try {
      payload = text === "" ? null : JSON.parse(text);
    } catch {
      // not JSON: keep the text for the message
    }
    if (!response.ok) {
      const message = (payload as { error?: { message?: unknown } } | null)?.error?.message;
      throw new Error(typeof message === "string" ? message : `llama.cpp returned HTTP ${response.status}`);
    }
    return payload;
  }
}
