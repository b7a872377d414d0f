/**
 * How messages from extensions join the conversation (`pi.sendMessage`, `pi.sendUserMessage`, and the
 * message a `before_agent_start` handler returns), as pi delivers them, through what the contracts allow:
 *
 *   - a custom message while no run goes on is saved at once (a `custom_message` entry, as pi writes it)
 *     and published as message_start/message_end;
 *   - one sent during a run ("steer" or "followUp") is saved and shown to the model before the run's next
 *     request; if the run makes no further request it is saved when the run ends;
 *   - "nextTurn" ones wait for the next prompt and follow its user message, as do `before_agent_start`
 *     messages;
 *   - a user message goes through `agent/session` (prompt, steer or follow-up); inside a command handler
 *     the first one becomes the text the command's prompt sends on.
 *
 * A message delivered into a run is kept in the run's transcript by `transformContext`, after the message
 * it followed, so every later request of the run sees it where it was saved. `triggerTurn` while idle
 * saves the message and starts a run from the context (`agent/session`'s `continueRun`), as pi does.
 */
import type { SessionEvent } from "pi-host";
import type { AgentMessage } from "pi-host";
import type { ImageContent, Message, TextContent } from "pi-host";
import type { ExtensionRuntime } from "./runtime.js";
import { customMessage, type CustomMessage, type CustomMessageInput } from "./types.js";

/** pi's delivery options of `sendMessage`. */
export interface SendMessageOptions {
  triggerTurn?: boolean;
  deliverAs?: "steer" | "followUp" | "nextTurn";
}

/** What a command handler's `sendUserMessage` calls turned into. */
export interface CommandScope {
  /** The first user message (text and images): the prompt continues with it. */
  replacement: { text: string; images?: ImageContent[] } | undefined;
  /** Ends the command's hold on its prompt (a session operation must wait for the session to be free). */
  detach(): void;
  /**
   * The first `sendUserMessage` was made: the prompt goes on with it at once, while the handler keeps
   * running (pi starts that run right away, and commands wait for it with `ctx.waitForIdle()`).
   */
  send(): void;
  /** Whether `send` happened: `ctx.waitForIdle()` then waits for the run it started. */
  sent: boolean;
}

/** A message delivered into a run, kept right after `anchor` in every later request of that run. */
interface Injection {
  anchor: AgentMessage;
  message: CustomMessage;
}

/** Delivery state of one plugin generation. */
export class MessageDelivery {
  /** The run's abort signal (pi's `ctx.signal`), while a run goes on. */
  signal: AbortSignal | undefined;
  /** The system prompt a `before_agent_start` handler set; it holds until the next prompt. */
  systemPromptOverride: string | undefined;
  /** Set while a command handler runs inside the prompt that named it. */
  commandScope: CommandScope | undefined;
  private runActive = false;
  private firstRequestPending = false;
  private promptMessage: AgentMessage | undefined;
  private beforeAgentStartDue = false;
  private injections: Injection[] = [];
  private readonly nextTurn: CustomMessage[] = [];
  private readonly duringRun: CustomMessage[] = [];
  /** Texts this plugin prompted with, so their `input` event says source "extension". */
  private readonly ownPrompts: string[] = [];

  constructor(private readonly runtime: ExtensionRuntime) {}

  /** Follows runs on the session's events: where a run starts, which message is its prompt, when it ends. */
  observe(event: SessionEvent): void {
    if (event.type === "agent_start") {
      this.runActive = true;
      this.firstRequestPending = true;
      this.promptMessage = undefined;
      this.injections = [];
    } else if (
      event.type === "message_end" &&
      this.firstRequestPending &&
      this.promptMessage === undefined &&
      event.message.role === "user"
    ) {
      // The run's first user message is its prompt (steering typed meanwhile may follow it).
      this.promptMessage = event.message;
      this.beforeAgentStartDue = true;
    } else if (event.type === "agent_end") {
      this.runActive = false;
      this.signal = undefined;
      this.injections = [];
      for (const message of this.duringRun.splice(0)) this.save(message);
    }
  }

  /** Whether the first request of a run that began with a prompt is due (`before_agent_start` runs then). */
  takeBeforeAgentStart(): { prompt: AgentMessage } | undefined {
    if (!this.beforeAgentStartDue || this.promptMessage === undefined) return undefined;
    this.beforeAgentStartDue = false;
    return { prompt: this.promptMessage };
  }

  /**
   * The run's transcript with every delivered message in place: saves the messages waiting for this
   * request (next-turn ones after the prompt, ones sent during the run after the latest message).
   */
  transcript(messages: AgentMessage[], signal: AbortSignal | undefined): AgentMessage[] {
    this.signal = signal;
    if (this.firstRequestPending) {
      this.firstRequestPending = false;
      if (this.promptMessage !== undefined)
        for (const message of this.nextTurn.splice(0)) this.deliverAfter(this.promptMessage, message);
    }
    const latest = messages.at(-1);
    if (latest !== undefined) for (const message of this.duringRun.splice(0)) this.deliverAfter(latest, message);
    if (this.injections.length === 0) return messages;
    const out: AgentMessage[] = [];
    for (const message of messages) {
      out.push(message);
      for (const injection of this.injections) if (injection.anchor === message) out.push(injection.message);
    }
    return out;
  }

