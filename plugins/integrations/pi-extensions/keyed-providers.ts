/**
 * Which providers have a key and where it comes from, for pi's synchronous `ctx.modelRegistry` members
 * (`getAvailable`, `hasConfiguredAuth`, `isUsingOAuth`, `getProviderAuthStatus`). pi-host's key store
 * answers asynchronously, so the answer is a snapshot read when the extensions load (before
 * `session_start`) and read again in the background each time an extension asks, so a key added or a
 * sign-in made during the session counts from the next question on. It asks the store's `keySource`
 * (where a key would come from, as `pi --list-models` shows it), which runs no `!command` and refreshes
 * no sign-in; a provider an extension registered with an `apiKey` counts as keyed too.
 */
import type { AuthStore, Handle, Model, ModelCatalog } from "pi-host";

/** The auth plugin's side-effect-free "where would the key come from" (not in the contract yet). */
interface KeySourceReader {
  keySource(provider: string): Promise<{ kind: string; label: string; variable?: string; oauth?: boolean }>;
}

/** Where one provider's key comes from, as last read. */
interface KeyFact {
  kind: string;
  label: string;
  variable?: string;
  oauth: boolean;
}

/** pi's `getProviderAuthStatus` answer. */
export interface ProviderAuthStatus {
  configured: boolean;
  source?: "runtime" | "stored" | "environment" | "models.json" | "extension";
  label?: string;
}

/** The providers with a key, as last read. */
export class KeyedProviders {
  private keyed = new Map<string, KeyFact>();
  private reading: Promise<void> | undefined;

  constructor(
    private readonly models: Handle<ModelCatalog>,
    private readonly auth: Handle<AuthStore>,
  ) {}

  /**
   * Reads every catalog provider's key source (errors count as "no key"). Background reads share one in
   * flight; `fresh` (pi's `refresh()`) waits for it and reads again, so it sees changes made meanwhile.
   */
  refresh(fresh = false): Promise<void> {
    if (this.reading !== undefined) return fresh ? this.reading.then(() => this.refresh()) : this.reading;
    this.reading = (async () => {
      try {
        if (!this.models.available) return;
        const store = this.auth.available
          ? (this.auth.peek() as (AuthStore & Partial<KeySourceReader>) | undefined)
          : undefined;
        const providers = [...new Set(this.models.api.list().map((m) => m.provider))];
        const answers = await Promise.all(providers.map((p) => this.read(store, p)));
        this.keyed = new Map(answers.filter((a): a is [string, KeyFact] => a !== undefined));
      } finally {
        this.reading = undefined;
      }
    })();
    return this.reading;
  }

  private async read(
    store: (AuthStore & Partial<KeySourceReader>) | undefined,
    provider: string,
  ): Promise<[string, KeyFact] | undefined> {
    const source =
      typeof store?.keySource === "function" ? await store.keySource(provider).catch(() => undefined) : undefined;
    if (source !== undefined && source.kind !== "none")
      return [
        provider,
        { kind: source.kind, label: source.label, variable: source.variable, oauth: source.oauth === true },
      ];
    let registered: string | undefined;
    try {
      registered = this.models.api.registeredApiKey(provider);
    } catch {
      registered = undefined;
    }
    return registered === undefined ? undefined : [provider, { kind: "extension", label: "extension", oauth: false }];
  }

  /** Whether `model`'s provider had a key at the last reading. */
  has(model: Pick<Model, "provider">): boolean {
    void this.refresh();
    return this.keyed.has(model.provider);
  }

  /** Whether `provider`'s key is an account sign-in (an OAuth entry of auth.json). */
  isUsingOAuth(provider: string): boolean {
    void this.refresh();
    return this.keyed.get(provider)?.oauth === true;
  }

  /** pi's `getProviderAuthStatus(provider)`: whether a key is configured and where from. */
  status(provider: string): ProviderAuthStatus {
    void this.refresh();
    const fact = this.keyed.get(provider);
    if (fact === undefined) return { configured: false };
    switch (fact.kind) {
      case "flag":
        return { configured: true, source: "runtime" };
      case "auth.json":
        return { configured: true, source: "stored" };
      case "env":
        return { configured: true, source: "environment", label: fact.variable ?? fact.label };
      case "ambient":
        return { configured: true, source: "environment", label: fact.label };
      case "models.json":
        return { configured: true, source: "models.json" };
      default:
        return { configured: true, source: "extension" };
    }
  }

  /** The catalog's models whose provider had a key at the last reading. */
  available(): Model[] {
    if (!this.models.available) return [];
    void this.refresh();
    return this.models.api.list().filter((m) => this.keyed.has(m.provider));
  }
}