  /** Saves `message` now and keeps it after `anchor` for the rest of the run; returns it as the model sees it. */
  deliverAfter(anchor: AgentMessage, message: CustomMessage): Message {
    this.save(message);
    this.injections.push({ anchor, message });
    return toLlm(message);
  }

  /** pi's `sendMessage`. */
  sendMessage(input: CustomMessageInput, options: SendMessageOptions = {}): void {
    const deliverAs = options.deliverAs;
    if (deliverAs !== undefined && deliverAs !== "steer" && deliverAs !== "followUp" && deliverAs !== "nextTurn") {
      throw new Error(
        `sendMessage: deliverAs must be "steer", "followUp" or "nextTurn", not ${JSON.stringify(deliverAs)}`,
      );
    }
    const message = customMessage(input);
    if (deliverAs === "nextTurn") {
      this.nextTurn.push(message);
      return;
    }
    if (this.runActive) {
      this.duringRun.push(message);
      return;
    }
    this.save(message);
    // pi: an idle session answers the message at once (from a command: once the command's prompt let go).
    if (options.triggerTurn) {
      const session = this.runtime.services.session.api;
      const start = this.runtime.inPromptPhase
        ? session.idle().then(() => session.continueRun())
        : session.continueRun();
      void start.catch((error: unknown) => this.runtime.report(undefined, "sendMessage({ triggerTurn })", error));
    }
  }

  /** pi's `sendUserMessage`. */
  sendUserMessage(
    content: string | Array<TextContent | ImageContent>,
    options: { deliverAs?: "steer" | "followUp" } = {},
  ): void {
    const { text, images } = splitContent(content);
    const session = this.runtime.services.session;
    const report = (work: Promise<unknown>): void =>
      void work.catch((error: unknown) => this.runtime.report(undefined, "sendUserMessage", error));
    const scope = this.commandScope;
    if (scope !== undefined) {
      if (scope.replacement === undefined) {
        scope.replacement = { text, ...(images !== undefined && { images }) };
        scope.send();
      } else report(session.api.followUp(text, images));
      return;
    }
    if (!this.runtime.isIdle()) {
      if (options.deliverAs === "steer") report(session.api.steer(text, images));
      else if (options.deliverAs === "followUp") report(session.api.followUp(text, images));
      else
        throw new Error("Agent is already processing. Specify deliverAs ('steer' or 'followUp') to queue the message.");
      return;
    }
    this.ownPrompts.push(text);
    report(session.api.prompt(text, images === undefined ? undefined : { images }));
  }

  /** A command that changes the session lets its prompt end first; its handler goes on after it. */
  detachCommand(): void {
    const scope = this.commandScope;
    if (scope === undefined) return;
    this.commandScope = undefined;
    scope.detach();
  }

  /** Whether `text` is a prompt this plugin sent (consumed once). */
  takeOwnPrompt(text: string): boolean {
    const index = this.ownPrompts.indexOf(text);
    if (index === -1) return false;
    this.ownPrompts.splice(index, 1);
    return true;
  }

  /** Appends a custom message to the session as pi does (a `custom_message` entry) and publishes it. */
  private save(message: CustomMessage): void {
    const { store } = this.runtime.services;
    if (!store.available) throw new Error("sendMessage needs a session store plugin (session-jsonl)");
    store.api.appendCustomMessage(message.customType, message.content, message.display, message.details);
    this.runtime.publish({ type: "message_start", message });
    this.runtime.publish({ type: "message_end", message });
  }
}

/** A custom message as the model reads it: a user message with its content (pi's convertToLlm). */
export function toLlm(message: CustomMessage): Message {
  const content =
    typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
  return { role: "user", content, timestamp: message.timestamp };
}

/** pi's normalization of `sendUserMessage` content: text parts joined by newlines, images apart. */
function splitContent(content: string | Array<TextContent | ImageContent>): {
  text: string;
  images: ImageContent[] | undefined;
} {
  if (typeof content === "string") return { text: content, images: undefined };
  if (!Array.isArray(content)) throw new Error("sendUserMessage needs a string or an array of text and image blocks");
  const texts: string[] = [];
  const images: ImageContent[] = [];
  for (const part of content) {
    if (part?.type === "text") texts.push(part.text);
    else if (part?.type === "image") images.push(part);
    else throw new Error(`sendUserMessage: unknown content block ${JSON.stringify(part)}`);
  }
  return { text: texts.join("\n"), images: images.length > 0 ? images : undefined };
}
